/**
 * Issue #25: the core iterates the capability list and names no capability. Every capability
 * folder listed in lib/capabilities.ts is checked against every file of lib/core/, and every
 * capability's actions are answered by the router.
 */
import { readFileSync, readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@jest/globals"
import { CAPABILITIES } from "../../../lib/capabilities.js"
import { routeList } from "../../../lib/core/dispatch.js"
import { parseActionPath } from "../../../lib/core/actions.js"

const LIB = join(dirname(fileURLToPath(import.meta.url)), "../../../lib")

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []))
}

/** The folders lib/capabilities.ts takes capabilities from (`./<folder>/capability.js`). */
const folders = [...readFileSync(join(LIB, "capabilities.ts"), "utf8").matchAll(/from "\.\/([\w-]+)\/capability\.js"/g)].map((match) => match[1] as string).filter((folder) => folder !== "core")

/** "<file> -> <capability folder>" for each import of a capability's folder by a file under `dir`. */
function capabilityImports(dir: string): string[] {
  return filesUnder(join(LIB, dir)).flatMap((file) => {
    const text = readFileSync(file, "utf8")
    return folders.filter((folder) => new RegExp(`(?:from |import\\(|import )"(?:\\.\\./)+${folder}/`).test(text)).map((folder) => `${file.slice(LIB.length + 1)} -> ${folder}`)
  })
}

describe("the core and the capabilities", () => {
  it("lib/capabilities.ts lists each capability once, from a folder of its own", () => {
    expect(folders.length).toBe(CAPABILITIES.length)
    expect(new Set(folders).size).toBe(folders.length)
    expect(new Set(CAPABILITIES.map((capability) => capability.name)).size).toBe(CAPABILITIES.length)
  })

  it("no file of lib/core/ imports from a capability's folder", () => {
    expect(capabilityImports("core").sort()).toEqual([])
  })

  it("the pages and the catalogs name no capability: its templates, titles and texts are in its folder", () => {
    // The spec's verify-request page shows the code field when the email provider sends codes.
    expect([...capabilityImports("pages"), ...capabilityImports("i18n")].sort()).toEqual(["pages/verify-request.ts -> email-codes"])
  })

  it("every capability's actions are routes of the router, with their second segments", () => {
    const routes = new Set(routeList().map(({ method, action }) => `${method} ${action}`))
    for (const capability of CAPABILITIES) {
      for (const [action, methods] of Object.entries(capability.routes ?? {})) {
        for (const method of Object.keys(methods)) expect(routes.has(`${method} ${action}`)).toBe(true)
        expect(parseActionPath(`/${action}`)).toEqual({ action })
      }
      for (const action of capability.subPaths ?? []) expect(parseActionPath(`/${action}/x`)).toEqual({ action, providerId: "x" })
    }
  })
})
