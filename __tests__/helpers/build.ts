/**
 * The built package (`dist/`) for tests that run Gatehouse in a separate Node process (where the
 * Jest module mapper does not apply): rebuilt first when a source is newer than the build.
 */
import { execFile } from "node:child_process"
import { readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc")

/** The newest modification time under `dir` (files with one of `extensions`). */
function newest(dir: string, extensions: string[]): number {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) latest = Math.max(latest, newest(path, extensions))
    else if (extensions.some((extension) => entry.name.endsWith(extension))) latest = Math.max(latest, statSync(path).mtimeMs)
  }
  return latest
}

function builtAt(): number {
  try {
    return statSync(join(ROOT, "dist", "lib", "index.js")).mtimeMs
  } catch {
    return 0
  }
}

/** Runs `tsc -p tsconfig.build.json` unless dist/ is newer than every source. */
export async function ensureBuilt(): Promise<void> {
  const sources = Math.max(newest(join(ROOT, "lib"), [".ts", ".js"]), newest(join(ROOT, "adapters"), [".ts"]), statSync(join(ROOT, "tsconfig.build.json")).mtimeMs)
  if (builtAt() >= sources) return
  const output = await new Promise<string | undefined>((done) => {
    execFile(process.execPath, [TSC, "-p", "tsconfig.build.json"], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" }, timeout: 170_000 }, (error, stdout, stderr) => {
      done(error ? `${stdout}${stderr}` : undefined)
    })
  })
  if (output !== undefined) throw new Error(`npm run build failed:\n${output}`)
}
