/**
 * `GET <basePath>/diagnostics` (issue 9): what Gatehouse inferred (base URL, base path, scheme,
 * host trust, cookie names, providers' callback URLs) and the mismatches it detects, with their
 * fixes; and, behind a simulated TLS-terminating proxy (X-Forwarded-Proto/Host), that sign-in,
 * the OAuth redirect_uri and getSession agree on scheme, host and cookie names.
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals"
import express, { type Express } from "express"
import { authRouter, authSession, getSession, InvalidOption } from "../../lib/index.js"
import { Auth } from "../../lib/core/index.js"
import GitHub from "../../lib/providers/github.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET, request, testConfig } from "../helpers/app.js"
import { setCookieLines } from "./support.js"

const ENV = ["AUTH_URL", "NEXTAUTH_URL", "AUTH_TRUST_HOST", "AUTH_SECRET", "NEXTAUTH_SECRET", "NODE_ENV", "VERCEL", "CF_PAGES"] as const
let saved: Record<string, string | undefined> = {}
beforeEach(() => {
  saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]))
  for (const name of ENV) if (name !== "NODE_ENV") delete process.env[name]
  process.env.NODE_ENV = "test"
})
afterEach(() => {
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name]
    else process.env[name] = saved[name]
  }
})

const CLIENT_SECRET = "github-client-secret-5d1e8f0a9b7c6d4e"
const PUBLIC = "public.example"
const PROXY = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": PUBLIC }

interface Report {
  baseUrl: { value: string; source: string; how: string }
  authUrl: string | null
  basePath: { value: string; configured: string; source: string; mountPath: string | null; agrees: boolean | null }
  request: {
    seenOrigin: string | null
    socketTls: boolean
    scheme: string
    forwardedUsed: boolean
    xForwardedProto: string | null
    express: { trustProxy: string; trustsPeer: boolean | null; protocol: string | null } | null
  }
  trustHost: { value: boolean; source: string }
  useSecureCookies: { option: boolean | null; effective: boolean }
  cookies: Array<{ key: string; name: string; options: Record<string, unknown> }>
  session: { strategy: string; adapter: boolean }
  secret: { generated: boolean; count: number }
  providers: Array<{ id: string; callbackUrl: string; signinUrl: string; redirectUri?: string }>
  problems: Array<{ code: string; problem: string; fix: string }>
}

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return testConfig({ providers: [testConfig().providers[0]!, GitHub({ clientId: "gh-client", clientSecret: CLIENT_SECRET })], ...overrides })
}

/** Router at `mount`, authSession, and two routes reading the session: /me (req.auth) and /whoami (getSession). */
function appFor(cfg: AuthConfig, options: { trustProxy?: unknown; mount?: string } = {}): Express {
  const app = express()
  if (options.trustProxy !== undefined) app.set("trust proxy", options.trustProxy)
  app.use(options.mount ?? "/auth", authRouter(cfg))
  app.use(authSession(cfg))
  app.get("/me", (req, res) => {
    res.json({ auth: req.auth ?? null, protocol: req.protocol })
  })
  app.get("/whoami", async (req, res) => {
    res.json({ session: await getSession(req, cfg) })
  })
  return app
}

type Headers = Record<string, string>

async function report(app: Express, headers: Headers = {}, path = "/auth/diagnostics"): Promise<Report> {
  const res = await request(app).get(path).set({ Host: "app.test", Accept: "application/json", ...headers })
  expect(res.status).toBe(200)
  expect(String(res.headers["content-type"])).toMatch(/^application\/json/)
  return res.body as Report
}

const codes = (r: Report) => r.problems.map((p) => p.code).sort()
const problem = (r: Report, code: string) => r.problems.find((p) => p.code === code)
const cookieName = (r: Report, key: string) => r.cookies.find((c) => c.key === key)?.name

/** `name=value` pairs of the Set-Cookie lines (cookies kept by hand: the agent would not send Secure ones over http). */
function cookiePairs(lines: string[]): Map<string, string> {
  const jar = new Map<string, string>()
  for (const line of lines) {
    const [pair] = line.split(";")
    const eq = pair!.indexOf("=")
    jar.set(pair!.slice(0, eq), pair!.slice(eq + 1))
  }
  return jar
}
const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ")

/** CSRF, credentials sign-in, then /me and /whoami, all with `headers`. */
async function signInThrough(app: Express, headers: Headers) {
  const csrf = await request(app).get("/auth/csrf").set({ Host: "app.test", ...headers })
  expect(csrf.status).toBe(200)
  const jar = cookiePairs(setCookieLines(csrf))
  const signin = await request(app)
    .post("/auth/callback/credentials")
    .set({ Host: "app.test", ...headers, Cookie: cookieHeader(jar) })
    .type("form")
    .send({ csrfToken: csrf.body.csrfToken, username: "alice", password: "correct-horse", callbackUrl: "/me" })
  expect(signin.status).toBe(302)
  const lines = setCookieLines(signin)
  for (const [k, v] of cookiePairs(lines)) jar.set(k, v)
  const me = await request(app).get("/me").set({ Host: "app.test", ...headers, Cookie: cookieHeader(jar) })
  const whoami = await request(app).get("/whoami").set({ Host: "app.test", ...headers, Cookie: cookieHeader(jar) })
  return { csrf, csrfLines: setCookieLines(csrf), signin, lines, me, whoami }
}

/** POST signin/github: the authorization redirect and its redirect_uri. */
async function startGitHub(app: Express, headers: Headers) {
  const csrf = await request(app).get("/auth/csrf").set({ Host: "app.test", ...headers })
  const jar = cookiePairs(setCookieLines(csrf))
  const res = await request(app)
    .post("/auth/signin/github")
    .set({ Host: "app.test", ...headers, Cookie: cookieHeader(jar) })
    .type("form")
    .send({ csrfToken: csrf.body.csrfToken })
  expect(res.status).toBe(302)
  const location = new URL(String(res.headers.location))
  expect(location.origin).toBe("https://github.com")
  return { redirectUri: location.searchParams.get("redirect_uri"), lines: setCookieLines(res) }
}

describe("a plain development setup", () => {
  it("the HTML page shows base URL, base path, cookies and callback URLs, with the page headers", async () => {
    const app = appFor(config())
    const res = await request(app).get("/auth/diagnostics").set({ Host: "app.test", Accept: "text/html" })
    expect(res.status).toBe(200)
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8")
    expect(res.headers["cache-control"]).toBe("no-store")
    expect(res.headers["x-frame-options"]).toBe("DENY")
    const csp = String(res.headers["content-security-policy"])
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toContain("unsafe-inline")
    expect(res.text).not.toMatch(/<script/i)
    expect(res.text).toContain("<h1>Gatehouse diagnostics</h1>")
    for (const text of [
      "http://app.test/auth",
      "authjs.session-token",
      "authjs.csrf-token",
      "http://app.test/auth/callback/credentials",
      "http://app.test/auth/callback/github",
      "Register this redirect_uri",
      "trusthost-development-only",
    ]) {
      expect(res.text).toContain(text)
    }
    expect(res.text).not.toContain(SECRET)
    expect(res.text).not.toContain(CLIENT_SECRET)
  })

  it("answers JSON for Accept: application/json, with no secret in it", async () => {
    const app = appFor(config())
    const res = await request(app).get("/auth/diagnostics").set({ Host: "app.test", Accept: "application/json" })
    expect(res.headers["cache-control"]).toBe("no-store")
    expect(res.text).not.toContain(SECRET)
    expect(res.text).not.toContain(CLIENT_SECRET)
    expect(res.text).not.toMatch(/clientSecret|client_secret/)
    const r = res.body as Report
    expect(r.baseUrl).toMatchObject({ value: "http://app.test/auth", source: "request" })
    expect(r.authUrl).toBeNull()
    expect(r.basePath).toEqual({ value: "/auth", configured: "/auth", source: "default", mountPath: "/auth", agrees: true })
    expect(r.request).toMatchObject({ seenOrigin: "http://app.test", socketTls: false, scheme: "http", forwardedUsed: false, xForwardedProto: null })
    expect(r.request.express).toEqual({ trustProxy: "false (not set)", trustsPeer: false, protocol: "http" })
    expect(r.trustHost).toMatchObject({ value: true, source: "development" })
    expect(r.useSecureCookies).toMatchObject({ option: null, effective: false })
    expect(r.cookies.map((c) => c.key)).toEqual(["sessionToken", "callbackUrl", "csrfToken", "pkceCodeVerifier", "state", "nonce", "webauthnChallenge"])
    expect(cookieName(r, "sessionToken")).toBe("authjs.session-token")
    expect(r.cookies[0]!.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", secure: false })
    expect(r.session).toEqual({ strategy: "cookie", maxAge: 2592000, adapter: false })
    expect(r.secret).toEqual({ generated: false, count: 1 })
    expect(r.providers).toEqual([
      { id: "credentials", name: "Credentials", type: "credentials", signinUrl: "http://app.test/auth/signin/credentials", callbackUrl: "http://app.test/auth/callback/credentials" },
      {
        id: "github",
        name: "GitHub",
        type: "oauth",
        signinUrl: "http://app.test/auth/signin/github",
        callbackUrl: "http://app.test/auth/callback/github",
        redirectUri: "http://app.test/auth/callback/github",
        viaRedirectProxy: false,
      },
    ])
    expect(codes(r)).toEqual(["trusthost-development-only"])
    expect(problem(r, "trusthost-development-only")!.fix).toContain("AUTH_URL=http://app.test/auth")
  })

  it("answers HEAD, refuses POST with 405", async () => {
    const app = appFor(config())
    expect((await request(app).head("/auth/diagnostics").set("Host", "app.test")).status).toBe(200)
    const post = await request(app).post("/auth/diagnostics").set("Host", "app.test")
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe("GET, HEAD")
  })

  it("the redirect proxy's redirect_uri is the one to register", async () => {
    const r = await report(appFor(config({ redirectProxyUrl: "https://proxy.example/auth" })))
    expect(r.providers[1]).toMatchObject({ callbackUrl: "http://app.test/auth/callback/github", redirectUri: "https://proxy.example/auth/callback/github", viaRedirectProxy: true })
  })

  it("a generated development secret is a problem, with the fix, and never shown", async () => {
    const cfg = config()
    delete cfg.secret
    const res = await request(appFor(cfg)).get("/auth/diagnostics").set({ Host: "app.test", Accept: "application/json" })
    const r = res.body as Report
    expect(r.secret).toEqual({ generated: true, count: 1 })
    expect(problem(r, "dev-secret-generated")!.fix).toContain("AUTH_SECRET")
    expect(res.text).not.toMatch(/[0-9a-f]{64}/)
  })

  it("useSecureCookies forced over http is a problem", async () => {
    const r = await report(appFor(config({ useSecureCookies: true })))
    expect(r.useSecureCookies).toMatchObject({ option: true, effective: true })
    expect(cookieName(r, "sessionToken")).toBe("__Secure-authjs.session-token")
    expect(problem(r, "secure-cookies-over-http")!.fix).toContain('app.set("trust proxy", 1)')
  })

  it("a router mounted away from the default basePath is a problem, with the fix", async () => {
    const r = await report(appFor(config(), { mount: "/api/auth" }), {}, "/api/auth/diagnostics")
    expect(r.basePath).toMatchObject({ value: "/api/auth", configured: "/auth", source: "mount path", mountPath: "/api/auth", agrees: false })
    expect(r.baseUrl.value).toBe("http://app.test/api/auth")
    expect(problem(r, "basepath-mount-mismatch")!.fix).toContain('basePath: "/api/auth"')
  })

  it("header values are shown escaped", async () => {
    process.env.AUTH_URL = "http://app.test/auth"
    const res = await request(appFor(config())).get("/auth/diagnostics").set({ Host: "app.test", "X-Forwarded-Host": "<img src=x onerror=alert(1)>" })
    expect(res.status).toBe(200)
    expect(res.text).not.toContain("<img src=x")
    expect(res.text).toContain("&lt;img src=x onerror=alert(1)&gt;")
  })
})

describe("behind a TLS-terminating proxy (X-Forwarded-Proto: https, X-Forwarded-Host)", () => {
  it("without trust proxy: Gatehouse ignores the headers as Express does (issue #12); the page says so, and the fix says trust proxy or AUTH_URL", async () => {
    const app = appFor(config())
    const r = await report(app, PROXY)
    expect(r.baseUrl.value).toBe("http://app.test/auth")
    expect(r.request).toMatchObject({ seenOrigin: "http://app.test", scheme: "http", forwardedUsed: false, socketTls: false })
    expect(r.request.express).toEqual({ trustProxy: "false (not set)", trustsPeer: false, protocol: "http" })
    expect(codes(r)).toEqual(["forwarded-not-trusted-by-express", "trusthost-development-only"])
    expect(problem(r, "forwarded-not-trusted-by-express")!.problem).toContain("Gatehouse ignores the header")
    const fix = problem(r, "forwarded-not-trusted-by-express")!.fix
    expect(fix).toContain('app.set("trust proxy", 1)')
    expect(fix).toContain("AUTH_URL=http://app.test/auth")
    expect(cookieName(r, "sessionToken")).toBe("authjs.session-token")

    // What the page says is what the actions do: sign-in, callback URLs and getSession agree.
    const flow = await signInThrough(app, PROXY)
    expect(flow.lines.some((l) => l.startsWith("authjs.session-token=") && !/;\s*Secure/i.test(l))).toBe(true)
    expect(String(flow.signin.headers.location)).toBe("http://app.test/me")
    expect(flow.whoami.body.session?.user?.name).toBe("Alice")
    expect(flow.me.body.auth?.user?.name).toBe("Alice")
    expect(flow.me.body.protocol).toBe("http")
  })

  it("with trust proxy: no proxy problem; the session cookie is __Secure-, getSession reads it back, callbacks are https", async () => {
    const app = appFor(config(), { trustProxy: 1 })
    const r = await report(app, PROXY)
    expect(r.request.express).toEqual({ trustProxy: "1 (hop)", trustsPeer: true, protocol: "https" })
    expect(codes(r)).toEqual(["trusthost-development-only"])
    expect(r.cookies.map((c) => c.name)).toEqual([
      "__Secure-authjs.session-token",
      "__Secure-authjs.callback-url",
      "__Host-authjs.csrf-token",
      "__Secure-authjs.pkce.code_verifier",
      "__Secure-authjs.state",
      "__Secure-authjs.nonce",
      "__Secure-authjs.challenge",
    ])
    expect(r.cookies.every((c) => c.options.secure === true)).toBe(true)
    const github = r.providers.find((p) => p.id === "github")!
    expect(github.redirectUri).toBe(`https://${PUBLIC}/auth/callback/github`)

    const flow = await signInThrough(app, PROXY)
    expect(flow.csrfLines.some((l) => l.startsWith(`${cookieName(r, "csrfToken")}=`))).toBe(true)
    const session = flow.lines.find((l) => l.startsWith(`${cookieName(r, "sessionToken")}=`))
    expect(session).toMatch(/;\s*Secure/i)
    expect(String(flow.signin.headers.location)).toBe(`https://${PUBLIC}/me`)
    expect(flow.me.body).toMatchObject({ auth: { user: { name: "Alice" } }, protocol: "https" })
    expect(flow.whoami.body.session).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })

    const oauth = await startGitHub(app, PROXY)
    expect(oauth.redirectUri).toBe(github.redirectUri)
    expect(oauth.lines.some((l) => l.startsWith(`${cookieName(r, "pkceCodeVerifier")}=`))).toBe(true)
  })

  it("with trust proxy and AUTH_URL=https://…: no problem at all, even on a request that skips the proxy", async () => {
    process.env.AUTH_URL = `https://${PUBLIC}/auth`
    const app = appFor(config(), { trustProxy: 1 })
    const r = await report(app, PROXY)
    expect(r.baseUrl).toMatchObject({ value: `https://${PUBLIC}/auth`, source: "AUTH_URL" })
    expect(r.authUrl).toBe(`https://${PUBLIC}/auth`)
    expect(r.basePath).toMatchObject({ value: "/auth", source: "AUTH_URL path", agrees: true })
    expect(r.trustHost).toMatchObject({ value: true, source: "AUTH_URL" })
    expect(r.problems).toEqual([])
    expect(cookieName(r, "sessionToken")).toBe("__Secure-authjs.session-token")

    const flow = await signInThrough(app, PROXY)
    expect(flow.lines.some((l) => l.startsWith("__Secure-authjs.session-token="))).toBe(true)
    expect(flow.whoami.body.session?.user?.name).toBe("Alice")
    expect((await startGitHub(app, PROXY)).redirectUri).toBe(`https://${PUBLIC}/auth/callback/github`)
    // Straight to the app (no proxy headers): AUTH_URL still decides scheme and cookie names.
    const direct = await report(app, { Host: PUBLIC })
    expect(direct.request.scheme).toBe("https")
    expect(cookieName(direct, "sessionToken")).toBe("__Secure-authjs.session-token")
    expect(direct.problems).toEqual([])
  })

  it("AUTH_URL=http://… behind an https proxy: the header is ignored, the fix is an https AUTH_URL", async () => {
    process.env.AUTH_URL = `http://${PUBLIC}/auth`
    const app = appFor(config(), { trustProxy: 1 })
    const r = await report(app, PROXY)
    expect(r.request).toMatchObject({ scheme: "http", forwardedUsed: false, seenOrigin: `https://${PUBLIC}` })
    expect(codes(r)).toEqual(["forwarded-proto-ignored"])
    expect(problem(r, "forwarded-proto-ignored")!.fix).toContain(`AUTH_URL=https://${PUBLIC}/auth`)
    expect(cookieName(r, "sessionToken")).toBe("authjs.session-token")
    // And the actions indeed use http and the plain names, consistently.
    const flow = await signInThrough(app, PROXY)
    expect(flow.lines.some((l) => l.startsWith("authjs.session-token=") && !/;\s*Secure/i.test(l))).toBe(true)
    expect(flow.whoami.body.session?.user?.name).toBe("Alice")
    expect((await startGitHub(app, PROXY)).redirectUri).toBe(`http://${PUBLIC}/auth/callback/github`)
  })

  it("AUTH_URL on another origin than the request's is a problem, with the fix", async () => {
    process.env.AUTH_URL = "https://auth.example/auth"
    const r = await report(appFor(config(), { trustProxy: 1 }), PROXY)
    expect(codes(r)).toEqual(["auth-url-origin-mismatch"])
    const found = problem(r, "auth-url-origin-mismatch")!
    expect(found.problem).toContain(`https://${PUBLIC}`)
    expect(found.fix).toContain(`AUTH_URL=https://${PUBLIC}/auth`)
  })

  it("AUTH_URL's path differing from the mount path is a problem, with the fix", async () => {
    process.env.AUTH_URL = "http://app.test/api/auth"
    const r = await report(appFor(config()))
    expect(r.basePath).toMatchObject({ value: "/api/auth", configured: "/api/auth", mountPath: "/auth", agrees: false })
    expect(codes(r)).toEqual(["basepath-mount-mismatch"])
    expect(problem(r, "basepath-mount-mismatch")!.fix).toContain('app.use("/api/auth"')
  })

  it("a proxy that sends X-Forwarded-Proto but rewrites Host to its upstream is detected", async () => {
    const r = await report(appFor(config(), { trustProxy: 1 }), { Host: "localhost:3000", "X-Forwarded-Proto": "https" })
    expect(r.baseUrl.value).toBe("https://localhost:3000/auth")
    expect(problem(r, "forwarded-host-missing")!.fix).toContain("X-Forwarded-Host")
  })
})

describe("through the web-standard Auth()", () => {
  it("reports the request URL's scheme and host, with no Express section", async () => {
    const res = await Auth(new Request("https://web.example/auth/diagnostics", { headers: { Accept: "application/json" } }), config())
    expect(res.status).toBe(200)
    const r = (await res.json()) as Report
    expect(r.baseUrl.value).toBe("https://web.example/auth")
    expect(r.request).toMatchObject({ socketTls: true, scheme: "https", express: null })
    expect(r.basePath.mountPath).toBeNull()
    expect(cookieName(r, "sessionToken")).toBe("__Secure-authjs.session-token")
  })
})

describe("when it is off", () => {
  async function unknownAction(app: Express) {
    return request(app).get("/auth/no-such-action").set({ Host: "app.test", Accept: "application/json" })
  }

  it("answers 404 in production, exactly like an unknown action, for every method", async () => {
    process.env.NODE_ENV = "production"
    process.env.AUTH_URL = "https://app.test/auth"
    const app = appFor(config())
    const expected = await unknownAction(app)
    expect(expected.status).toBe(404)
    for (const method of ["get", "post", "head"] as const) {
      const res = await request(app)[method]("/auth/diagnostics").set({ Host: "app.test", Accept: "application/json" })
      expect(res.status).toBe(404)
      if (method !== "head") expect(res.body).toEqual(expected.body)
      expect(res.headers["content-type"]).toBe(expected.headers["content-type"])
    }
    const html = await request(app).get("/auth/diagnostics").set({ Host: "app.test", Accept: "text/html" })
    expect(html.status).toBe(404)
    expect(html.text).not.toContain("diagnostics")
  })

  it("answers 404 with diagnostics: false in development", async () => {
    const app = appFor(config({ diagnostics: false }))
    const res = await request(app).get("/auth/diagnostics").set({ Host: "app.test", Accept: "application/json" })
    expect(res.status).toBe(404)
    expect(res.body).toEqual((await unknownAction(app)).body)
  })

  it("diagnostics: true serves it in production", async () => {
    process.env.NODE_ENV = "production"
    process.env.AUTH_URL = "https://app.test/auth"
    const r = await report(appFor(config({ diagnostics: true })))
    expect(r.baseUrl.value).toBe("https://app.test/auth")
    expect(r.problems).toEqual([])
  })

  it("a diagnostics option that is not a boolean is refused with InvalidOption", () => {
    expect(() => authRouter(config({ diagnostics: "yes" as unknown as boolean }))).toThrow(InvalidOption)
    expect(() => authRouter(config({ diagnostics: "yes" as unknown as boolean }))).toThrow(/diagnostics must be true or false/)
  })
})
