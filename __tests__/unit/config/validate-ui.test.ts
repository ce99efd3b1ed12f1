/**
 * Configuration validation, continued: pages, theme, cookies (also through `authRouter`, which
 * must throw when it is built), trustHost, the skipCSRFCheck / raw markers and redirectProxyUrl.
 */
import { resolveConfig } from "../../../lib/core/config/resolve.js"
import { raw, skipCSRFCheck } from "../../../lib/core/index.js"
import { authRouter, InvalidOption } from "../../../lib/index.js"
import type { AuthConfigInput } from "../../../lib/types.js"
import { config, DEV_ENV, expectConfigError, resolveWith, thrown } from "./support.js"

describe("pages", () => {
  it("an unknown page is refused", () => {
    expectConfigError(config({ pages: { login: "/login" } }), InvalidOption, "InvalidOption", ["pages.login", '"login"'])
  })

  it.each([
    ["signIn", "javascript:alert(1)"],
    ["error", "//evil.example/error"],
    ["signOut", "/\\evil.example"],
    ["verifyRequest", "data:text/html,<h1>hi</h1>"],
    ["newUser", "welcome"],
  ])("pages.%s %s is refused", (name, value) => {
    expectConfigError(config({ pages: { [name]: value } }), InvalidOption, "InvalidOption", [`pages.${name}`, JSON.stringify(value)])
  })

  it("site paths and http(s) URLs are accepted", () => {
    const pages = { signIn: "/login", error: "https://id.example/error", newUser: "http://localhost:3000/welcome" }
    expect(resolveWith({ pages }).pages).toEqual(pages)
  })
})

describe("theme", () => {
  it("colorScheme must be auto, dark or light", () => {
    expectConfigError(config({ theme: { colorScheme: "blue" } }), InvalidOption, "InvalidOption", ["theme.colorScheme", '"blue"'])
  })

  it.each(["brandColor", "buttonText"])("%s that breaks out of CSS is refused", (name) => {
    const value = "red;}</style><script>alert(1)</script>"
    expectConfigError(config({ theme: { [name]: value } }), InvalidOption, "InvalidOption", [`theme.${name}`, "red;}</style><script>"])
  })

  it.each(["#abc", "#2563eb", "#2563ebcc", "rgb(37 99 235)", "hsl(220 80% 50% / 0.5)", "teal"])("colour %s is accepted", (colour) => {
    const theme = resolveWith({ theme: { brandColor: colour, buttonText: colour, colorScheme: "dark" } }).theme
    expect(theme).toEqual({ brandColor: colour, buttonText: colour, colorScheme: "dark" })
  })

  it.each(["javascript:alert(1)", "data:image/svg+xml,<svg onload=alert(1)>", "//evil.example/logo.png"])("logo %s is refused", (logo) => {
    expectConfigError(config({ theme: { logo } }), InvalidOption, "InvalidOption", ["theme.logo", JSON.stringify(logo)])
  })

  it.each(["https://cdn.example/logo.png", "/logo.png"])("logo %s is accepted", (logo) => {
    expect(resolveWith({ theme: { logo } }).theme.logo).toBe(logo)
  })
})

/** Cookie overrides browsers would drop (RFC 6265bis 4.1.3): refused at start-up. */
const BAD_COOKIES: ReadonlyArray<[string, Record<string, unknown>, string[]]> = [
  ["an unknown cookie key", { session: { name: "sid" } }, ["cookies.session"]],
  ["__Host- with a domain", { sessionToken: { name: "__Host-sid", options: { domain: "example.com" } } }, ["cookies.sessionToken.options.domain", '"example.com"']],
  ["__Host- with a path other than /", { sessionToken: { name: "__Host-sid", options: { path: "/app" } } }, ["cookies.sessionToken.options.path", '"/app"']],
  ["__Host- with secure: false", { csrfToken: { name: "__Host-csrf", options: { secure: false } } }, ["cookies.csrfToken.options.secure", "(got false)"]],
  ["__Secure- with secure: false", { sessionToken: { name: "__Secure-sid", options: { secure: false } } }, ["cookies.sessionToken.options.secure", "(got false)"]],
  ["sameSite none with secure: false", { callbackUrl: { name: "cb", options: { sameSite: "none", secure: false } } }, ["cookies.callbackUrl.options.sameSite", '"none"']],
  ["an invalid cookie name", { state: { name: "my state;" } }, ["cookies.state.name", '"my state;"']],
]

describe("cookies", () => {
  it.each(BAD_COOKIES)("%s is an InvalidOption at resolution", (_label, cookies, fragments) => {
    expectConfigError(config({ cookies }), InvalidOption, "InvalidOption", fragments)
  })

  // COOK-03: the same mistakes throw when the router is built, not on the first request.
  it.each(BAD_COOKIES)("%s throws when authRouter(config) is built", (_label, cookies, fragments) => {
    const error = thrown(() => authRouter(config({ cookies, trustHost: true }) as unknown as AuthConfigInput))
    expect(error).toBeInstanceOf(InvalidOption)
    expect((error as InvalidOption).type).toBe("InvalidOption")
    for (const fragment of fragments) expect((error as Error).message).toContain(fragment)
  })

  it("cookies must be an object", () => {
    expectConfigError(config({ cookies: "none" }), InvalidOption, "InvalidOption", ["cookies", '"none"'])
  })

  it("compatible prefixed overrides are accepted", () => {
    const cookies = {
      sessionToken: { name: "__Secure-sid", options: { domain: "example.com" } },
      csrfToken: { name: "__Host-csrf", options: { path: "/" } },
      callbackUrl: { name: "cb", options: { sameSite: "none", secure: true } },
    }
    const resolved = resolveWith({ cookies })
    expect(resolved.cookies.plain.sessionToken).toMatchObject({ name: "__Secure-sid", options: { domain: "example.com", secure: true } })
    expect(resolved.cookies.plain.csrfToken).toMatchObject({ name: "__Host-csrf", options: { secure: true, path: "/" } })
    expect(resolved.cookies.secure.callbackUrl).toMatchObject({ name: "cb", options: { sameSite: "none", secure: true } })
  })

  it("authRouter builds with a valid configuration", () => {
    expect(typeof authRouter(config({ trustHost: true }) as unknown as AuthConfigInput)).toBe("function")
  })
})

describe("trustHost", () => {
  it.each([
    ['"true"', "true", '"true"'],
    ["1", 1, "(got 1)"],
    ["null", null, "(got null)"],
  ])("%s is refused: it must be a boolean", (_label, trustHost, shown) => {
    expectConfigError(config({ trustHost }), InvalidOption, "InvalidOption", ["trustHost", shown])
  })
})

describe("markers", () => {
  it("skipCSRFCheck: true (not the marker) is refused", () => {
    expectConfigError(config({ skipCSRFCheck: true }), InvalidOption, "InvalidOption", ["skipCSRFCheck", "(got true)"])
  })

  it("skipCSRFCheck: a look-alike symbol is refused", () => {
    expectConfigError(config({ skipCSRFCheck: Symbol("gatehouse.skip-csrf-check") }), InvalidOption, "InvalidOption", ["skipCSRFCheck"])
  })

  it("skipCSRFCheck: the marker is accepted", () => {
    expect(resolveWith({ skipCSRFCheck }).skipCSRFCheck).toBe(true)
    expect(resolveWith().skipCSRFCheck).toBe(false)
  })

  it("raw: a value other than the marker is refused", () => {
    expectConfigError(config({ raw: true }), InvalidOption, "InvalidOption", ["raw", "(got true)"])
  })

  it("raw: the marker is accepted", () => {
    expect(resolveWith({ raw }).raw).toBe(true)
    expect(resolveWith().raw).toBe(false)
  })
})

describe("redirectProxyUrl", () => {
  it.each(["ftp://proxy.example/callback", "/api/auth", "javascript:alert(1)"])("%s is refused: it must be an http(s) URL", (value) => {
    expectConfigError(config({ redirectProxyUrl: value }), InvalidOption, "InvalidOption", ["redirectProxyUrl", JSON.stringify(value)])
  })

  it("an https URL is accepted and wins over AUTH_REDIRECT_PROXY_URL", () => {
    const cfg = config({ redirectProxyUrl: "https://proxy.example/api/auth" })
    const resolved = resolveConfig(cfg, { ...DEV_ENV, AUTH_REDIRECT_PROXY_URL: "https://env.example/api/auth" })
    expect(resolved.redirectProxyUrl).toBe("https://proxy.example/api/auth")
  })
})
