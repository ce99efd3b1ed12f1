/**
 * resolveRateLimit: the `rateLimit` option. On by default in production, off otherwise; true/false
 * or { enabled } decide; each method's rules default to the documented limits; `false` drops a
 * rule or a method; anything else invalid throws InvalidOption naming the path. Also the client
 * address a limit is keyed on.
 */
import { describe, expect, it } from "@jest/globals"
import { DEFAULT_RATE_LIMITS, resolveRateLimit } from "../../../lib/rate-limit/options.js"
import { clientAddress, normalizeAddress } from "../../../lib/rate-limit/client-address.js"
import { resolveConfig } from "../../../lib/core/config/resolve.js"
import { InvalidOption } from "../../../lib/errors.js"
import { testConfig } from "../../helpers/app.js"

const DEFAULTS = {
  credentials: { ip: { limit: 50, window: 900 }, identifier: { limit: 10, window: 900 } },
  email: { ip: { limit: 30, window: 3600 }, identifier: { limit: 5, window: 3600 } },
  // Issue #19: the verify-request page, the link's confirm page and the link/code POSTs.
  emailCallback: { ip: { limit: 60, window: 900 }, identifier: { limit: 10, window: 900 } },
  webauthn: { ip: { limit: 50, window: 900 } },
  // Issue #13: the passkey options endpoint (registration and authentication).
  webauthnOptions: { ip: { limit: 100, window: 900 } },
  // Issue #16: second-factor codes, per address and per user.
  twoFactor: { ip: { limit: 50, window: 900 }, identifier: { limit: 5, window: 900 } },
}

function invalid(option: unknown, path: string): void {
  let thrown: unknown
  try {
    resolveRateLimit(option, true)
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(InvalidOption)
  expect((thrown as Error).message).toContain(path)
}

describe("on and off", () => {
  it("on in production, off otherwise, when not given", () => {
    expect(resolveRateLimit(undefined, true)).toEqual(DEFAULTS)
    expect(resolveRateLimit(undefined, false)).toBeUndefined()
    expect(DEFAULT_RATE_LIMITS).toEqual(DEFAULTS)
  })

  it("true and false decide whatever the environment", () => {
    expect(resolveRateLimit(true, false)).toEqual(DEFAULTS)
    expect(resolveRateLimit(false, true)).toBeUndefined()
    expect(resolveRateLimit({ enabled: true }, false)).toEqual(DEFAULTS)
    expect(resolveRateLimit({ enabled: false }, true)).toBeUndefined()
  })

  it("an object without `enabled` follows the environment", () => {
    const option = { credentials: { identifier: { limit: 3, window: 60 } } }
    expect(resolveRateLimit(option, false)).toBeUndefined()
    expect(resolveRateLimit(option, true)?.credentials).toEqual({ ip: DEFAULTS.credentials.ip, identifier: { limit: 3, window: 60 } })
  })

  it("through the configuration: NODE_ENV=production turns it on, rateLimit: false off", () => {
    const production = { NODE_ENV: "production", AUTH_URL: "https://app.test/auth" }
    expect(resolveConfig(testConfig(), production).rateLimit).toEqual(DEFAULTS)
    expect(resolveConfig(testConfig(), { NODE_ENV: "development" }).rateLimit).toBeUndefined()
    expect(resolveConfig(testConfig(), {}).rateLimit).toBeUndefined()
    expect(resolveConfig(testConfig({ rateLimit: false }), production).rateLimit).toBeUndefined()
    expect(resolveConfig(testConfig({ rateLimit: true }), {}).rateLimit).toEqual(DEFAULTS)
  })
})

describe("rules", () => {
  it("a given rule replaces the default; false drops a rule or a whole method", () => {
    const resolved = resolveRateLimit(
      { enabled: true, credentials: { ip: false, identifier: { limit: 3, window: 1.5 } }, email: false, emailCallback: false, webauthn: { ip: { limit: 7, window: 60 } }, webauthnOptions: false, twoFactor: false },
      false,
    )
    expect(resolved).toEqual({ credentials: { identifier: { limit: 3, window: 1.5 } }, webauthn: { ip: { limit: 7, window: 60 } } })
    expect(resolved).not.toHaveProperty("email")
    expect(resolved?.credentials).not.toHaveProperty("ip", expect.anything())
  })

  it("a method with both rules dropped is not limited at all", () => {
    expect(resolveRateLimit({ enabled: true, credentials: { ip: false, identifier: false } }, false)).not.toHaveProperty("credentials")
  })

  it("the result is frozen", () => {
    const resolved = resolveRateLimit(true, false)!
    expect(Object.isFrozen(resolved)).toBe(true)
    expect(Object.isFrozen(resolved.credentials)).toBe(true)
  })
})

describe("invalid options throw InvalidOption naming the path", () => {
  it("the option itself", () => {
    for (const value of ["yes", 1, null, () => true]) invalid(value, "rateLimit")
  })

  it("enabled must be a boolean", () => {
    for (const value of ["false", 0, 1, null]) invalid({ enabled: value }, "rateLimit.enabled")
  })

  it("a method must be false or an object", () => {
    invalid({ credentials: true }, "rateLimit.credentials")
    invalid({ email: "strict" }, "rateLimit.email")
    invalid({ webauthn: null }, "rateLimit.webauthn")
  })

  it("rules need a whole limit ≥ 1 and a positive finite window", () => {
    const bad = [{ limit: 0, window: 60 }, { limit: 1.5, window: 60 }, { limit: "10", window: 60 }, { limit: 10, window: 0 }, { limit: 10, window: -1 }, { limit: 10, window: Infinity }, { limit: 10, window: Number.NaN }, { limit: 10 }, { window: 60 }, true, null, 10]
    for (const rule of bad) {
      invalid({ credentials: { ip: rule } }, "rateLimit.credentials.ip")
      invalid({ email: { identifier: rule } }, "rateLimit.email.identifier")
    }
  })

  it("unknown keys (typos) are refused rather than silently leaving the defaults", () => {
    invalid({ credentails: { identifier: { limit: 3, window: 60 } } }, "rateLimit.credentails")
    invalid({ credentials: { identifer: { limit: 3, window: 60 } } }, "rateLimit.credentials.identifer")
    invalid({ email: { ip: { limit: 3, window: 60, windw: 5 } } }, "rateLimit.email.ip.windw")
  })

  it("passkey verification has no identifier rule to set", () => {
    invalid({ webauthn: { identifier: { limit: 3, window: 60 } } }, "rateLimit.webauthn.identifier")
    expect(resolveRateLimit({ webauthn: { identifier: false } }, true)?.webauthn).toEqual(DEFAULTS.webauthn)
  })

  it("through the configuration, at start-up, also where limiting is off (development)", () => {
    expect(() => resolveConfig(testConfig({ rateLimit: { credentials: { ip: { limit: 0, window: 60 } } } }), {})).toThrow(InvalidOption)
    expect(() => resolveConfig(testConfig({ rateLimit: { credentials: { ip: { limit: 0, window: 60 } } } }), {})).toThrow(/rateLimit\.credentials\.ip/)
    expect(() => resolveConfig(testConfig({ rateLimit: { enabled: false, email: { identifier: { limit: -1, window: 60 } } } }), {})).toThrow(/rateLimit\.email\.identifier/)
  })
})

describe("client address", () => {
  it("uses Express's req.ip, else the socket's peer", () => {
    expect(clientAddress({ ip: "203.0.113.9", socket: { remoteAddress: "127.0.0.1" } })).toBe("203.0.113.9")
    expect(clientAddress({ socket: { remoteAddress: "127.0.0.2" } })).toBe("127.0.0.2")
    expect(clientAddress({ ip: "", socket: { remoteAddress: "127.0.0.3" } })).toBe("127.0.0.3")
    expect(clientAddress({})).toBeUndefined()
    expect(clientAddress(undefined)).toBeUndefined()
  })

  it("IPv4-mapped IPv6 reads as IPv4; IPv6 counts by its /64", () => {
    expect(normalizeAddress("::ffff:127.0.0.9")).toBe("127.0.0.9")
    expect(normalizeAddress("::FFFF:10.1.2.3")).toBe("10.1.2.3")
    expect(normalizeAddress("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64")
    expect(normalizeAddress("2001:0db8:0001:0002::1")).toBe("2001:db8:1:2::/64")
    expect(normalizeAddress("2001:db8::1")).toBe("2001:db8:0:0::/64")
    expect(normalizeAddress("2001:DB8:1:2::9%eth0")).toBe("2001:db8:1:2::/64")
    expect(normalizeAddress("::1")).toBe("0:0:0:0::/64")
    // Two addresses of one /64 share a key; the next /64 does not.
    expect(normalizeAddress("2001:db8:1:2::1")).toBe(normalizeAddress("2001:db8:1:2:ffff::7"))
    expect(normalizeAddress("2001:db8:1:3::1")).not.toBe(normalizeAddress("2001:db8:1:2::1"))
    expect(normalizeAddress("192.0.2.1")).toBe("192.0.2.1")
  })
})
