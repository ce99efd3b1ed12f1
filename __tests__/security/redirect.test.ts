/**
 * Open redirect (SECURITY-CATALOG.md §2): RED-01 (payloads P01–P40 through credentials sign-in, form
 * and JSON bodies, X-Auth-Return-Redirect), RED-03 (sign-in page), RED-05 (sign-out), RED-06
 * (requireAuth's callbackUrl) and RED-08 (server-side signIn/signOut with user-supplied redirectTo).
 * RED-02/04/07/09 need OAuth or email and come with those providers.
 */
import type { Server } from "node:http"
import express, { type Express } from "express"
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { authRouter, authSession, requireAuth, signIn as serverSignIn, signOut as serverSignOut } from "../../lib/index.js"
import type { AuthConfig } from "../../lib/types.js"
import {
  AUTH_URL, BASE, SESSION, TLS_AUTH_URL, TLS_BASE, TLS_HOST, assertAlive, assertNoLeak, buildApp, call, clearedNames, csrfPair,
  expectCleanDom, expectSameOrigin, forms, listen, preserveEnv, rawHeader, rawHttp, sessionCookie, setCookieLines, setCookies,
  signIn, testConfig, type CsrfPair, type Res,
} from "./fixtures.js"

preserveEnv("AUTH_URL")

/** "base": exactly the site root; "same": SAME-ORIGIN only; a string: allowed, exactly this URL. */
type Expectation = "base" | "same" | string

const ROOT = `${BASE}/`
const PAYLOADS: Array<[string, string, Expectation]> = [
  ["P01", "https://evil.example/", "base"],
  ["P02", "//evil.example/", "same"],
  ["P03", "///evil.example/", "same"],
  ["P04", "////evil.example/", "same"],
  ["P05", "/\\evil.example/", "same"],
  ["P06", "\\/evil.example/", "same"],
  ["P07", "\\\\evil.example/", "same"],
  ["P08", "/\t/evil.example/", "same"],
  ["P09", "/\n/evil.example/", "same"],
  ["P09b", "/\r\n/evil.example/", "same"],
  ["P10", "\t//evil.example/", "same"],
  ["P10b", " //evil.example/", "same"],
  ["P11", "%2F%2Fevil.example/", "same"],
  ["P12", "/%5Cevil.example/", `${BASE}/%5Cevil.example/`],
  ["P13", "http://app.test:3000@evil.example/", "base"],
  ["P14", "http://evil.example\\@app.test:3000/", "base"],
  ["P15", "http://evil.example#@app.test:3000/", "base"],
  ["P16", "http://evil.example?@app.test:3000/", "base"],
  ["P17", "http://app.test.evil.example:3000/", "base"],
  ["P18", "http://evilapp.test:3000/", "base"],
  ["P19", "http://sub.app.test:3000/", "base"],
  ["P20", "http://app.test:3001/", "base"],
  ["P20b", "http://app.test/", "base"],
  ["P22", "http://app.test.:3000/", "base"],
  ["P23", "http://\u0430pp.test:3000/", "base"],
  ["P24", "http://app.t\u0435st:3000/", "base"],
  ["P25", "http://app.test\u3002evil.example:3000/", "base"],
  ["P26", "http://\uff41\uff50\uff50.test:3000/dashboard", `${BASE}/dashboard`],
  ["P27", "http://APP.TEST:3000/dashboard", `${BASE}/dashboard`],
  ["P28", "javascript:alert(document.domain)", "base"],
  ["P29", "JaVaScRiPt:alert(1)", "base"],
  ["P29b", "java\tscript:alert(1)", "base"],
  ["P29c", "\x01javascript:alert(1)", "base"],
  ["P30", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", "base"],
  ["P31", "vbscript:msgbox(1)", "base"],
  ["P31b", "file:///etc/passwd", "base"],
  ["P31c", "blob:http://evil.example/0", "base"],
  ["P31d", "mailto:x@evil.example", "base"],
  ["P31e", "about:blank", "base"],
  ["P32", "https:evil.example", "base"],
  ["P32b", "https:/evil.example", "base"],
  ["P33", "http://127.0.0.1:3000/", "base"],
  ["P33b", "http://localhost:3000/", "base"],
  ["P34", "http://[::1", "base"],
  ["P34b", "http://%zz/", "base"],
  ["P34c", "http://", "base"],
  ["P34d", ":", "same"],
  ["P34e", "%", "same"],
  ["P34f", "\u0000", "same"],
  ["P35", `/${"a".repeat(100_000)}`, "same"],
  ["P35b", `http://evil.example/${"a".repeat(8000)}`, "base"],
  ["P36", "/dashboard?next=https://evil.example", `${BASE}/dashboard?next=https://evil.example`],
  ["P37", "/dashboard\r\nSet-Cookie: pwned=1", "same"],
  ["P37b", "/x%0d%0aLocation:%20https://evil.example", "same"],
  ["P38", "http://app.test:3000/%2e%2e/%2e%2e/", "same"],
  ["P39", "http://user:pass@app.test:3000/dashboard", `${BASE}/dashboard`],
  ["P40", "/%00//evil.example/", "same"],
  ["P40b", "/%E2%80%AE/evil.example", "same"],
]
const TLS_PAYLOADS: Array<[string, string, Expectation]> = [
  ["P21", "http://app.test:3443/", "base"],
  ["P32", "https:evil.example", "same"],
  ["P32b", "https:/evil.example", "same"],
]
const pick = (...ids: string[]) => PAYLOADS.filter(([id]) => ids.includes(id))

function judge(location: unknown, expectation: Expectation, base = BASE): void {
  expectSameOrigin(location, base)
  expect(String(location)).not.toContain("user:pass@")
  if (expectation === "base") expect(location).toBe(`${base}/`)
  else if (expectation !== "same") expect(location).toBe(expectation)
}

function noExtraCookies(res: Res): void {
  for (const cookie of setCookies(res)) expect(cookie.name).not.toMatch(/pwned/i)
  for (const line of setCookieLines(res)) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(4096)
}

let app: Express
let tls: Express
let pair: CsrfPair
let tlsPair: CsrfPair

beforeAll(async () => {
  tls = buildApp(TLS_AUTH_URL).app
  app = buildApp(AUTH_URL).app
  pair = await csrfPair(app)
  tlsPair = await csrfPair(tls, TLS_HOST)
})

describe("RED-01 payload matrix through credentials sign-in", () => {
  const fields = (callbackUrl: string, password = "correct-horse") => ({ csrfToken: pair.token, username: "alice", password, callbackUrl })

  it.each(PAYLOADS)("%s form body lands per the table and signs in", async (_id, payload, expectation) => {
    const res = await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, form: fields(payload) })
    expect(res.status).toBe(302)
    judge(res.headers.location, expectation)
    expect(sessionCookie(res)).not.toBe("")
    noExtraCookies(res)
  })

  it.each(PAYLOADS)("%s JSON body lands per the table, also with X-Auth-Return-Redirect", async (_id, payload, expectation) => {
    const res = await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, json: fields(payload) })
    expect(res.status).toBe(302)
    judge(res.headers.location, expectation)
    expect(sessionCookie(res)).not.toBe("")
    const asJson = await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, headers: { "X-Auth-Return-Redirect": "1" }, json: fields(payload) })
    expect(asJson.status).toBe(200)
    judge(asJson.body.url, expectation)
    expect(sessionCookie(asJson)).not.toBe("")
  })

  it.each(PAYLOADS)("%s failed sign-in lands on the sign-in page with a sanitised callbackUrl", async (_id, payload, expectation) => {
    const res = await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, form: fields(payload, "wrong") })
    expect(res.status).toBe(302)
    const location = new URL(String(res.headers.location))
    expect(`${location.origin}${location.pathname}`).toBe(`${BASE}/auth/signin`)
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(location.searchParams.get("code")).toBe("credentials")
    judge(location.searchParams.get("callbackUrl"), expectation)
    expect(sessionCookie(res)).toBe("")
  })

  it.each(TLS_PAYLOADS)("APP-TLS %s lands per the table", async (_id, payload, expectation) => {
    const form = { csrfToken: tlsPair.token, username: "alice", password: "correct-horse", callbackUrl: payload }
    const res = await call(tls, "POST", "/auth/callback/credentials", { host: TLS_HOST, cookie: tlsPair.cookie, form })
    expect(res.status).toBe(302)
    judge(res.headers.location, expectation, TLS_BASE)
  })

  it("still alive after the matrix", () => assertAlive(app))
})

describe("RED-01 with an app redirect callback that allows every URL (README: still http(s), <= 2048 chars)", () => {
  let permissive: Express
  let own: CsrfPair
  beforeAll(async () => {
    permissive = buildApp(AUTH_URL, { callbacks: { redirect: ({ url }: { url: string }) => url, signIn: () => true } }).app
    own = await csrfPair(permissive)
  })

  it.each(pick("P28", "P29", "P29b", "P29c", "P30", "P31", "P31b", "P31c", "P31d", "P31e", "P34", "P34b", "P34c", "P35", "P35b"))("%s still lands on the site root", async (_id, payload) => {
    const res = await call(permissive, "POST", "/auth/callback/credentials", { cookie: own.cookie, form: { csrfToken: own.token, username: "alice", password: "correct-horse", callbackUrl: payload } })
    expect(res.status).toBe(302)
    expect([BASE, ROOT]).toContain(res.headers.location)
  })

  it("control: the callback may widen the origin rule", async () => {
    const res = await call(permissive, "POST", "/auth/callback/credentials", { cookie: own.cookie, form: { csrfToken: own.token, username: "alice", password: "correct-horse", callbackUrl: "https://partner.example/x" } })
    expect(res.headers.location).toBe("https://partner.example/x")
  })
})

describe("RED-03 callbackUrl on the sign-in page", () => {
  const cases = [...pick("P01", "P02", "P05", "P13", "P28", "P30", "P34", "P34b", "P34c", "P35b"), ["P35'", `/${"a".repeat(10_000)}`, "base"] as [string, string, Expectation]]

  it.each(cases)("%s: hidden fields are sanitised and the page's own form lands per the table", async (_id, payload, expectation) => {
    const page = await call(app, "GET", `/auth/signin?callbackUrl=${encodeURIComponent(payload)}`, { accept: "text/html" })
    expect(page.status).toBe(200)
    expectCleanDom(page.text)
    const [form] = forms(page.text)
    expect(form).toBeDefined()
    expectSameOrigin(form!.action)
    judge(form!.fields.callbackUrl, expectation)
    const cookie = setCookies(page).map((c) => `${c.name}=${c.value}`).join("; ")
    const action = new URL(form!.action)
    const res = await call(app, "POST", action.pathname, { cookie, form: { ...form!.fields, username: "alice", password: "correct-horse" } })
    expect(res.status).toBe(302)
    judge(res.headers.location, expectation)
  })
})

describe("RED-05 sign-out destination", () => {
  it.each(pick("P01", "P02", "P05", "P13", "P28", "P30", "P34", "P34b", "P37", "P37b"))("%s", async (_id, payload, expectation) => {
    const { session } = await signIn(app)
    const res = await call(app, "POST", "/auth/signout", { cookie: `${session}; ${pair.cookie}`, form: { csrfToken: pair.token, callbackUrl: payload } })
    expect(res.status).toBe(302)
    judge(res.headers.location, expectation)
    expect(clearedNames(res)).toContain(SESSION)
    noExtraCookies(res)
  })

  it("the sign-out page never renders a javascript: callbackUrl", async () => {
    const page = await call(app, "GET", "/auth/signout?callbackUrl=javascript:alert(1)", { accept: "text/html" })
    expect(page.status).toBe(200)
    expectCleanDom(page.text)
    const [form] = forms(page.text)
    expectSameOrigin(form!.action)
    expect(form!.fields.callbackUrl).toBe(ROOT)
    expect(page.text).not.toContain("alert(1)")
  })
})

describe("RED-06 requireAuth builds its callbackUrl from the request", () => {
  let port: number
  let server: Server
  let close: () => Promise<void>
  beforeAll(async () => {
    process.env.AUTH_URL = AUTH_URL
    const config = testConfig({ trustHost: false })
    const guarded = express()
    guarded.use("/auth", authRouter(config))
    guarded.use(authSession(config))
    guarded.use(requireAuth(config), (_req, res) => void res.send("protected"))
    ;({ port, server, close } = await listen(guarded))
  })
  afterAll(() => close())

  async function denied(target: string, headers: Record<string, string> = {}): Promise<string> {
    const extra = Object.entries({ Host: "app.test:3000", ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join("")
    const res = await rawHttp(port, `GET ${target} HTTP/1.1\r\n${extra}Accept: text/html\r\nConnection: close\r\n\r\n`)
    assertNoLeak({ headers: Object.fromEntries(res.headers), text: res.body })
    expect(res.status).toBe(302)
    const location = new URL(rawHeader(res, "location") ?? "")
    expect(`${location.origin}${location.pathname}`).toBe(`${BASE}/auth/signin`)
    const callbackUrl = location.searchParams.get("callbackUrl")
    expectSameOrigin(callbackUrl)
    return `${location.pathname}${location.search}`
  }

  it.each([
    ["//evil.example/dashboard", {}],
    ["/\\evil.example", {}],
    ["///evil.example/x", {}],
    ["/dashboard", { Host: "evil.example" }],
    ["/dashboard", { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" }],
  ] as Array<[string, Record<string, string>]>)("GET %s %j: the sign-in URL and its callbackUrl stay on the site", async (target, headers) => {
    const signinPath = await denied(target, headers)
    // Then sign in through it, as the browser would.
    const page = await call(server, "GET", signinPath, { accept: "text/html" })
    const [form] = forms(page.text)
    const cookie = setCookies(page).map((c) => `${c.name}=${c.value}`).join("; ")
    const res = await call(server, "POST", new URL(form!.action).pathname, {
      cookie, form: { ...form!.fields, username: "alice", password: "correct-horse" },
    })
    expect(res.status).toBe(302)
    expectSameOrigin(res.headers.location)
  })
})

describe("RED-08 server-side signIn/signOut with a user-supplied redirectTo", () => {
  let helperApp: Express
  beforeAll(() => {
    process.env.AUTH_URL = AUTH_URL
    const config: AuthConfig = testConfig({ trustHost: false })
    helperApp = express()
    helperApp.use(express.urlencoded({ extended: false }))
    helperApp.post("/login-next", async (req, res) => {
      try {
        await serverSignIn(req, res, config, "credentials", { redirectTo: req.query.next as string, ...req.body })
      } catch (error) {
        res.status(400).json({ caught: (error as { type?: string }).type })
      }
    })
    helperApp.post("/logout-next", async (req, res) => {
      try {
        await serverSignOut(req, res, config, { redirectTo: req.query.next as string })
      } catch (error) {
        res.status(400).json({ caught: (error as { type?: string }).type })
      }
    })
  })

  it.each(pick("P01", "P02", "P05", "P13", "P28", "P30", "P34", "P34b", "P34c", "P34f"))("%s through signIn and signOut", async (_id, payload, expectation) => {
    const login = await call(helperApp, "POST", `/login-next?next=${encodeURIComponent(payload)}`, { form: { username: "alice", password: "correct-horse" } })
    expect(login.status).toBe(302)
    judge(login.headers.location, expectation)
    expect(sessionCookie(login)).not.toBe("")
    const logout = await call(helperApp, "POST", `/logout-next?next=${encodeURIComponent(payload)}`, { cookie: sessionCookie(login) })
    expect(logout.status).toBe(302)
    judge(logout.headers.location, expectation)
  })

  it("the default destination (Referer) follows the same rules", async () => {
    const login = await call(helperApp, "POST", "/login-next", { headers: { Referer: "https://evil.example/phish" }, form: { username: "alice", password: "correct-horse" } })
    expect(login.status).toBe(302)
    expect(login.headers.location).toBe(ROOT)
  })
})
