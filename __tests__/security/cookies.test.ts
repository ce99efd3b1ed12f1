/**
 * Cookie attributes and prefixes, COOK-01 … COOK-07 (SECURITY-CATALOG.md §4), for the cookies this
 * build sets: the csrf cookie and the session cookie (and its chunks). State, PKCE, nonce, challenge
 * and callback-url cookies come with OAuth and passkeys (their parts of COOK-01/02/04/05/06 later).
 */
import { afterEach, describe, expect, it, jest, beforeAll } from "@jest/globals"
import type { Express } from "express"
import { authRouter, InvalidOption } from "../../lib/index.js"
import type { AuthConfig, JWT } from "../../lib/types.js"
import {
  AUTH_URL, BASE, CSRF, SESSION, TLS_AUTH_URL, TLS_CSRF, TLS_HOST, TLS_SESSION, buildApp, call, claims, cookieHeader,
  csrfPair, expectMissingCsrf, isCleared, mint, setCookieLines, preserveEnv, sessionCookie, sessionOf, setCookies, signIn, testConfig, type Res, LAST_USED, TLS_LAST_USED } from "./fixtures.js"

preserveEnv("AUTH_URL")

const DAY = 86_400
const lines = (res: Res) => setCookieLines(res)
const attributes = (line: string) => line.split(";").slice(1).map((part) => part.trim().split("=")[0]!.toLowerCase())
const bigJwt = { jwt: ({ token, trigger }: { token: JWT; trigger?: string }) => (trigger === "signIn" ? { ...token, big: "y".repeat(7000) } : token) }

/** RFC 6265bis §4.1.3 as a strict user agent applies it, plus Gatehouse's documented attributes. */
function expectStrictCookie(line: string, secure: boolean): void {
  const name = line.slice(0, line.indexOf("="))
  const attrs = line.split(";").slice(1).map((p) => p.trim())
  const lower = attrs.map((a) => a.toLowerCase())
  expect(lower).toContain("httponly")
  expect(lower).toContain("samesite=lax")
  expect(lower).toContain("path=/")
  expect(lower.some((a) => a.startsWith("domain="))).toBe(false)
  expect(lower.includes("secure")).toBe(secure)
  if (name.startsWith("__Secure-") || name.startsWith("__Host-")) expect(lower).toContain("secure")
  expect(Buffer.byteLength(line)).toBeLessThanOrEqual(4096)
}

let app: Express
let tls: Express
beforeAll(() => {
  tls = buildApp(TLS_AUTH_URL).app
  app = buildApp(AUTH_URL).app
})
afterEach(() => {
  jest.restoreAllMocks()
})

describe("COOK-01 attributes on plain HTTP", () => {
  it("csrf and session cookies: HttpOnly, SameSite=Lax, Path=/, no Domain, no Secure, unprefixed", async () => {
    const csrf = await call(app, "GET", "/auth/csrf")
    const { res } = await signIn(app)
    const all = [...lines(csrf), ...lines(res)]
    expect(new Set(all.map((l) => l.slice(0, l.indexOf("="))))).toEqual(new Set([CSRF, SESSION, LAST_USED]))
    for (const line of all) expectStrictCookie(line, false)
    const session = setCookies(res).find((c) => c.name === SESSION)
    expect(Math.abs((session?.expires?.getTime() ?? 0) - (Date.now() + 30 * DAY * 1000))).toBeLessThan(60_000)
  })
})

describe("COOK-02 prefixes and Secure on HTTPS (README: session __Secure-, csrf __Host-)", () => {
  it("every cookie is Secure with the documented prefixes; __Host- has Path=/ and no Domain", async () => {
    const csrf = await call(tls, "GET", "/auth/csrf", { host: TLS_HOST })
    const { res } = await signIn(tls, { host: TLS_HOST })
    const all = [...lines(csrf), ...lines(res)]
    expect(new Set(all.map((l) => l.slice(0, l.indexOf("="))))).toEqual(new Set([TLS_CSRF, TLS_SESSION, TLS_LAST_USED]))
    for (const line of all) expectStrictCookie(line, true)
  })
})

describe("COOK-03 misconfiguration caught when the router is built", () => {
  const bad: Array<[string, AuthConfig["cookies"], RegExp]> = [
    ["__Host- with a Domain", { sessionToken: { name: "__Host-s", options: { domain: "app.test" } } }, /cookies\.sessionToken\.options\.domain.*__Host-s/],
    ["__Host- with another Path", { sessionToken: { name: "__Host-s", options: { path: "/app" } } }, /cookies\.sessionToken\.options\.path.*__Host-s/],
    ["__Secure- without Secure", { sessionToken: { name: "__Secure-s", options: { secure: false } } }, /cookies\.sessionToken\.options\.secure.*__Secure-s/],
    ["SameSite=None without Secure", { csrfToken: { options: { sameSite: "none", secure: false } } }, /cookies\.csrfToken\.options\.sameSite.*secure/],
  ]

  it.each(bad)("%s throws a named error naming the cookie and the rule", (_name, cookies, message) => {
    process.env.AUTH_URL = AUTH_URL
    const build = () => authRouter(testConfig({ trustHost: false, cookies }))
    expect(build).toThrow(InvalidOption)
    expect(build).toThrow(message)
  })
})

describe("COOK-04 lifetimes and session refresh (updateAge: 2, clock controlled)", () => {
  it("the csrf cookie is a browser-session cookie", async () => {
    const csrf = setCookies(await call(app, "GET", "/auth/csrf")).find((c) => c.name === CSRF)
    expect(csrf?.expires).toBeUndefined()
    expect(csrf?.maxAge).toBeUndefined()
  })

  it("reads within updateAge write no cookie; the first read after it moves the expiry", async () => {
    const t0 = 1_900_000_000_000
    const clock = jest.spyOn(Date, "now").mockReturnValue(t0)
    const refreshing = buildApp(AUTH_URL, { session: { updateAge: 2 } }).app
    const { res, session } = await signIn(refreshing)
    const first = setCookies(res).find((c) => c.name === SESSION)?.expires?.getTime() ?? 0
    expect(first).toBe(t0 + 30 * DAY * 1000)
    for (const offset of [400, 1400]) {
      clock.mockReturnValue(t0 + offset)
      const read = await call(refreshing, "GET", "/auth/session", { cookie: session })
      expect(read.body.user.name).toBe("Alice")
      expect(setCookies(read).filter((c) => c.name.startsWith(SESSION))).toEqual([])
    }
    clock.mockReturnValue(t0 + 2500)
    const due = await call(refreshing, "GET", "/auth/session", { cookie: session })
    const moved = setCookies(due).find((c) => c.name === SESSION)
    expect(moved?.expires?.getTime()).toBe(t0 + 2000 + 30 * DAY * 1000)
    expect(new Date(due.body.expires).getTime()).toBe(moved?.expires?.getTime())
  })

  it("with maxAge as an absolute date the expiry never moves", async () => {
    const t0 = 1_900_000_000_000
    const end = new Date(t0 + DAY * 1000)
    const clock = jest.spyOn(Date, "now").mockReturnValue(t0)
    const fixed = buildApp(AUTH_URL, { session: { maxAge: end, updateAge: 0 } }).app
    const { res, session } = await signIn(fixed)
    expect(setCookies(res).find((c) => c.name === SESSION)?.expires?.getTime()).toBe(end.getTime())
    for (const offset of [1000, 3_600_000, 20 * 3_600_000]) {
      clock.mockReturnValue(t0 + offset)
      const read = await call(fixed, "GET", "/auth/session", { cookie: session })
      expect(read.body.expires).toBe(end.toISOString())
      for (const cookie of setCookies(read)) if (cookie.name.startsWith(SESSION)) expect(cookie.expires?.getTime()).toBe(end.getTime())
    }
  })
})

describe("COOK-05 sign-out clears the session cookie and every chunk", () => {
  it.each([
    ["APP", AUTH_URL, undefined, SESSION, false],
    ["APP-TLS", TLS_AUTH_URL, TLS_HOST, TLS_SESSION, true],
  ] as const)("%s", async (_name, url, host, name, secure) => {
    const chunky = buildApp(url, { callbacks: bigJwt }).app
    const { session, csrf } = await signIn(chunky, { host })
    const names = session.split("; ").map((p) => p.slice(0, p.indexOf("=")))
    expect(names.length).toBeGreaterThanOrEqual(2)
    const res = await call(chunky, "POST", "/auth/signout", { host, cookie: `${session}; ${csrf.cookie}`, form: { csrfToken: csrf.token } })
    expect(res.status).toBe(302)
    for (const chunk of names) {
      const line = lines(res).find((l) => l.startsWith(`${chunk}=`))
      expect(line).toBeDefined()
      expect(isCleared(setCookies(res).find((c) => c.name === chunk))).toBe(true)
      expectStrictCookie(line!, secure)
    }
    const after = cookieHeader(setCookies(res).filter((c) => c.name.startsWith(name) && !isCleared(c)).map((c): [string, string] => [c.name, c.value ?? ""]))
    expect(after).toBe("")
  })
})

describe("COOK-06 values that end up near cookies never add attributes or cookies", () => {
  const values = ["/x; Domain=evil.example", "/x\r\nSet-Cookie: pwned=1", "/x, pwned=1", "/x;Path=/admin", '/x"quoted"']

  it.each(values)("callbackUrl %j on the sign-in page, sign-in start and failed sign-in", async (value) => {
    const page = await call(app, "GET", `/auth/signin?callbackUrl=${encodeURIComponent(value)}`)
    const csrf = await csrfPair(app)
    const start = await call(app, "POST", "/auth/signin/credentials", { cookie: csrf.cookie, form: { csrfToken: csrf.token, callbackUrl: value } })
    const failed = await call(app, "POST", "/auth/callback/credentials", { cookie: csrf.cookie, form: { csrfToken: csrf.token, username: "alice", password: "no", callbackUrl: value } })
    expect(page.status).toBe(200)
    expect(start.status).toBe(302)
    expect(failed.status).toBe(302)
    for (const res of [page, start, failed]) {
      for (const line of lines(res)) {
        expect(line.startsWith(`${CSRF}=`) || line.startsWith(`${SESSION}=`)).toBe(true)
        expect(attributes(line).every((a) => ["path", "httponly", "samesite", "expires", "max-age"].includes(a))).toBe(true)
      }
      expect(JSON.stringify(res.headers)).not.toMatch(/pwned=1;|domain=evil/i)
      // eslint-disable-next-line no-control-regex
      expect(String(res.headers.location ?? "")).not.toMatch(/[\r\n\u0000]/)
      if (res.headers.location) expect(new URL(String(res.headers.location)).origin).toBe(BASE)
    }
  })
})

describe("COOK-07 duplicate cookie names: the first occurrence wins (README)", () => {
  it("session cookies", async () => {
    const [bob, alice] = [await mint(claims("bob")), await mint(claims("alice"))]
    const name = async (cookie: string) => ((await sessionOf(app, cookie))?.user as { name: string }).name
    expect(await name(`${SESSION}=${bob}; ${SESSION}=${alice}`)).toBe("Bob")
    expect(await name(`${SESSION}=${alice}; ${SESSION}=${bob}`)).toBe("Alice")
  })

  it("csrf cookies with a POST: the first pair decides, never a merge", async () => {
    const [a, b] = [await csrfPair(app), await csrfPair(app)]
    const both = `${CSRF}=${a.value}; ${CSRF}=${b.value}`
    const form = (token: string) => ({ csrfToken: token, username: "alice", password: "correct-horse" })
    expectMissingCsrf(await call(app, "POST", "/auth/callback/credentials", { cookie: both, form: form(b.token) }))
    const ok = await call(app, "POST", "/auth/callback/credentials", { cookie: both, form: form(a.token) })
    expect(ok.status).toBe(302)
    expect(sessionCookie(ok)).not.toBe("")
  })
})
