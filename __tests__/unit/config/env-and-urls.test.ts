/**
 * `setEnvDefaults` (fills a configuration object from the environment, in place),
 * `createActionURL` (the origin rules of "Host trust"), `isAuthAction` and `parseActionPath`.
 */
import { jest } from "@jest/globals"
import { parseActionPath } from "../../../lib/core/actions.js"
import { createActionURL, isAuthAction, setEnvDefaults } from "../../../lib/core/index.js"
import { InvalidOption, InvalidRequest, UntrustedHost } from "../../../lib/errors.js"
import type { AuthConfig } from "../../../lib/types.js"
import type { OAuthProviderConfig } from "../../../lib/providers/types.js"
import { credentials } from "../../helpers/app.js"
import { thrown } from "./support.js"

const oauth = (id: string, type: "oauth" | "oidc" = "oauth", extra: Record<string, unknown> = {}): OAuthProviderConfig => ({ id, name: id, type, ...extra })

describe("setEnvDefaults", () => {
  it("fills secret from AUTH_SECRET (a string) or AUTH_SECRET..._3 (a list), in place", () => {
    const one: AuthConfig = { providers: [] }
    expect(setEnvDefaults({ AUTH_SECRET: "s0" }, one)).toBeUndefined()
    expect(one.secret).toBe("s0")
    const many: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_SECRET: "s0", AUTH_SECRET_1: "s1", AUTH_SECRET_2: "s2" }, many)
    expect(many.secret).toEqual(["s0", "s1", "s2"])
  })

  it("fills basePath from AUTH_URL's path, else /auth", () => {
    const withPath: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_URL: "https://example.com/api/auth/" }, withPath)
    expect(withPath.basePath).toBe("/api/auth")
    const withoutPath: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_URL: "https://example.com" }, withoutPath)
    expect(withoutPath.basePath).toBe("/auth")
  })

  it("fills redirectProxyUrl from AUTH_REDIRECT_PROXY_URL", () => {
    const cfg: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_REDIRECT_PROXY_URL: "https://proxy.example/api/auth" }, cfg)
    expect(cfg.redirectProxyUrl).toBe("https://proxy.example/api/auth")
  })

  it.each([
    [{ AUTH_TRUST_HOST: "true", NODE_ENV: "production" }, true],
    [{ AUTH_TRUST_HOST: "0" }, false],
    [{ NODE_ENV: "production" }, false],
    [{ NODE_ENV: "production", AUTH_URL: "https://example.com" }, true],
    [{ NODE_ENV: "production", VERCEL: "1" }, true],
    [{ NODE_ENV: "development" }, true],
  ])("fills trustHost from %j: %s", (env, expected) => {
    const cfg: AuthConfig = { providers: [] }
    setEnvDefaults(env, cfg)
    expect(cfg.trustHost).toBe(expected)
  })

  it("fills OAuth client ids and secrets from AUTH_<ID>_ID / _SECRET in upper snake case", () => {
    const azure = oauth("azure-ad", "oidc")
    const github = oauth("github")
    const login = credentials()
    const cfg: AuthConfig = { providers: [azure, () => github, login] }
    setEnvDefaults(
      { AUTH_AZURE_AD_ID: "azure-id", AUTH_AZURE_AD_SECRET: "azure-secret", AUTH_AZURE_AD_ISSUER: "https://login.example/v2", AUTH_GITHUB_ID: "gh-id", AUTH_GITHUB_SECRET: "gh-secret" },
      cfg,
    )
    expect(cfg.providers[0]).toMatchObject({ id: "azure-ad", clientId: "azure-id", clientSecret: "azure-secret", issuer: "https://login.example/v2" })
    expect(cfg.providers[1]).toMatchObject({ id: "github", clientId: "gh-id", clientSecret: "gh-secret" })
    expect(cfg.providers[2]).toBe(login)
    expect(azure).not.toHaveProperty("clientId")
  })

  it("does not override explicit values", () => {
    const cfg: AuthConfig = {
      providers: [oauth("github", "oauth", { clientId: "mine", clientSecret: "my-secret" })],
      secret: "explicit",
      basePath: "/api/auth",
      redirectProxyUrl: "https://mine.example/api/auth",
      trustHost: false,
    }
    setEnvDefaults(
      {
        AUTH_SECRET: "env",
        AUTH_URL: "https://example.com/api/auth",
        AUTH_REDIRECT_PROXY_URL: "https://env.example/api/auth",
        AUTH_TRUST_HOST: "true",
        AUTH_GITHUB_ID: "env-id",
        AUTH_GITHUB_SECRET: "env-secret",
      },
      cfg,
    )
    expect(cfg).toMatchObject({ secret: "explicit", basePath: "/api/auth", redirectProxyUrl: "https://mine.example/api/auth", trustHost: false })
    expect(cfg.providers[0]).toMatchObject({ clientId: "mine", clientSecret: "my-secret" })
  })

  it("warns env-url-basepath-mismatch unless suppressBasePathWarning, and keeps basePath", () => {
    const env = { AUTH_URL: "https://example.com/api/auth" }
    const warn = jest.fn<(code: string) => void>()
    const loud: AuthConfig = { providers: [], basePath: "/custom", logger: { warn } }
    setEnvDefaults(env, loud)
    expect(warn.mock.calls).toEqual([["env-url-basepath-mismatch"]])
    expect(loud.basePath).toBe("/custom")
    warn.mockClear()
    const quiet: AuthConfig = { providers: [], basePath: "/custom", logger: { warn } }
    setEnvDefaults(env, quiet, true)
    expect(warn).not.toHaveBeenCalled()
    expect(quiet.basePath).toBe("/custom")
  })

  it("a basePath equal to AUTH_URL's path but for a trailing slash is no mismatch", () => {
    const warn = jest.fn<(code: string) => void>()
    setEnvDefaults({ AUTH_URL: "https://example.com/api/auth" }, { providers: [], basePath: "/api/auth/", logger: { warn } })
    expect(warn).not.toHaveBeenCalled()
  })
})

describe("createActionURL", () => {
  const DEV = { NODE_ENV: "development" }

  it("AUTH_URL's origin and path win over the request's headers", () => {
    const headers = { host: "evil.example", "x-forwarded-host": "evil2.example", "x-forwarded-proto": "http" }
    expect(createActionURL("signin", "http", headers, { AUTH_URL: "https://example.com" }, {}).href).toBe("https://example.com/auth/signin")
    expect(createActionURL("session", "http:", headers, { AUTH_URL: "https://example.com/api/auth" }, {}).href).toBe("https://example.com/api/auth/session")
  })

  it("with a trusted host, X-Forwarded-Host and X-Forwarded-Proto (first values) win over Host", () => {
    const headers = new Headers({ Host: "internal:3000", "X-Forwarded-Host": "app.example, proxy.internal", "X-Forwarded-Proto": "https, http" })
    expect(createActionURL("callback", "http", headers, DEV, { trustHost: true }).href).toBe("https://app.example/auth/callback")
  })

  it("without forwarded headers, the Host header and the connection's protocol are used", () => {
    expect(createActionURL("csrf", "http:", { host: "localhost:3000" }, DEV, {}).href).toBe("http://localhost:3000/auth/csrf")
    expect(createActionURL("csrf", "https:", new Headers({ host: "example.com" }), DEV, {}).href).toBe("https://example.com/auth/csrf")
  })

  it("uses config.basePath (trailing slash dropped, / for the root)", () => {
    const headers = { host: "example.com" }
    expect(createActionURL("signout", "https", headers, DEV, { basePath: "/custom/" }).href).toBe("https://example.com/custom/signout")
    expect(createActionURL("signout", "https", headers, DEV, { basePath: "/" }).href).toBe("https://example.com/signout")
    expect(createActionURL("signout", "https", headers, { AUTH_URL: "https://example.com/a/b" }, { basePath: "/c" }).href).toBe(
      "https://example.com/c/signout",
    )
  })

  it("an invalid basePath is an InvalidOption", () => {
    expect(() => createActionURL("signin", "https", { host: "example.com" }, DEV, { basePath: "auth" })).toThrow(InvalidOption)
  })

  it("an untrusted host without AUTH_URL is an UntrustedHost", () => {
    const headers = { host: "example.com" }
    expect(thrown(() => createActionURL("signin", "https", headers, { NODE_ENV: "production" }, {}))).toBeInstanceOf(UntrustedHost)
    expect(thrown(() => createActionURL("signin", "https", headers, DEV, { trustHost: false }))).toBeInstanceOf(UntrustedHost)
    expect(createActionURL("signin", "https", headers, { NODE_ENV: "production" }, { trustHost: true }).href).toBe("https://example.com/auth/signin")
  })

  it.each([
    ["a forwarded host with a path", { host: "example.com", "x-forwarded-host": "evil.example/phish" }],
    ["a forwarded host with userinfo", { host: "example.com", "x-forwarded-host": "user@evil.example" }],
    ["a host with a space", { host: "exa mple.com" }],
    ["no host at all", {}],
    ["a forwarded proto that is not http(s)", { host: "example.com", "x-forwarded-proto": "javascript" }],
  ])("%s is an InvalidRequest", (_label, headers) => {
    const error = thrown(() => createActionURL("signin", "https", headers as Record<string, string>, DEV, { trustHost: true }))
    expect(error).toBeInstanceOf(InvalidRequest)
    expect((error as InvalidRequest).type).toBe("InvalidRequest")
  })
})

describe("isAuthAction", () => {
  it.each(["callback", "csrf", "error", "providers", "session", "signin", "signout", "verify-request", "webauthn-options"])("%s is an action", (action) => {
    expect(isAuthAction(action)).toBe(true)
  })

  it.each([["signIn"], ["SIGNIN"], [""], ["/signin"], ["signin/"], ["verify_request"], ["__proto__"], ["toString"], ["constructor"], [undefined], [null], [1], [["signin"]]])(
    "%j is not",
    (value) => {
      expect(isAuthAction(value)).toBe(false)
    },
  )
})

describe("parseActionPath", () => {
  it.each([
    ["/signin", { action: "signin" }],
    ["/signin/github", { action: "signin", providerId: "github" }],
    ["/callback/credentials", { action: "callback", providerId: "credentials" }],
    ["/csrf/", { action: "csrf" }],
    ["/verify-request", { action: "verify-request" }],
  ])("%s => %j", (path, expected) => {
    expect(parseActionPath(path)).toEqual(expected)
  })

  it.each(["/csrf/x", "/session/x", "/%63srf", "/callback/a/b", "//callback", "", "/", "signin", "/SIGNIN", "/signin//", "/signin/github//", "/callback%2Fgithub"])(
    "%j => null",
    (path) => {
      expect(parseActionPath(path)).toBeNull()
    },
  )
})
