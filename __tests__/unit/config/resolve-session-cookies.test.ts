/**
 * resolveConfig, continued: basePath and AUTH_URL, the session lifetimes, and the two cookie sets.
 */
import { MemoryAdapter } from "../../../adapters/memory/index.js"
import { resolveConfig } from "../../../lib/core/config/resolve.js"
import { config, DEV_ENV, recordingLogger, resolveWith } from "./support.js"

describe("basePath and AUTH_URL", () => {
  it("AUTH_URL with a path sets basePath (trailing slash dropped)", () => {
    const resolved = resolveConfig(config(), { ...DEV_ENV, AUTH_URL: "https://example.com/api/auth/" })
    expect(resolved.basePath).toBe("/api/auth")
    expect(resolved.basePathExplicit).toBe(true)
    expect(resolved.authUrl?.href).toBe("https://example.com/api/auth/")
  })

  it("NEXTAUTH_URL is read as the legacy name of AUTH_URL", () => {
    expect(resolveConfig(config(), { ...DEV_ENV, NEXTAUTH_URL: "https://example.com/custom" }).basePath).toBe("/custom")
  })

  it("AUTH_URL without a path keeps the default basePath", () => {
    const resolved = resolveConfig(config(), { ...DEV_ENV, AUTH_URL: "https://example.com/" })
    expect(resolved.basePath).toBe("/auth")
    expect(resolved.basePathExplicit).toBe(false)
  })

  it("basePath equal to AUTH_URL's path warns env-url-basepath-redundant", () => {
    const log = recordingLogger()
    const resolved = resolveConfig(config({ basePath: "/api/auth", logger: log.logger }), { ...DEV_ENV, AUTH_URL: "https://example.com/api/auth" })
    expect(resolved.basePath).toBe("/api/auth")
    expect(log.codes()).toEqual(["env-url-basepath-redundant"])
  })

  it("basePath different from AUTH_URL's path warns env-url-basepath-mismatch, and basePath wins", () => {
    const log = recordingLogger()
    const resolved = resolveConfig(config({ basePath: "/login", logger: log.logger }), { ...DEV_ENV, AUTH_URL: "https://example.com/api/auth" })
    expect(resolved.basePath).toBe("/login")
    expect(log.codes()).toEqual(["env-url-basepath-mismatch"])
  })

  it("basePath alone warns about neither", () => {
    const log = recordingLogger()
    const resolved = resolveConfig(config({ basePath: "/login", logger: log.logger }), { ...DEV_ENV, AUTH_URL: "https://example.com" })
    expect(resolved.basePath).toBe("/login")
    expect(resolved.basePathExplicit).toBe(true)
    expect(log.codes()).toEqual([])
  })

  it("AUTH_REDIRECT_PROXY_URL is the default redirectProxyUrl", () => {
    expect(resolveConfig(config(), { ...DEV_ENV, AUTH_REDIRECT_PROXY_URL: "https://proxy.example/api/auth" }).redirectProxyUrl).toBe(
      "https://proxy.example/api/auth",
    )
    expect(resolveWith().redirectProxyUrl).toBeUndefined()
  })
})

describe("session lifetimes", () => {
  it('the strategy defaults to "cookie", or "database" when an adapter is set', () => {
    expect(resolveWith().session.strategy).toBe("cookie")
    const adapter = MemoryAdapter()
    const resolved = resolveWith({ adapter })
    expect(resolved.session.strategy).toBe("database")
    // The core holds a wrapper (AdapterError on failure), never the adapter itself.
    expect(resolved.adapter).not.toBe(adapter)
    expect(typeof resolved.adapter?.createSession).toBe("function")
  })

  it("jwt.maxAge (deprecated) sets tokenMaxAge, not maxAge", () => {
    const { session } = resolveWith({ jwt: { maxAge: 3600 } })
    expect(session.tokenMaxAge).toBe(3600)
    expect(session.maxAge).toBe(2592000)
  })

  it("session.maxAge in seconds sets maxAge and tokenMaxAge", () => {
    const { session } = resolveWith({ session: { maxAge: 600, updateAge: 60 } })
    expect(session).toMatchObject({ maxAge: 600, tokenMaxAge: 600, updateAge: 60 })
    expect(session.absoluteExpires).toBeUndefined()
  })

  it("session.maxAge as a Date sets absoluteExpires (a copy) and keeps the relative default", () => {
    const end = new Date(Date.now() + 24 * 3600 * 1000)
    const log = recordingLogger()
    const { session } = resolveWith({ session: { maxAge: end }, logger: log.logger })
    expect(session.absoluteExpires).toBeInstanceOf(Date)
    expect(session.absoluteExpires?.getTime()).toBe(end.getTime())
    expect(session.absoluteExpires).not.toBe(end)
    expect(session.maxAge).toBe(2592000)
    expect(log.codes()).not.toContain("session-maxage-past")
  })

  it("a Date in the past logs session-maxage-past", () => {
    const log = recordingLogger()
    resolveWith({ session: { maxAge: new Date("2001-01-01T00:00:00Z") }, logger: log.logger })
    expect(log.codes()).toEqual(["session-maxage-past"])
  })

  it("user seal/unseal and generateSessionToken are used; jwt.encode/decode are the fallback", () => {
    const seal = () => "sealed"
    const unseal = () => null
    const encode = () => "encoded"
    const token = () => "fixed-token"
    expect(resolveWith({ session: { seal, unseal, generateSessionToken: token } }).session).toMatchObject({ seal, unseal, generateSessionToken: token })
    expect(resolveWith({ jwt: { encode, decode: unseal } }).session).toMatchObject({ seal: encode, unseal })
    expect(resolveWith({ session: { seal }, jwt: { encode } }).session.seal).toBe(seal)
  })
})

const PLAIN_NAMES = {
  sessionToken: "authjs.session-token",
  callbackUrl: "authjs.callback-url",
  csrfToken: "authjs.csrf-token",
  pkceCodeVerifier: "authjs.pkce.code_verifier",
  state: "authjs.state",
  nonce: "authjs.nonce",
  webauthnChallenge: "authjs.challenge",
}
const FLOW = ["pkceCodeVerifier", "state", "nonce", "webauthnChallenge"] as const
type CookieKey = keyof typeof PLAIN_NAMES
const KEYS = Object.keys(PLAIN_NAMES) as CookieKey[]

describe("cookie sets", () => {
  it("plain names carry no prefix and no Secure", () => {
    const { plain } = resolveWith().cookies
    for (const key of KEYS) {
      expect(plain[key].name).toBe(PLAIN_NAMES[key])
      expect(plain[key].options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", secure: false })
      expect(plain[key].options.domain).toBeUndefined()
    }
  })

  it("secure names are __Secure-..., the CSRF cookie __Host-authjs.csrf-token", () => {
    const { secure } = resolveWith().cookies
    for (const key of KEYS) {
      const expected = key === "csrfToken" ? "__Host-authjs.csrf-token" : `__Secure-${PLAIN_NAMES[key]}`
      expect(secure[key].name).toBe(expected)
      expect(secure[key].options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", secure: true })
    }
  })

  it("flow cookies live 900 seconds; the others are session cookies of the browser", () => {
    const { plain, secure } = resolveWith().cookies
    for (const set of [plain, secure]) {
      for (const key of KEYS) expect(set[key].options.maxAge).toBe((FLOW as readonly string[]).includes(key) ? 900 : undefined)
    }
  })

  it("a user override keeps its name in both sets and merges its options", () => {
    const cookies = { sessionToken: { name: "my-session", options: { sameSite: "strict" } }, state: { options: { maxAge: 60 } } }
    const { plain, secure } = resolveWith({ cookies }).cookies
    expect(plain.sessionToken).toMatchObject({ name: "my-session", options: { sameSite: "strict", httpOnly: true, path: "/", secure: false } })
    expect(secure.sessionToken).toMatchObject({ name: "my-session", options: { sameSite: "strict", httpOnly: true, path: "/", secure: true } })
    expect(plain.state).toMatchObject({ name: "authjs.state", options: { maxAge: 60 } })
    expect(secure.state).toMatchObject({ name: "__Secure-authjs.state", options: { maxAge: 60 } })
    expect(plain.callbackUrl.name).toBe("authjs.callback-url")
  })

  it("a prefixed override name keeps Secure on in the plain set too", () => {
    const { plain } = resolveWith({ cookies: { sessionToken: { name: "__Secure-sid" } } }).cookies
    expect(plain.sessionToken).toMatchObject({ name: "__Secure-sid", options: { secure: true } })
  })

  it("useSecureCookies must be a boolean and is kept", () => {
    expect(resolveWith({ useSecureCookies: true }).useSecureCookies).toBe(true)
    expect(() => resolveWith({ useSecureCookies: "yes" })).toThrow(/useSecureCookies.*"yes"/)
  })
})
