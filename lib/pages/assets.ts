/**
 * Files the router serves itself under `<basePath>/assets/`: the passkey script of the sign-in
 * page (the @simplewebauthn/browser bundle followed by views/assets/webauthn.js, read once), so
 * the pages need no inline script and their CSP stays `script-src 'self'`.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import type { ResponseInternal } from "../types.js"

export const WEBAUTHN_SCRIPT = "webauthn.js"

let script: string | undefined

function webauthnScript(): string {
  if (script === undefined) {
    // The package's `exports` do not list its browser bundle: find it from the package's root.
    const entry = createRequire(import.meta.url).resolve("@simplewebauthn/browser")
    const root = dirname(entry).replace(/[\\/](script|esm)$/, "")
    const bundle = readFileSync(join(root, "dist", "bundle", "index.umd.min.js"), "utf8")
    const own = [new URL("../../views/assets/webauthn.js", import.meta.url), new URL("../../../views/assets/webauthn.js", import.meta.url)]
      .map((url) => fileURLToPath(url))
      .map((path) => {
        try {
          return readFileSync(path, "utf8")
        } catch {
          return undefined
        }
      })
      .find((text) => text !== undefined)
    if (own === undefined) throw new Error("gatehouse: views/assets/webauthn.js is missing from the installed package")
    script = `${bundle}\n${own}`
  }
  return script
}

/** The asset at `name`, or undefined when there is none. */
export function assetResponse(name: string): ResponseInternal | undefined {
  if (name !== WEBAUTHN_SCRIPT) return undefined
  return {
    status: 200,
    body: webauthnScript(),
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  }
}
