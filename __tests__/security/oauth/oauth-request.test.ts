/**
 * The OAuth requests a browser sends and the answers it gets (SECURITY-CATALOG.md §1, §2, §4, §7,
 * §12): OAUTH-09 (the authorization request cannot be steered from the form), OAUTH-10 (nothing
 * leaks after the callback), RED-02/RED-04/RED-09 (destinations through the round trip, a tossed
 * callback-url cookie, error paths), COOK-01/02/04/05/06 for the flow cookies, CSRF-01 target 3
 * and HDR-01 on the OAuth redirects. APP is plain HTTP; APP-TLS has an https AUTH_URL.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import express, { type Express } from "express"
import type { TestIdp } from "../../helpers/idp.js"
import { credentials, testConfig } from "../../helpers/app.js"
import { authRouter, signIn as serverSignIn } from "../../../lib/index.js"
import {
  AUTH_URL, BASE, SESSION, TLS_AUTH_URL, TLS_HOST, TLS_SESSION, buildApp, call, csrfPair, expectMissingCsrf, expectPageHeaders,
  expectSameOrigin, open, preserveEnv, sessionOf, setCookieLines, setCookies, type Res,
} from "../fixtures.js"
import {
  CALLBACK, CHECKS, NONCE, PKCE, STATE, callback, checkNames, expectChecksCleared, expectOAuthError, loginAt, oidcProvider, quietIdp, rawValue,
  setsSession, signInWithIdp, startFlow, startHonestIdp,
} from "./support.js"

jest.setTimeout(60_000)
preserveEnv("AUTH_URL")
quietIdp()

let idp: TestIdp
let app: Express
let tls: Express

beforeAll(async () => {
  idp = await startHonestIdp(["idp"], { authUrls: [AUTH_URL, TLS_AUTH_URL] })
  const config = { providers: [credentials(), oidcProvider("idp", idp.issuer)], callbacks: { signIn: ({ user }: { user: { email?: string | null } }) => user.email !== "bob@example.com" } }
  tls = buildApp(TLS_AUTH_URL, config).app
  app = buildApp(AUTH_URL, config).app
})
afterAll(() => idp.close())

const FLOW_KEYS = ["client_id", "code_challenge", "code_challenge_method", "nonce", "redirect_uri", "response_type", "scope", "state"]

function expectGenuineAuthorizationUrl(location: URL): void {
  expect(location.origin).toBe(idp.issuer)
  for (const key of new Set(location.searchParams.keys())) expect(location.searchParams.getAll(key)).toHaveLength(1)
  expect(location.searchParams.get("redirect_uri")).toBe(`${AUTH_URL}/callback/idp`)
  expect(location.searchParams.get("response_type")).toBe("code")
  expect(location.searchParams.get("client_id")).toBe("gh-test")
  expect(location.searchParams.get("scope")).toBe("openid profile email")
  expect(location.searchParams.get("code_challenge_method")).toBe("S256")
  expect(location.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/)
  expect(location.searchParams.has("response_mode")).toBe(false)
}

describe("OAUTH-09 the authorization request cannot be steered from the form", () => {
  const STEER = {
    redirect_uri: "https://evil.example/cb", response_type: "token", response_mode: "fragment", scope: "openid admin", client_id: "evil",
    prompt: "none", code_challenge_method: "plain", code_challenge: "evil-challenge", state: "evil-state", nonce: "evil-nonce", request_uri: "https://evil.example/r",
  }

  it("the sign-in POST's own fields never reach the authorization URL", async () => {
    const { location } = await startFlow(app, "idp", { form: STEER })
    expectGenuineAuthorizationUrl(location)
    expect([...location.searchParams.keys()].sort()).toEqual(FLOW_KEYS)
    for (const value of Object.values(STEER)) expect(decodeURIComponent(location.href)).not.toContain(value)
  })

  it("an authorizationParams field adds prompt and login_hint, but no flow parameter and no scope", async () => {
    const field = new URLSearchParams({ ...STEER, prompt: "login", login_hint: "alice@example.com" }).toString()
    const { location } = await startFlow(app, "idp", { form: { authorizationParams: field } })
    expectGenuineAuthorizationUrl(location)
    expect([...location.searchParams.keys()].sort()).toEqual([...FLOW_KEYS, "login_hint", "prompt"].sort())
    expect(location.searchParams.get("prompt")).toBe("login")
    for (const key of Object.keys(STEER).filter((k) => k !== "prompt")) expect(decodeURIComponent(location.href)).not.toContain(STEER[key as keyof typeof STEER])
  })

  it("flow parameters and scope in the sign-in POST's query are refused too", async () => {
    const { location } = await startFlow(app, "idp", { query: new URLSearchParams({ ...STEER, prompt: "login" }).toString() })
    expectGenuineAuthorizationUrl(location)
    for (const key of Object.keys(STEER).filter((k) => k !== "prompt")) expect(decodeURIComponent(location.href)).not.toContain(STEER[key as keyof typeof STEER])
  })

  it("the server-side signIn helper may set the scope, never the flow's own parameters", async () => {
    process.env.AUTH_URL = AUTH_URL
    const config = testConfig({ trustHost: false, providers: [oidcProvider("idp", idp.issuer)] })
    const helperApp = express()
    helperApp.use("/auth", authRouter(config))
    helperApp.post("/go", (req, res, next) => {
      serverSignIn(req, res, config, "idp", { redirectTo: "/dashboard" }, { ...STEER, scope: "openid email", prompt: "login" }).catch(next)
    })
    const res = await call(helperApp, "POST", "/go", { form: {} })
    const location = new URL(String(res.headers.location))
    expect(location.origin).toBe(idp.issuer)
    expect(location.searchParams.get("scope")).toBe("openid email")
    expect(location.searchParams.get("prompt")).toBe("login")
    expect(location.searchParams.get("redirect_uri")).toBe(`${AUTH_URL}/callback/idp`)
    expect([location.searchParams.get("client_id"), location.searchParams.get("response_type"), location.searchParams.get("code_challenge_method")]).toEqual(["gh-test", "code", "S256"])
    for (const key of ["state", "nonce", "code_challenge", "request_uri", "response_mode"]) expect(decodeURIComponent(location.href)).not.toContain(STEER[key as keyof typeof STEER])
  })
})

describe("OAUTH-10 tokens do not leak after the callback", () => {
  it("the callback's redirect carries no code, state, iss or token; the session exposes no provider token", async () => {
    const { back, res, jar } = await signInWithIdp(app, idp, "idp", "alice", { form: { callbackUrl: "/dashboard" } })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`${BASE}/dashboard`)
    expect(res.headers["cache-control"]).toBe("no-store")
    expect(res.text ?? "").toBe("")
    for (const value of [back.searchParams.get("code"), back.searchParams.get("state")]) expect(JSON.stringify(res.headers)).not.toContain(value)
    const session = await call(app, "GET", "/auth/session", { cookie: jar.header() })
    // Issue #16 adds how and when the user signed in (amr: ["oauth"], authTime).
    expect(Object.keys(session.body).sort()).toEqual(["amr", "authTime", "expires", "user"])
    expect(session.body.amr).toEqual(["oauth"])
    expect(Object.keys(session.body.user).sort()).toEqual(["email", "image", "name"])
    expect(session.text).not.toMatch(/access_token|id_token|refresh_token|eyJ/)
    const sealed = await open(jar.get(SESSION) as string)
    // Issue #17: without an adapter the provider's tokens (and the provider's id) are kept for
    // getAccessToken inside the encrypted cookie, never in the session the client reads (above).
    expect(Object.keys(sealed ?? {}).sort()).toEqual(["amr", "authTime", "email", "exp", "iat", "name", "picture", "providerTokens", "sid", "signInProvider", "sub"])
  })
})

describe("RED-02 destinations through the OAuth round trip", () => {
  const HOME = `${BASE}/`
  it.each([
    ["P01", "https://evil.example/", HOME], ["P02", "//evil.example/", null], ["P05", "/\\evil.example/", null], ["P08", "/\t/evil.example/", null],
    ["P13", "http://app.test:3000@evil.example/", HOME], ["P14", "http://evil.example\\@app.test:3000/", HOME], ["P19", "http://sub.app.test:3000/", HOME],
    ["P28", "javascript:alert(document.domain)", HOME], ["P30", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", HOME],
    ["P34 [::1", "http://[::1", HOME], ["P34 %zz", "http://%zz/", HOME], ["P34 empty host", "http://", HOME], ["P34 colon", ":", null],
    ["P34 percent", "%", null], ["P34 NUL", "\u0000", null], ["P35 long path", `/${"a".repeat(100_000)}`, HOME], ["P35 long foreign", `http://evil.example/${"a".repeat(8_000)}`, HOME],
    ["allowed path", "/dashboard?tab=1", `${BASE}/dashboard?tab=1`],
  ])("%s", async (_id, payload, expected) => {
    const started = await startFlow(app, "idp", { form: { callbackUrl: payload } })
    for (const line of setCookieLines(started.res)) expect(line.length).toBeLessThanOrEqual(4096)
    expectSameOrigin(decodeURIComponent(started.jar.get(CALLBACK) ?? encodeURIComponent(HOME)))
    const res = await callback(app, await loginAt(idp, started, "idp", "mallory"), started.jar)
    expect(res.status).toBe(302)
    const target = expectSameOrigin(res.headers.location)
    if (expected) expect(target.href).toBe(expected)
  })
})

describe("RED-04 the callback-url cookie tossed mid-flow", () => {
  it.each([
    ["a foreign URL", "https://evil.example/"], ["protocol-relative", "//evil.example"], ["javascript:", "javascript:alert(1)"], ["8 kB of junk", `j%zz%${"x".repeat(8192)}`],
  ])("%s is re-validated at use", async (_name, tossed) => {
    const started = await startFlow(app, "idp", { form: { callbackUrl: "/dashboard" } })
    const back = await loginAt(idp, started, "idp", "mallory")
    const value = tossed.startsWith("j%zz") ? tossed : encodeURIComponent(tossed)
    const res = await callback(app, back, started.jar.header({ [CALLBACK]: value }))
    expect(res.status).toBe(302)
    expect(setsSession(res)).toBe(true)
    expect(expectSameOrigin(res.headers.location).href).toBe(`${BASE}/`)
  })
})

describe("RED-09 error paths never use the stored destination", () => {
  it("a provider error with the genuine state and a tossed foreign callback-url cookie", async () => {
    const started = await startFlow(app, "idp", { form: { callbackUrl: "/dashboard" } })
    const state = started.location.searchParams.get("state") as string
    const res = await call(app, "GET", `/auth/callback/idp?error=access_denied&state=${state}`, { cookie: started.jar.header({ [CALLBACK]: encodeURIComponent("https://evil.example/") }) })
    expectOAuthError(res)
    expect(String(res.headers.location)).not.toContain("evil")
  })

  it.each([["https://evil.example/", false], ["/dashboard", true]])("the signIn callback refusing bob (callbackUrl %s, cookie tossed: %s)", async (callbackUrl, toss) => {
    const started = await startFlow(app, "idp", { form: { callbackUrl } })
    const back = await loginAt(idp, started, "idp", "bob")
    const cookie = toss ? started.jar.header({ [CALLBACK]: encodeURIComponent("https://evil.example/") }) : started.jar.header()
    const res = await callback(app, back, cookie)
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`${BASE}/auth/error?error=AccessDenied`)
    expect(setsSession(res)).toBe(false)
    expectChecksCleared(res, checkNames(started.jar))
  })
})

describe("COOK-01/02/04/05 the flow cookies", () => {
  function expectFlowCookies(res: Res, prefix: string, secure: boolean): void {
    const byName = new Map(setCookies(res).map((c) => [c.name, c]))
    for (const name of [...CHECKS, CALLBACK]) {
      const cookie = byName.get(`${prefix}${name}`)
      expect(cookie).toBeDefined()
      expect([cookie?.httpOnly, cookie?.sameSite, cookie?.path, cookie?.domain, Boolean(cookie?.secure)]).toEqual([true, "lax", "/", undefined, secure])
      if (name !== CALLBACK) expect(cookie?.maxAge).toBeGreaterThan(0)
      if (name !== CALLBACK) expect(cookie?.maxAge).toBeLessThanOrEqual(900)
    }
    for (const name of byName.keys()) expect(name.startsWith("authjs.") || name.startsWith(prefix)).toBe(true)
  }

  it("COOK-01/04 APP: unprefixed, HttpOnly, SameSite=Lax, Path=/, no Domain, no Secure; checks live at most 15 minutes", async () => {
    expectFlowCookies((await startFlow(app, "idp", { form: { callbackUrl: "/dashboard" } })).res, "", false)
  })

  it("COOK-02 APP-TLS: __Secure- names with Secure; the csrf cookie is __Host-", async () => {
    const started = await startFlow(tls, "idp", { host: TLS_HOST, form: { callbackUrl: "/dashboard" } })
    expectFlowCookies(started.res, "__Secure-", true)
    expect(started.jar.get("__Host-authjs.csrf-token")).toBeDefined()
    expect(started.location.searchParams.get("redirect_uri")).toBe(`${TLS_AUTH_URL}/callback/idp`)
  })

  it.each([["APP", ""], ["APP-TLS", "__Secure-"]])("COOK-05 %s: the callback clears every check cookie on success and on a state mismatch", async (_name, prefix) => {
    const target = prefix ? tls : app
    const host = prefix ? TLS_HOST : undefined
    const success = await signInWithIdp(target, idp, "idp", "mallory", { host })
    expect(setsSession(success.res, prefix ? TLS_SESSION : SESSION)).toBe(true)
    const failing = await startFlow(target, "idp", { host })
    const sent = checkNames(failing.jar, prefix)
    expect(sent).toHaveLength(3)
    const back = await loginAt(idp, failing, "idp", "mallory", prefix ? TLS_AUTH_URL : AUTH_URL)
    back.searchParams.set("state", "not-the-state")
    const failure = await callback(target, back, failing.jar, { host })
    expectOAuthError(failure, "OAuthCallbackError", prefix ? "https://app.test:3443" : undefined)
    for (const res of [success.res, failure]) {
      expectChecksCleared(res, sent)
      for (const cookie of setCookies(res).filter((c) => sent.includes(c.name))) expect(Boolean(cookie.secure)).toBe(Boolean(prefix))
    }
  })
})

describe("COOK-06 values that end up in the callback-url cookie", () => {
  it.each([["/x; Domain=evil.example"], ["/x\r\nSet-Cookie: pwned=1"], ["/x, pwned=1"], ["/x;Path=/admin"], ['/x"quoted"']])("%j", async (payload) => {
    const { res } = await startFlow(app, "idp", { form: { callbackUrl: payload } })
    const lines = setCookieLines(res)
    // Exactly the four flow cookies, each with only the attributes Gatehouse sets.
    expect(lines.map((line) => line.slice(0, line.indexOf("="))).sort()).toEqual([CALLBACK, NONCE, PKCE, STATE].sort())
    for (const line of lines) expect(line.split(";").slice(1).join(";")).not.toMatch(/pwned|Domain|admin|"/i)
    const line = lines.find((l) => l.startsWith(`${CALLBACK}=`)) as string
    expect(rawValue(line)).toMatch(/^[A-Za-z0-9%._~!*'()-]+$/)
    expect(line.split(";").slice(1).map((a) => a.trim()).sort()).toEqual(["HttpOnly", "Path=/", "SameSite=Lax"])
    expectSameOrigin(decodeURIComponent(rawValue(line)))
  })
})

describe("CSRF-01 target 3: POST /auth/signin/idp without a token", () => {
  const noFlow = (res: Res) => {
    expectMissingCsrf(res)
    expect(setCookies(res).filter((c) => (CHECKS as readonly string[]).includes(c.name) || c.name === CALLBACK)).toEqual([])
  }
  it("a: a valid csrf cookie but no field", async () => {
    noFlow(await call(app, "POST", "/auth/signin/idp", { cookie: (await csrfPair(app)).cookie, form: { callbackUrl: "/dashboard" } }))
  })
  it("b: no cookie and no field (and JSON: 403 MissingCSRF)", async () => {
    noFlow(await call(app, "POST", "/auth/signin/idp", { form: { callbackUrl: "/dashboard" } }))
    const json = await call(app, "POST", "/auth/signin/idp", { accept: "application/json", form: { callbackUrl: "/dashboard" } })
    expect([json.status, json.body.error.type]).toEqual([403, "MissingCSRF"])
  })
  it("c: a cross-site form with the victim's cookies", async () => {
    const victim = await signInWithIdp(app, idp, "idp", "mallory")
    const headers = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate" }
    noFlow(await call(app, "POST", "/auth/signin/idp", { cookie: victim.jar.header(), headers, form: { callbackUrl: "/dashboard" } }))
    expect((await sessionOf(app, victim.jar.header()))?.user).toMatchObject({ email: "mallory@example.com" })
  })
})

describe("HDR-01 OAuth redirects and the pages they lead to", () => {
  function expectRedirectHeaders(res: Res): void {
    expect(res.status).toBe(302)
    expect(res.headers["cache-control"]).toBe("no-store")
    expect(res.headers["x-content-type-options"]).toBe("nosniff")
    expect(res.headers["x-powered-by"]).toBeUndefined()
    expect(res.headers["strict-transport-security"]).toBeUndefined()
  }

  it("start, success, OAUTH-01 refusal, provider error and failed start are never cached; the error page has the page headers", async () => {
    const started = await startFlow(app, "idp")
    expectRedirectHeaders(started.res)
    const back = await loginAt(idp, started, "idp", "mallory")
    const refused = await callback(app, new URL(back.href.replace(/state=[^&]+/, "state=forged")), started.jar)
    const providerError = await call(app, "GET", "/auth/callback/idp?error=access_denied", { cookie: started.jar.header() })
    const success = (await signInWithIdp(app, idp, "idp", "mallory")).res
    const badStart = buildApp(AUTH_URL, { providers: [oidcProvider("idp", "http://127.0.0.1:9/")] }).app
    const pair = await csrfPair(badStart)
    const failedStart = await call(badStart, "POST", "/auth/signin/idp", { cookie: pair.cookie, form: { csrfToken: pair.token } })
    expectOAuthError(failedStart, "OAuthSignin")
    for (const res of [refused, providerError, success, failedStart]) expectRedirectHeaders(res)
    for (const res of [refused, providerError, failedStart]) {
      const url = expectOAuthError(res, res === failedStart ? "OAuthSignin" : "OAuthCallbackError")
      expectPageHeaders(await call(app, "GET", url.pathname + url.search, { accept: "text/html" }))
    }
  })
})
