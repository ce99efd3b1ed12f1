/**
 * HTTP hardening headers, HDR-01, HDR-03, HDR-04 (SECURITY-CATALOG.md §12). HDR-02 (framing and CSP in
 * a real browser) belongs to the Chromium suite; OAUTH-01's error redirects come with OAuth.
 */
import { beforeAll, describe, expect, it } from "@jest/globals"
import type { Express } from "express"
import {
  AUTH_URL, CSRF, TLS_AUTH_URL, TLS_HOST, buildApp, call, csrfPair, expectPageHeaders, preserveEnv, setCookies, signIn, type Res,
} from "./fixtures.js"

preserveEnv("AUTH_URL")

const PAGES = [
  "/auth/signin",
  "/auth/signin/credentials",
  "/auth/signin?error=CredentialsSignin&code=credentials",
  "/auth/signin?error=MissingCSRF",
  "/auth/signout",
  "/auth/signout?callbackUrl=/x",
  "/auth/error",
  "/auth/error?error=Verification",
  "/auth/error?error=AccessDenied",
  "/auth/error?error=Configuration",
  "/auth/verify-request",
]

let app: Express
let tls: Express
beforeAll(() => {
  tls = buildApp(TLS_AUTH_URL).app
  app = buildApp(AUTH_URL).app
})

describe("HDR-01 headers on every HTML page and on auth redirects", () => {
  it.each(PAGES)("APP %s", async (path) => {
    for (const method of ["GET", "HEAD"]) {
      const res = await call(app, method, path, { accept: "text/html" })
      expect([200, 403, 500]).toContain(res.status)
      expectPageHeaders(res)
    }
  })

  it.each(PAGES)("APP-TLS %s", async (path) => {
    expectPageHeaders(await call(tls, "GET", path, { host: TLS_HOST, accept: "text/html" }))
  })

  function expectRedirectHeaders(res: Res): void {
    expect(res.status).toBe(302)
    expect(res.headers["cache-control"]).toBe("no-store")
    expect(res.headers["x-content-type-options"]).toBe("nosniff")
    expect(res.headers["x-powered-by"]).toBeUndefined()
    expect(res.headers["strict-transport-security"]).toBeUndefined()
  }

  it("CSRF-01 refusals, sign-in and sign-out redirects (which set or clear cookies) are never cached", async () => {
    const pair = await csrfPair(app)
    const refusals = [
      await call(app, "POST", "/auth/callback/credentials", { form: { username: "alice", password: "correct-horse" } }),
      await call(app, "POST", "/auth/signout", { cookie: pair.cookie, form: {} }),
      await call(app, "POST", "/auth/signout", { cookie: pair.cookie, headers: { Origin: "https://evil.example" }, form: { csrfToken: pair.token } }),
    ]
    for (const res of refusals) {
      expectRedirectHeaders(res)
      expect(String(res.headers.location)).toContain("error=MissingCSRF")
    }
    expect(setCookies(refusals[0]!).map((c) => c.name)).toEqual([CSRF])
    const { res: signedIn, session } = await signIn(app)
    expectRedirectHeaders(signedIn)
    const out = await call(app, "POST", "/auth/signout", { cookie: `${session}; ${pair.cookie}`, form: { csrfToken: pair.token } })
    expectRedirectHeaders(out)
    const failed = await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, form: { csrfToken: pair.token, username: "alice", password: "x" } })
    expectRedirectHeaders(failed)
  })
})

describe("HDR-03 no cross-origin read access, no caching of per-user JSON", () => {
  it("GETs with a foreign Origin and preflights get no CORS grant; session and csrf are no-store", async () => {
    const { session } = await signIn(app)
    const evil = { Origin: "https://evil.example" }
    const answers = [
      await call(app, "GET", "/auth/session", { cookie: session, headers: evil }),
      await call(app, "GET", "/auth/csrf", { headers: evil }),
      await call(app, "GET", "/auth/providers", { headers: evil }),
      await call(app, "OPTIONS", "/auth/session", { headers: { ...evil, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" } }),
      await call(app, "OPTIONS", "/auth/callback/credentials", { headers: { ...evil, "Access-Control-Request-Method": "POST" } }),
    ]
    expect(answers[0]!.body.user.name).toBe("Alice")
    for (const res of answers) {
      expect(res.status).toBeLessThan(500)
      for (const name of ["access-control-allow-origin", "access-control-allow-credentials", "access-control-allow-methods", "access-control-allow-headers"]) {
        expect(res.headers[name]).toBeUndefined()
      }
      expect(res.headers["cache-control"]).toBe("no-store")
    }
    expect(answers[3]!.status).toBe(405)
    expect(answers[3]!.headers.allow).toBe("GET, HEAD, POST")
  })
})

describe("HDR-04 no HTTPS-only headers from Gatehouse; HTTP cookies stay usable", () => {
  it("no Strict-Transport-Security on APP or APP-TLS (HSTS is the application's choice)", async () => {
    for (const [target, host] of [[app, undefined], [tls, TLS_HOST]] as const) {
      for (const path of ["/auth/signin", "/auth/csrf", "/auth/session", "/auth/providers"]) {
        const res = await call(target, "GET", path, { host })
        expect(res.headers["strict-transport-security"]).toBeUndefined()
      }
    }
    const { res } = await signIn(app)
    expect(res.headers["strict-transport-security"]).toBeUndefined()
    for (const cookie of setCookies(res)) expect(cookie.secure).toBeFalsy()
  })
})
