/**
 * Issue #25: a capability's named errors live in its folder (lib/<capability>/errors.ts), their
 * types join `ErrorType` from there, and its capability object answers them (`outcomes`).
 * `gatehouse/errors` still exports every class and lists every type.
 */
import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@jest/globals"
import * as errors from "../../../lib/errors.js"
import { AuthError, ERROR_TYPES, type ErrorType } from "../../../lib/errors.js"
import { CAPABILITIES } from "../../../lib/capabilities.js"
import type { Capability } from "../../../lib/core/capability.js"

const LIB = join(dirname(fileURLToPath(import.meta.url)), "../../../lib")

/** The folders lib/capabilities.ts takes capabilities from, with an errors.ts of their own. */
const folders = [...readFileSync(join(LIB, "capabilities.ts"), "utf8").matchAll(/from "\.\/([\w-]+)\/capability\.js"/g)]
  .map((match) => match[1] as string)
  .filter((folder) => folder !== "core" && existsSync(join(LIB, folder, "errors.ts")))

/** Errors thrown only to the app's code (server helpers such as `getAccessToken`): no route answers them. */
const THROWN_TO_THE_APP: Readonly<Record<string, readonly string[]>> = { tokens: ["ProviderTokenMissing", "RefreshTokenError", "TokenRefreshFailed"] }

type ErrorClass = typeof AuthError & { type: string }

const isErrorClass = (value: unknown): value is ErrorClass => typeof value === "function" && value.prototype instanceof AuthError && typeof (value as { type?: unknown }).type === "string"

// Checked when compiling: every registered type has a class in `gatehouse/errors`, but for
// `Configuration` (the plain AuthError); the other way round, each class's type is an ErrorType.
type ClassTypes = Extract<(typeof errors)[keyof typeof errors], { type: string }>["type"]
const everyTypeHasAClass: [Exclude<ErrorType, ClassTypes | "Configuration">] extends [never] ? true : false = true

async function capabilityOf(folder: string): Promise<Capability> {
  const module: Record<string, unknown> = await import(`../../../lib/${folder}/capability.js`)
  const found = Object.values(module).find((value) => CAPABILITIES.includes(value as Capability))
  if (!found) throw new Error(`lib/${folder}/capability.ts exports no capability of lib/capabilities.ts`)
  return found as Capability
}

describe("each capability's errors", () => {
  it("every registered type has a class (checked by the compiler)", () => {
    expect(everyTypeHasAClass).toBe(true)
  })

  it("ERROR_TYPES is sorted, without repeats, and holds Configuration and every class's type", () => {
    expect([...ERROR_TYPES]).toEqual([...new Set(ERROR_TYPES)].sort())
    const types = Object.values(errors).filter(isErrorClass).map((cls) => cls.type)
    expect([...ERROR_TYPES]).toEqual([...new Set(["Configuration", ...types])].sort())
  })

  it("the capabilities with errors of their own are found", () => {
    expect(folders).toEqual(expect.arrayContaining(["account", "devices", "email-codes", "federation", "passkeys", "password", "tokens", "two-factor"]))
  })

  it.each(folders)("%s: its classes are exported by gatehouse/errors, and its capability answers each (outcomes)", async (folder) => {
    const module: Record<string, unknown> = await import(`../../../lib/${folder}/errors.js`)
    const classes = Object.entries(module)
    expect(classes.length).toBeGreaterThan(0)
    const capability = await capabilityOf(folder)
    const thrownToTheApp = THROWN_TO_THE_APP[folder] ?? []
    for (const [name, cls] of classes) {
      expect({ name, errorClass: isErrorClass(cls) }).toEqual({ name, errorClass: true })
      expect({ name, exported: (errors as Record<string, unknown>)[name] === cls }).toEqual({ name, exported: true })
      const type = (cls as ErrorClass).type
      expect(ERROR_TYPES).toContain(type)
      const answered = Object.hasOwn(capability.outcomes ?? {}, type)
      expect({ type, answered }).toEqual({ type, answered: !thrownToTheApp.includes(type) })
    }
  })

  it("every capability's outcomes name error types", () => {
    for (const capability of CAPABILITIES) {
      for (const type of Object.keys(capability.outcomes ?? {})) expect({ capability: capability.name, type, known: (ERROR_TYPES as readonly string[]).includes(type) }).toEqual({ capability: capability.name, type, known: true })
    }
  })
})
