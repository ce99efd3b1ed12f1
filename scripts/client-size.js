#!/usr/bin/env node
// The size of gatehouse/client as an app's bundler would ship it: dist/client/index.js bundled by
// esbuild, minified, gzipped (zlib, level 9), twice: the core (@simplewebauthn/browser left
// external: the client imports it lazily, only when a passkey ceremony runs, so a bundler splits
// it into its own chunk) and everything (the passkey library included). Fails when either is over
// its budget. Run after `tsc -p tsconfig.client.json`: `node scripts/client-size.js`.
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { build } from "esbuild"

/** Budgets in bytes, minified + gzip (see the measured sizes in docs/client.md; room for small growth). */
export const BUDGETS = { core: 4 * 1024, withPasskeys: 8 * 1024 }

const ENTRY = fileURLToPath(new URL("../dist/client/index.js", import.meta.url))

async function measure(external) {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    external,
    write: false,
    logLevel: "silent",
  })
  const code = result.outputFiles[0].contents
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length }
}

const kB = (bytes) => `${(bytes / 1024).toFixed(2)} kB`

if (!existsSync(ENTRY)) {
  console.error(`${ENTRY} is missing: run \`npx tsc -p tsconfig.client.json\` first`)
  process.exit(1)
}
const sizes = { core: await measure(["@simplewebauthn/browser"]), withPasskeys: await measure([]) }
let over = false
for (const [name, size] of Object.entries(sizes)) {
  const budget = BUDGETS[name]
  const ok = size.gzip <= budget
  over ||= !ok
  console.log(`gatehouse/client ${name === "core" ? "core (passkey library external)" : "with @simplewebauthn/browser"}: ${kB(size.minified)} minified, ${kB(size.gzip)} gzip (budget ${kB(budget)}) ${ok ? "ok" : "OVER BUDGET"}`)
}
if (over) process.exit(1)
