/**
 * resolveConfig: defaults, immutability, caching, secrets, host trust, basePath and cookie sets.
 * Every case resolves a fresh configuration object with an explicit environment object.
 */
import { jest } from "@jest/globals"
import { resolveConfig } from "../../../lib/core/config/resolve.js"
import { MissingSecret, MissingSecretError, UntrustedHost } from "../../../lib/errors.js"
import { credentials, SECRET } from "../../helpers/app.js"
import { config, DEV_ENV, expectConfigError, PROD_ENV, recordingLogger, resolveWith } from "./support.js"


/** Freezes `value` and everything reachable from it, so any write by the code under test throws. */
function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if ((typeof value !== "object" || value === null) && typeof value !== "function") return value
  if (seen.has(value)) return value
  seen.add(value)
  for (const key of Reflect.ownKeys(value as object)) deepFreeze((value as Record<PropertyKey, unknown>)[key], seen)
  return Object.freeze(value)
}

/** A structuredClone-able picture of a configuration: functions by name, dates by time. */
function snapshot(value: unknown): unknown {
  if (typeof value === "function") return `[function ${value.name}]`
  if (value instanceof Date) return `Date(${value.getTime()})`
  if (typeof value === "symbol") return value.toString()
  if (Array.isArray(value)) return value.map(snapshot)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Reflect.ownKeys(value).map((key) => [String(key), snapshot((value as Record<PropertyKey, unknown>)[key])]))
  }
  return value
}

describe("defaults", () => {
  it("basePath /auth, cookie strategy, 30-day maxAge, 1-day updateAge", () => {
    const resolved = resolveWith()
    expect(resolved.basePath).toBe("/auth")
    expect(resolved.basePathExplicit).toBe(false)
    expect(resolved.session).toMatchObject({ strategy: "cookie", maxAge: 2592000, updateAge: 86400, tokenMaxAge: 2592000 })
    expect(resolved.session.absoluteExpires).toBeUndefined()
    expect(resolved.skipCSRFCheck).toBe(false)
    expect(resolved.custom).toEqual({ jwt: false, session: false, signIn: false })
  })

  it("logLevel error: errors reach the console, warnings and debug lines do not", () => {
    const error = jest.spyOn(console, "error").mockImplementation(() => {})
    const warn = jest.spyOn(console, "warn").mockImplementation(() => {})
    const debug = jest.spyOn(console, "debug").mockImplementation(() => {})
    try {
      const resolved = resolveConfig({ secret: SECRET, providers: [credentials()] }, DEV_ENV)
      resolved.logger.warn("csrf-disabled")
      resolved.logger.debug("hello")
      expect(warn).not.toHaveBeenCalled()
      expect(debug).not.toHaveBeenCalled()
      resolved.logger.error(new Error("boom"))
      expect(error).toHaveBeenCalledWith(expect.stringContaining("[gatehouse][error] Error: boom"))
    } finally {
      jest.restoreAllMocks()
    }
  })

  it("generateSessionToken returns distinct tokens of 32 random bytes (64 hex characters)", () => {
    const { generateSessionToken } = resolveWith().session
    const tokens = new Set(Array.from({ length: 20 }, () => generateSessionToken()))
    expect(tokens.size).toBe(20)
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe("immutability and caching", () => {
  it("the result and its records are frozen", () => {
    const resolved = resolveWith()
    for (const part of [resolved, resolved.session, resolved.callbacks, resolved.secrets, resolved.events, resolved.pages, resolved.theme, resolved.custom]) {
      expect(Object.isFrozen(part)).toBe(true)
    }
    for (const part of [resolved.cookies.plain, resolved.cookies.secure, resolved.providers.list, resolved.providers.list[0]]) {
      expect(Object.isFrozen(part)).toBe(true)
    }
    expect(() => {
      ;(resolved as unknown as Record<string, unknown>).basePath = "/elsewhere"
    }).toThrow(TypeError)
    expect(resolved.basePath).toBe("/auth")
  })

  it("the user's object is never modified (a deep-frozen configuration resolves)", () => {
    const cfg = deepFreeze(
      config({
        providers: [credentials(), () => credentials({ id: "second" })],
        basePath: "/api/auth/",
        secret: ["first-secret", "second-secret"],
        session: { maxAge: new Date(Date.now() + 3600_000), updateAge: 0, generateSessionToken: () => "token" },
        jwt: { maxAge: 60 },
        callbacks: { signIn: () => true },
        events: { signOut: () => undefined },
        pages: { signIn: "/login" },
        theme: { brandColor: "teal", logo: "/logo.png" },
        cookies: { sessionToken: { name: "__Secure-sid", options: { domain: "example.com" } }, csrfToken: { options: { sameSite: "strict" } } },
        experimental: { flag: true },
        logger: { warn: () => {} },
      }),
    )
    const before = structuredClone(snapshot(cfg))
    const resolved = resolveConfig(cfg, DEV_ENV)
    expect(snapshot(cfg)).toEqual(before)
    expect(resolved.basePath).toBe("/api/auth")
    expect(resolved.source).toBe(cfg)
  })

  it("resolving a configuration object that is not frozen leaves it as it was", () => {
    const cfg = config({ cookies: { csrfToken: { name: "__Host-csrf" } }, session: { strategy: "jwt" } })
    const before = structuredClone(snapshot(cfg))
    resolveConfig(cfg, DEV_ENV)
    expect(snapshot(cfg)).toEqual(before)
  })

  it("the same object resolves to the same instance; an equal copy does not", () => {
    const cfg = config()
    const first = resolveConfig(cfg, DEV_ENV)
    expect(resolveConfig(cfg, DEV_ENV)).toBe(first)
    expect(resolveConfig({ ...cfg }, DEV_ENV)).not.toBe(first)
  })
})

describe("secrets", () => {
  const noSecret = () => config({ secret: undefined })

  it("AUTH_SECRET, then AUTH_SECRET_1..3, in that order", () => {
    const env = { ...DEV_ENV, AUTH_SECRET_3: "s3", AUTH_SECRET_1: "s1", AUTH_SECRET: "s0", AUTH_SECRET_2: "s2" }
    expect(resolveConfig(noSecret(), env).secrets).toEqual(["s0", "s1", "s2", "s3"])
  })

  it("AUTH_SECRET_n without AUTH_SECRET are still used, in order", () => {
    expect(resolveConfig(noSecret(), { ...DEV_ENV, AUTH_SECRET_2: "s2", AUTH_SECRET_1: "s1" }).secrets).toEqual(["s1", "s2"])
  })

  it("NEXTAUTH_SECRET is read as the legacy name of AUTH_SECRET", () => {
    expect(resolveConfig(noSecret(), { ...DEV_ENV, NEXTAUTH_SECRET: "legacy" }).secrets).toEqual(["legacy"])
    expect(resolveConfig(noSecret(), { ...DEV_ENV, NEXTAUTH_SECRET: "legacy", AUTH_SECRET: "current" }).secrets[0]).toBe("current")
  })

  it("config.secret wins over the environment", () => {
    const env = { ...DEV_ENV, AUTH_SECRET: "from-env", AUTH_SECRET_1: "older-env" }
    expect(resolveConfig(config({ secret: "from-config" }), env).secrets).toEqual(["from-config"])
  })

  it("csrfSecret is the first secret; csrfSecrets accepts each, then the list joined with commas (Auth.js's key)", () => {
    const listed = resolveWith({ secret: ["a-secret", "b-secret", "c-secret"] })
    expect(listed.csrfSecret).toBe("a-secret")
    expect(listed.csrfSecrets).toEqual(["a-secret", "b-secret", "c-secret", "a-secret,b-secret,c-secret"])
    const single = resolveWith({ secret: "only-secret" })
    expect([single.csrfSecret, single.csrfSecrets]).toEqual(["only-secret", ["only-secret"]])
  })

  it("production without a secret is a MissingSecretError (type MissingSecret)", () => {
    const env = { NODE_ENV: "production", AUTH_URL: "https://example.com" }
    const error = expectConfigError(noSecret(), MissingSecretError, "MissingSecret", ["AUTH_SECRET"], env)
    expect(error).toBeInstanceOf(MissingSecret)
  })

  it("development without a secret generates one per process and warns dev-secret-generated", () => {
    const first = recordingLogger()
    const second = recordingLogger()
    const a = resolveConfig(config({ secret: undefined, logger: first.logger }), DEV_ENV)
    const b = resolveConfig(config({ secret: undefined, logger: second.logger }), { NODE_ENV: "test" })
    expect(a.secrets).toHaveLength(1)
    expect(a.secrets[0]).toMatch(/^[0-9a-f]{64}$/)
    expect(b.secrets).toEqual(a.secrets)
    expect(first.codes()).toEqual(["dev-secret-generated"])
    expect(second.codes()).toEqual(["dev-secret-generated"])
  })

  it("no dev-secret-generated warning when a secret is set", () => {
    const log = recordingLogger()
    resolveConfig(config({ logger: log.logger }), DEV_ENV)
    expect(log.codes()).not.toContain("dev-secret-generated")
  })
})

describe("host trust", () => {
  const PROD_NO_URL = { NODE_ENV: "production", AUTH_SECRET: SECRET }

  it("production without AUTH_URL and without trustHost is an UntrustedHost", () => {
    expectConfigError(config(), UntrustedHost, "UntrustedHost", ["AUTH_URL"], PROD_NO_URL)
  })

  it("production with AUTH_URL is trusted for its origin", () => {
    const resolved = resolveConfig(config(), PROD_ENV)
    expect(resolved.authUrl?.origin).toBe("https://example.com")
    expect(resolved.production).toBe(true)
  })

  it.each(["true", "1"])("AUTH_TRUST_HOST=%s trusts the host", (value) => {
    expect(resolveConfig(config(), { ...PROD_NO_URL, AUTH_TRUST_HOST: value }).trustHost).toBe(true)
  })

  it.each(["false", "0"])("AUTH_TRUST_HOST=%s does not", (value) => {
    expectConfigError(config(), UntrustedHost, "UntrustedHost", [], { ...PROD_NO_URL, AUTH_TRUST_HOST: value })
    expect(resolveConfig(config(), { ...PROD_ENV, AUTH_TRUST_HOST: value }).trustHost).toBe(false)
  })

  it.each(["VERCEL", "CF_PAGES"])("%s (a hosting platform) trusts the host", (name) => {
    expect(resolveConfig(config(), { ...PROD_NO_URL, [name]: "1" }).trustHost).toBe(true)
  })

  it("trustHost in the configuration wins over AUTH_TRUST_HOST", () => {
    expect(resolveConfig(config({ trustHost: true }), { ...PROD_NO_URL, AUTH_TRUST_HOST: "false" }).trustHost).toBe(true)
    expect(resolveConfig(config({ trustHost: false }), { ...PROD_ENV, AUTH_TRUST_HOST: "true" }).trustHost).toBe(false)
  })

  it("development trusts the host by default", () => {
    expect(resolveWith().trustHost).toBe(true)
  })

  it("trusthost-without-url is warned in production only, and only without AUTH_URL", () => {
    const prod = recordingLogger()
    resolveConfig(config({ trustHost: true, logger: prod.logger }), PROD_NO_URL)
    expect(prod.codes()).toEqual(["trusthost-without-url"])
    const withUrl = recordingLogger()
    resolveConfig(config({ trustHost: true, logger: withUrl.logger }), PROD_ENV)
    const dev = recordingLogger()
    resolveConfig(config({ trustHost: true, logger: dev.logger }), DEV_ENV)
    expect([...withUrl.codes(), ...dev.codes()]).not.toContain("trusthost-without-url")
  })

  it.each(["not a url", "ftp://example.com/auth"])("an AUTH_URL that is not an http(s) URL (%s) is an UntrustedHost", (url) => {
    expectConfigError(config(), UntrustedHost, "UntrustedHost", ["AUTH_URL", JSON.stringify(url)], { ...DEV_ENV, AUTH_URL: url })
  })
})
