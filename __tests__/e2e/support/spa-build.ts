/**
 * The single-page app example, built for a browser test: `gatehouse/client` and `gatehouse/react`
 * (dist/client, rebuilt with `tsc -p tsconfig.client.json` when a source is newer), then the Vite
 * app of examples/spa/web into a temporary directory (the checkout's own build is left alone).
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ROOT } from "../../helpers/build.js"

const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc")

function newest(dir: string): number {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return latest
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs
  } catch {
    return 0
  }
}

function run(args: string[]): Promise<void> {
  return new Promise((done, failed) => {
    execFile(process.execPath, args, { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" }, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) failed(new Error(`node ${args.join(" ")} failed:\n${stdout}${stderr}`))
      else done()
    })
  })
}

/** dist/client, compiled again unless it is newer than every file of client/src and the tsconfig. */
export async function ensureClientBuilt(): Promise<void> {
  const sources = Math.max(newest(join(ROOT, "client", "src")), mtime(join(ROOT, "tsconfig.client.json")))
  const built = Math.min(mtime(join(ROOT, "dist", "client", "index.js")), mtime(join(ROOT, "dist", "client", "react.js")))
  if (built >= sources) return
  await run([TSC, "-p", "tsconfig.client.json"])
}

/** Builds the client if needed, then the app with Vite; returns the directory holding index.html. */
export async function buildSpa(): Promise<string> {
  await ensureClientBuilt()
  const outDir = mkdtempSync(join(tmpdir(), "gatehouse-spa-"))
  await run([join(ROOT, "__tests__", "e2e", "support", "spa-vite.js"), outDir])
  return outDir
}
