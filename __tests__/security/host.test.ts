/**
 * Host header and X-Forwarded-* injection, HOST-01, HOST-03, HOST-04, HOST-05 (SECURITY-CATALOG.md §6).
 * HOST-02 (magic-link poisoning) and the OAuth redirect_uri part of HOST-01 come with those providers.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import type { Express } from "express"
import { authRouter, authSession, requireAuth, UntrustedHost } from "../../lib/index.js"
import type { AuthConfig } from "../../lib/types.js"
import {
  AUTH_URL, BASE, CSRF, SESSION, TLS_CSRF, TLS_SESSION, assertAlive, assertNoLeak, attr, buildApp, call, elements,
  listen, makeApp, preserveEnv, rawHttp, setCookies, testConfig, type RawResponse, type Res, LAST_USED, TLS_LAST_USED } from "./fixtures.js"

preserveEnv("AUTH_URL", "AUTH_TRUST_HOST", "NODE_ENV", "VERCEL", "CF_PAGES", "NEXTAUTH_URL")

const FORGED: Array<[string, Record<string, string>]> = [
  ["Host: evil.example", { Host: "evil.example" }],
  ["X-Forwarded-Host/Proto", { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" }],
  ["Forwarded", { Forwarded: "host=evil.example;proto=https" }],
  ["X-Original-Host / X-Host", { "X-Original-Host": "evil.example", "X-Host": "evil.example" }],
]

function urlsIn(res: Res): string[] {
  if (String(res.headers["content-type"]).startsWith("text/html")) {
    return elements(res.text).flatMap((n) => ["href", "action", "src"].map((a) => attr(n, a)).filter((v): v is string => v !== undefined))
  }
  return []
}

describe("HOST-01 generated URLs come from AUTH_URL when trustHost is off (production)", () => {
  let app: Express
  beforeAll(() => {
    process.env.NODE_ENV = "production"
    app = buildApp(AUTH_URL).app
  })

  it.each(FORGED)("%s never shapes the providers list, the sign-in page or redirects", async (_name, headers) => {
    const { Host: host, ...rest } = headers
    const opts = { host: host ?? undefined, headers: rest }
    const providers = await call(app, "GET", "/auth/providers", opts)
    expect(providers.status).toBe(200)
    for (const p of providers.body as Array<{ signinUrl: string; callbackUrl: string }>) {
      expect(p.signinUrl).toBe(`${AUTH_URL}/signin/credentials`)
      expect(p.callbackUrl).toBe(`${AUTH_URL}/callback/credentials`)
    }
    const page = await call(app, "GET", "/auth/signin", opts)
    expect(page.status).toBe(200)
    const links = urlsIn(page)
    expect(links.length).toBeGreaterThan(0)
    for (const link of links) expect(link.startsWith(`${BASE}/`)).toBe(true)
    const csrfRes = await call(app, "GET", "/auth/csrf", opts)
    const cookie = setCookies(csrfRes).map((c) => `${c.name}=${c.value}`).join("; ")
    expect(cookie.startsWith(`${CSRF}=`)).toBe(true)
    const start = await call(app, "POST", "/auth/signin/credentials", { ...opts, cookie, form: { csrfToken: csrfRes.body.csrfToken, callbackUrl: "/dashboard" } })
    const refused = await call(app, "POST", "/auth/signout", { ...opts, form: {} })
    const guarded = await call(app, "GET", "/dashboard", { ...opts, accept: "text/html" })
    for (const res of [start, refused, guarded]) {
      expect(res.status).toBe(302)
      expect(String(res.headers.location).startsWith(`${AUTH_URL}/signin?`)).toBe(true)
    }
    for (const res of [providers, page, csrfRes, start, refused, guarded]) expect(JSON.stringify(res.headers) + res.text).not.toContain("evil.example")
  })
})

describe("HOST-03 production without AUTH_URL or a trusted host", () => {
  beforeAll(() => {
    process.env.NODE_ENV = "production"
    for (const name of ["AUTH_URL", "NEXTAUTH_URL", "AUTH_TRUST_HOST", "VERCEL", "CF_PAGES"]) delete process.env[name]
  })
  afterAll(() => void (process.env.NODE_ENV = "test"))

  it("building the router (or authSession, requireAuth) throws UntrustedHost", () => {
    for (const build of [authRouter, authSession, requireAuth] as Array<(c: AuthConfig) => unknown>) {
      const config = testConfig()
      expect(() => build(config)).toThrow(UntrustedHost)
      expect(() => build(config)).toThrow(/AUTH_URL/)
    }
  })

  it("a lazy configuration answers a named Configuration error per request, without leaking", async () => {
    const config = testConfig()
    const app = makeApp((() => config) as unknown as AuthConfig)
    const original = console.error
    console.error = () => undefined
    try {
      for (const [method, path] of [["GET", "/auth/session"], ["POST", "/auth/callback/credentials"]]) {
        const res = await call(app, method!, path!, { form: method === "POST" ? { username: "alice", password: "correct-horse" } : undefined })
        expect(res.status).toBe(500)
        expect(res.body.error.type).toBe("Configuration")
        expect(setCookies(res)).toEqual([])
      }
    } finally {
      console.error = original
    }
  })
})

describe("HOST-04 malformed and duplicated host headers", () => {
  let trusted: { port: number; close: () => Promise<void>; app: Express }
  let fixed: { port: number; close: () => Promise<void>; app: Express }
  beforeAll(async () => {
    process.env.NODE_ENV = "test"
    const t = buildApp(undefined, { trustHost: true }).app
    // The forwarding hop is trusted, so X-Forwarded-* are read (and must be well formed).
    t.set("trust proxy", "loopback")
    trusted = { ...(await listen(t)), app: t }
    const f = buildApp(AUTH_URL).app
    fixed = { ...(await listen(f)), app: f }
  })
  afterAll(async () => {
    await trusted.close()
    await fixed.close()
  })

  const get = (port: number, path: string, headerLines: string[]) =>
    rawHttp(port, `GET ${path} HTTP/1.1\r\n${headerLines.map((l) => `${l}\r\n`).join("")}Accept: text/html\r\nConnection: close\r\n\r\n`)

  function expectInvalid(res: RawResponse): void {
    expect(res.status).toBe(400)
    assertNoLeak({ headers: Object.fromEntries(res.headers), text: res.body })
    if (res.body.startsWith("{")) expect(JSON.parse(res.body).error.type).toBe("InvalidRequest")
  }

  const MALFORMED: Array<[string, string[]]> = [
    ["empty Host", ["Host: "]],
    ["Host with two ports", ["Host: app.test:3000:80"]],
    ["Host with a bad port", ["Host: app.test:abc"]],
    ["Host with a path and query", ["Host: evil.example/x?y"]],
    ["Host of 8 kB", [`Host: ${"a".repeat(8 * 1024)}.example`]],
    ["Host with userinfo", ["Host: app.test:3000@evil.example"]],
    ["X-Forwarded-Proto: javascript", ["Host: app.test:3000", "X-Forwarded-Proto: javascript"]],
    ["X-Forwarded-Host with a space", ["Host: app.test:3000", "X-Forwarded-Host: a b"]],
    ["X-Forwarded-Host %00", ["Host: app.test:3000", "X-Forwarded-Host: %00"]],
    ["X-Forwarded-Host with a scheme", ["Host: app.test:3000", "X-Forwarded-Host: javascript://x"]],
  ]

  it.each(MALFORMED)("trustHost without AUTH_URL, %s: 400 InvalidRequest on every entry point", async (_name, lines) => {
    for (const path of ["/auth/providers", "/auth/signin", "/auth/csrf", "/dashboard"]) expectInvalid(await get(trusted.port, path, lines))
    const post = await rawHttp(trusted.port, `POST /auth/callback/credentials HTTP/1.1\r\n${lines.map((l) => `${l}\r\n`).join("")}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 5\r\nConnection: close\r\n\r\na=b&c`)
    expectInvalid(post)
    await assertAlive(trusted.app)
  })

  it("well-formed values are used as documented (first forwarded value wins, IPv6 literal)", async () => {
    const first = JSON.parse((await get(trusted.port, "/auth/providers", ["Host: app.test:3000", "X-Forwarded-Proto: https, http"])).body)
    expect(first[0].signinUrl).toBe("https://app.test:3000/auth/signin/credentials")
    const ipv6 = JSON.parse((await get(trusted.port, "/auth/providers", ["Host: [::1]:3000"])).body)
    expect(ipv6[0].signinUrl).toBe("http://[::1]:3000/auth/signin/credentials")
  })

  it("two Host headers: never 5xx, never a URL from the second", async () => {
    const res = await get(trusted.port, "/auth/providers", ["Host: app.test:3000", "Host: evil.example"])
    expect(res.status).toBeLessThan(500)
    expect(res.body).not.toContain("evil.example")
  })

  it.each([...MALFORMED, ["two Host headers", ["Host: app.test:3000", "Host: evil.example"]] as [string, string[]]])(
    "with AUTH_URL and trustHost off, %s: URLs still come from AUTH_URL",
    async (_name, lines) => {
      const res = await get(fixed.port, "/auth/providers", lines)
      expect(res.status).toBe(200)
      expect(JSON.parse(res.body)[0].signinUrl).toBe(`${AUTH_URL}/signin/credentials`)
      expect(res.body).not.toContain("evil.example")
    },
  )
})

describe("HOST-05 cookie security follows trusted transport only", () => {
  async function signInWith(app: Express, headers: Record<string, string>) {
    const csrf = await call(app, "GET", "/auth/csrf", { headers })
    const cookie = setCookies(csrf).map((c) => `${c.name}=${c.value}`).join("; ")
    const res = await call(app, "POST", "/auth/callback/credentials", { headers, cookie, form: { csrfToken: csrf.body.csrfToken, username: "alice", password: "correct-horse" } })
    expect(res.status).toBe(302)
    return [...setCookies(csrf), ...setCookies(res)]
  }

  it("trustHost off: X-Forwarded-Proto: https is ignored (AUTH_URL is http)", async () => {
    const cookies = await signInWith(buildApp(AUTH_URL).app, { "X-Forwarded-Proto": "https" })
    expect(new Set(cookies.map((c) => c.name))).toEqual(new Set([CSRF, SESSION, LAST_USED]))
    for (const c of cookies) expect(c.secure).toBeFalsy()
  })

  it("trustHost on behind a trusted proxy (trust proxy) that says https: prefixed names and Secure", async () => {
    const { app } = buildApp(undefined, { trustHost: true })
    app.set("trust proxy", "loopback")
    const cookies = await signInWith(app, { "X-Forwarded-Proto": "https" })
    expect(new Set(cookies.map((c) => c.name))).toEqual(new Set([TLS_CSRF, TLS_SESSION, TLS_LAST_USED]))
    for (const c of cookies) expect(c.secure).toBe(true)
  })

  it("trustHost on, but Express does not trust the hop: X-Forwarded-Proto: https is ignored (issue #12)", async () => {
    const cookies = await signInWith(buildApp(undefined, { trustHost: true }).app, { "X-Forwarded-Proto": "https" })
    expect(new Set(cookies.map((c) => c.name))).toEqual(new Set([CSRF, SESSION, LAST_USED]))
    for (const c of cookies) expect(c.secure).toBeFalsy()
  })

  it("an https AUTH_URL: prefixed names and Secure whatever the connection", async () => {
    const cookies = await signInWith(buildApp("https://app.test/auth").app, { "X-Forwarded-Proto": "http" })
    expect(new Set(cookies.map((c) => c.name))).toEqual(new Set([TLS_CSRF, TLS_SESSION, TLS_LAST_USED]))
    for (const c of cookies) expect(c.secure).toBe(true)
  })
})
