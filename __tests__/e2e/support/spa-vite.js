// Builds examples/spa/web with Vite's JavaScript API into the directory given as the argument.
// Run as its own Node process by spa-build.ts: Vite (and its native bundler) stay out of Jest's
// module system. Prints nothing but warnings and errors.
import { fileURLToPath } from "node:url"
import { build } from "vite"

const outDir = process.argv[2]
if (!outDir) throw new Error("usage: node spa-vite.js <outDir>")
await build({
  configFile: fileURLToPath(new URL("../../../examples/spa/web/vite.config.js", import.meta.url)),
  logLevel: "warn",
  build: { outDir, emptyOutDir: true },
})
