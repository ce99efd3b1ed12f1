/**
 * Issue #24: two-factor sign-in keeps single-use state (a code's step, a pending sign-in or
 * enrolment, the code tries) that is shared between processes only through `store`. In
 * production without one, start-up logs `two-factor-store-local` (as `session-revocation-local`
 * does for revocations); with a store, outside production, or without `twoFactor`, it does not.
 */
import { describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { MemoryStore } from "../../lib/shared-store/memory.js"
import { baseConfig } from "./support.js"

describe("start-up warning: two-factor sign-in without a shared store", () => {
  function warningsFor(overrides: Parameters<typeof baseConfig>[0], env: Record<string, string>): string[] {
    const warn = jest.fn()
    resolveConfig(baseConfig({ adapter: MemoryAdapter(), logger: { error: () => undefined, warn, debug: () => undefined }, logLevel: "warn", trustHost: true, ...overrides }), env)
    return warn.mock.calls.map((call) => String(call[0]))
  }

  it("in production without `store`, two-factor-store-local is logged", () => {
    expect(warningsFor({}, { NODE_ENV: "production", AUTH_SECRET: "x".repeat(40) })).toContainEqual(expect.stringContaining("two-factor-store-local"))
  })

  it("not with a store, not outside production, not without twoFactor", () => {
    expect(warningsFor({ store: new MemoryStore() }, { NODE_ENV: "production" })).not.toContainEqual(expect.stringContaining("two-factor-store-local"))
    expect(warningsFor({}, { NODE_ENV: "development" })).not.toContainEqual(expect.stringContaining("two-factor-store-local"))
    expect(warningsFor({ twoFactor: undefined }, { NODE_ENV: "production" })).not.toContainEqual(expect.stringContaining("two-factor-store-local"))
  })
})
