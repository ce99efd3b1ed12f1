/**
 * CSRF-01 … CSRF-07 (SECURITY-CATALOG.md §1) for the credentials provider and cookie sessions:
 * the signed double-submit cookie, the Origin / Sec-Fetch-Site check, and the skipCSRFCheck marker.
 * Email, OAuth and passkey targets of CSRF-01 come with those providers.
 */
import { createHash } from "node:crypto"
import type { Server } from "node:http"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals"
import type { Express } from "express"
import { skipCSRFCheck } from "../../lib/core/index.js"
import type { JWT } from "../../lib/types.js"
import {
  AUTH_URL, BASE, CSRF, OTHER_SECRET, SESSION, TLS_AUTH_URL, TLS_CSRF, TLS_HOST, TLS_SESSION,
  assertAlive, assertSignedOut, buildApp, call, clearedNames, cookieHeader, csrfPair, elements, attr,
  expectMissingCsrf, listen, preserveEnv, sessionCookie, sessionOf, setCookies, signIn, type Res,
} from "./fixtures.js"

preserveEnv("AUTH_URL")

const CROSS_SITE = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate" }
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

let app: Express
let tls: Express
let other: Express
const jwtCalls: Array<{ trigger?: string }> = []
const events: string[] = []

beforeAll(() => {
  other = buildApp(AUTH_URL, { secret: OTHER_SECRET }).app
  tls = buildApp(TLS_AUTH_URL).app
  const jwt = ({ token, trigger }: { token: JWT; trigger?: string }) => {
    jwtCalls.push({ trigger })
    return token
  }
  const record = { signIn: () => void events.push("signIn"), signOut: () => void events.push("signOut") }
  app = buildApp(AUTH_URL, { callbacks: { jwt }, events: record }).app
})

beforeEach(() => {
  jwtCalls.length = 0
  events.length = 0
})

async function aliceWithCsrf() {
  const { session } = await signIn(app)
  const csrf = await csrfPair(app, undefined, session)
  events.length = 0
  jwtCalls.length = 0
  return { session, csrf, both: `${session}; ${csrf.cookie}` }
}

async function expectAliceIntact(session: string) {
  const current = await sessionOf(app, session)
  expect((current?.user as { name?: string } | undefined)?.name).toBe("Alice")
}

const credentialsForm = { username: "alice", password: "correct-horse" }

describe("CSRF-01 missing token on every state-changing POST", () => {
  const variants = ["a: csrf cookie, no field", "b: no csrf cookie, no field", "c: cross-site form"]
  const cases = ["credentials callback (login CSRF)", "sign-out", "session update"].flatMap((target) => variants.map((v) => [target, v] as const))

  it.each(cases)("%s, %s", async (target, variant) => {
    const { session, csrf, both } = await aliceWithCsrf()
    const headers = variant.startsWith("c") ? CROSS_SITE : {}
    if (target.startsWith("credentials")) {
      const cookie = variant.startsWith("a") ? csrf.cookie : variant.startsWith("b") ? "" : both
      expectMissingCsrf(await call(app, "POST", "/auth/callback/credentials", { cookie, headers, form: { username: "bob", password: "battery-staple" } }))
      if (!variant.startsWith("c")) await assertSignedOut(app, cookie)
    } else if (target === "sign-out") {
      const res = await call(app, "POST", "/auth/signout", { cookie: variant.startsWith("b") ? session : both, headers, form: {} })
      expectMissingCsrf(res)
      expect(clearedNames(res)).not.toContain(SESSION)
    } else {
      const res = await call(app, "POST", "/auth/session", { cookie: variant.startsWith("b") ? session : both, headers, json: { data: { name: "pwned" } } })
      expect([res.status, res.body.error.type]).toEqual([403, "MissingCSRF"])
      expect(sessionCookie(res)).toBe("")
    }
    expect(events).toEqual([])
    expect(jwtCalls.some((c) => c.trigger === "update")).toBe(false)
    await expectAliceIntact(session)
  })

  it("controls: the same update and sign-out with the token are accepted", async () => {
    const { both, csrf } = await aliceWithCsrf()
    const update = await call(app, "POST", "/auth/session", { cookie: both, json: { csrfToken: csrf.token, data: { name: "x" } } })
    expect(update.status).toBe(200)
    expect(jwtCalls.some((c) => c.trigger === "update")).toBe(true)
    const res = await call(app, "POST", "/auth/signout", { cookie: both, form: { csrfToken: csrf.token } })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`${BASE}/`)
    expect(clearedNames(res)).toContain(SESSION)
    expect(events).toEqual(["signOut"])
  })
})

describe("CSRF-02 wrong, stale, swapped and type-confused tokens", () => {
  async function attempt(cookie: string, body: { form?: Record<string, string | string[]> | string; json?: unknown }): Promise<Res> {
    const res = await call(app, "POST", "/auth/callback/credentials", { cookie, ...body })
    expectMissingCsrf(res)
    expect(events).toEqual([])
    await assertAlive(app)
    return res
  }

  it("control: the genuine pair signs in", async () => {
    const own = await csrfPair(app)
    const res = await call(app, "POST", "/auth/callback/credentials", { cookie: own.cookie, form: { csrfToken: own.token, ...credentialsForm } })
    expect(res.status).toBe(302)
    expect(sessionCookie(res)).not.toBe("")
  })

  it("a/d: a token from another jar with this jar's cookie", async () => {
    const [a, b] = [await csrfPair(app), await csrfPair(app)]
    await attempt(a.cookie, { form: { csrfToken: b.token, ...credentialsForm } })
  })

  it("b: one hex digit changed; c: upper-cased; h: padded with spaces", async () => {
    const own = await csrfPair(app)
    const flipped = own.token.slice(0, 10) + (own.token[10] === "a" ? "b" : "a") + own.token.slice(11)
    await attempt(own.cookie, { form: { csrfToken: flipped, ...credentialsForm } })
    await attempt(own.cookie, { form: { csrfToken: own.token.toUpperCase(), ...credentialsForm } })
    await attempt(own.cookie, { form: `csrfToken=%20${own.token}%20&username=alice&password=correct-horse` })
  })

  it("e: a cookie issued under an older secret is refused and replaced by a working one", async () => {
    const stale = await csrfPair(other)
    const res = await attempt(stale.cookie, { form: { csrfToken: stale.token, ...credentialsForm } })
    const fresh = setCookies(res).find((c) => c.name === CSRF)
    expect(fresh?.value).toMatch(/^[0-9a-f]{64}\|[0-9a-f]{64}$/)
    const token = (fresh?.value ?? "").split("|")[0] ?? ""
    const retry = await call(app, "POST", "/auth/callback/credentials", { cookie: `${CSRF}=${fresh?.value}`, form: { csrfToken: token, ...credentialsForm } })
    expect(retry.status).toBe(302)
    expect(retry.headers.location).toBe(`${BASE}/`)
    expect(sessionCookie(retry)).not.toBe("")
  })

  it("f: parameter pollution in either order", async () => {
    const own = await csrfPair(app)
    await attempt(own.cookie, { form: { csrfToken: [own.token, "bad"], ...credentialsForm } })
    await attempt(own.cookie, { form: { csrfToken: ["bad", own.token], ...credentialsForm } })
    await attempt(own.cookie, { form: { csrfToken: [own.token, own.token], ...credentialsForm } })
  })

  it("g: JSON tokens of the wrong type", async () => {
    const own = await csrfPair(app)
    for (const csrfToken of [[own.token], { 0: own.token }, 123, null, true]) {
      await attempt(own.cookie, { json: { csrfToken, ...credentialsForm } })
    }
  })
})

describe("CSRF-03 forged or tossed csrf cookie", () => {
  const A = "a".repeat(64)
  const forged = [
    ["a: arbitrary hash", `${A}|${"b".repeat(64)}`, A],
    ["b: hash without the secret", `${A}|${sha256(A)}`, A],
    ["c: hash with an empty secret", `${A}|${sha256(`${A}`)}`, A],
    ["d: no pipe", A, A],
    ["e: both empty", "|", ""],
    ["e: pipe and token only", `${A}|`, A],
  ] as const

  it.each(forged)("%s", async (_name, value, token) => {
    const res = await call(app, "POST", "/auth/callback/credentials", { cookie: `${CSRF}=${value}`, form: { csrfToken: token, ...credentialsForm } })
    expectMissingCsrf(res)
    await assertSignedOut(app, `${CSRF}=${value}`)
  })

  it("f: a genuine pair from an app with another secret", async () => {
    const foreign = await csrfPair(other)
    expectMissingCsrf(await call(app, "POST", "/auth/callback/credentials", { cookie: foreign.cookie, form: { csrfToken: foreign.token, ...credentialsForm } }))
  })

  it("g: on HTTPS only the __Host- cookie is read", async () => {
    const pair = await csrfPair(app)
    const form = { csrfToken: pair.token, ...credentialsForm }
    const refused = await call(tls, "POST", "/auth/callback/credentials", { host: TLS_HOST, cookie: `${CSRF}=${pair.value}`, form })
    expectMissingCsrf(refused, "https://app.test:3443")
    expect(sessionCookie(refused, TLS_SESSION)).toBe("")
    const control = await call(tls, "POST", "/auth/callback/credentials", { host: TLS_HOST, cookie: `${TLS_CSRF}=${pair.value}`, form })
    expect(control.status).toBe(302)
    expect(sessionCookie(control, TLS_SESSION)).not.toBe("")
  })

  it("h: two cookies of the same name never accept the pair the server did not issue", async () => {
    const genuine = await csrfPair(app)
    const B = "b".repeat(64)
    const bogus = `${B}|${sha256(B)}`
    for (const order of [[genuine.value, bogus], [bogus, genuine.value]]) {
      const cookie = cookieHeader(order.map((v) => [CSRF, v] as [string, string]))
      expectMissingCsrf(await call(app, "POST", "/auth/callback/credentials", { cookie, form: { csrfToken: B, ...credentialsForm } }))
    }
  })
})

describe("CSRF-04 GET never changes state", () => {
  it("sign-out GET renders a confirmation form and keeps the session", async () => {
    const { session } = await aliceWithCsrf()
    for (const path of ["/auth/signout", "/auth/signout?callbackUrl=/x"]) {
      const res = await call(app, "GET", path, { cookie: session, accept: "text/html" })
      expect(res.status).toBe(200)
      const form = elements(res.text).find((n) => n.tagName === "form")
      expect(form && attr(form, "method")).toBe("post")
      const hidden = elements(res.text).find((n) => n.tagName === "input" && attr(n, "name") === "csrfToken")
      expect(hidden && attr(hidden, "value")).toMatch(/^[0-9a-f]{64}$/)
      expect(clearedNames(res)).not.toContain(SESSION)
    }
    await expectAliceIntact(session)
    expect(events).toEqual([])
  })

  it("credentials GET does not sign in; session GET with data does not update", async () => {
    const login = await call(app, "GET", "/auth/callback/credentials?username=alice&password=correct-horse", { accept: "text/html" })
    expect(login.status).toBe(405)
    expect(sessionCookie(login)).toBe("")
    const { session } = await aliceWithCsrf()
    const read = await call(app, "GET", "/auth/session?data[name]=pwned&data=pwned", { cookie: session })
    expect((read.body.user as { name: string }).name).toBe("Alice")
    expect(jwtCalls.some((c) => c.trigger === "update")).toBe(false)
    expect(events).toEqual([])
  })

  it("HEAD and OPTIONS on every POST action change nothing", async () => {
    const { session, both } = await aliceWithCsrf()
    for (const path of ["/auth/callback/credentials", "/auth/signout", "/auth/session", "/auth/signin/credentials"]) {
      for (const method of ["HEAD", "OPTIONS"]) {
        const res = await call(app, method, path, { cookie: both })
        expect(res.status).toBeLessThan(500)
        expect(clearedNames(res)).not.toContain(SESSION)
        expect(setCookies(res).some((c) => c.name === SESSION)).toBe(false)
      }
    }
    expect(events).toEqual([])
    expect(jwtCalls.some((c) => c.trigger === "update")).toBe(false)
    await expectAliceIntact(session)
  })
})

describe("CSRF-05 Origin / Sec-Fetch-Site defence in depth", () => {
  const refused = [
    ["a: foreign Origin", { Origin: "https://evil.example" }],
    ["b: Origin null", { Origin: "null" }],
    ["b': Origin null from a cross-site context", { Origin: "null", "Sec-Fetch-Site": "cross-site" }],
    ["b'': Origin null the browser marks same-site (a sibling subdomain), not same-origin", { Origin: "null", "Sec-Fetch-Site": "same-site" }],
    ["c: Sec-Fetch-Site cross-site without Origin", { "Sec-Fetch-Site": "cross-site" }],
    ["a': foreign Origin on the same host, other scheme", { Origin: "https://app.test:3000" }],
  ] as const

  it.each(refused)("%s is refused even with a genuine pair", async (_name, headers) => {
    const { session, both, csrf } = await aliceWithCsrf()
    expectMissingCsrf(await call(app, "POST", "/auth/signout", { cookie: both, headers, form: { csrfToken: csrf.token } }))
    const json = await call(app, "POST", "/auth/signout", { cookie: both, headers, accept: "application/json", form: { csrfToken: csrf.token } })
    expect(json.status).toBe(403)
    expect(json.body.error.type).toBe("MissingCSRF")
    expect(events).toEqual([])
    await expectAliceIntact(session)
  })

  const accepted = [
    ["d: same Origin", { Origin: BASE, "Sec-Fetch-Site": "same-origin" }],
    ["e: no Origin, no Sec-Fetch-*", {}],
    // What Chromium sends for a form on a page served with Referrer-Policy: no-referrer (helmet's default).
    ["f: Origin null that the browser vouches for with Sec-Fetch-Site: same-origin", { Origin: "null", "Sec-Fetch-Site": "same-origin" }],
  ] as const

  it.each(accepted)("%s is accepted", async (_name, headers) => {
    const { session, both, csrf } = await aliceWithCsrf()
    const res = await call(app, "POST", "/auth/signout", { cookie: both, headers, form: { csrfToken: csrf.token } })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`${BASE}/`)
    expect(clearedNames(res)).toContain(SESSION)
    expect(session).not.toBe("")
  })
})

describe("CSRF-06 token quality, caching, cross-origin readability", () => {
  let server: Server
  let close: () => Promise<void>
  beforeAll(async () => ({ server, close } = await listen(app)))
  afterAll(() => close())

  it("a: 1000 fresh jars get 1000 distinct 256-bit tokens", async () => {
    const tokens = new Set<string>()
    for (let i = 0; i < 1000; i++) {
      const res = await call(server, "GET", "/auth/csrf")
      expect(res.body.csrfToken).toMatch(/^[0-9a-f]{64}$/)
      tokens.add(res.body.csrfToken)
    }
    expect(tokens.size).toBe(1000)
  })

  it("b: the same jar keeps its token; never cached; HttpOnly cookie", async () => {
    const first = await call(server, "GET", "/auth/csrf")
    const cookie = setCookies(first).find((c) => c.name === CSRF)
    expect(cookie?.httpOnly).toBe(true)
    const second = await call(server, "GET", "/auth/csrf", { cookie: `${CSRF}=${cookie?.value}` })
    expect(second.body.csrfToken).toBe(first.body.csrfToken)
    expect(setCookies(second)).toEqual([])
    for (const res of [first, second]) expect(res.headers["cache-control"]).toBe("no-store")
  })

  it("c/d: no CORS for another origin, on GET or preflight", async () => {
    const get = await call(server, "GET", "/auth/csrf", { headers: { Origin: "https://evil.example" } })
    const preflight = await call(server, "OPTIONS", "/auth/csrf", {
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "content-type" },
    })
    expect(preflight.status).toBeLessThan(500)
    for (const res of [get, preflight]) {
      expect(res.headers["access-control-allow-origin"]).toBeUndefined()
      expect(res.headers["access-control-allow-credentials"]).toBeUndefined()
    }
  })

  it("the token never appears in a URL Gatehouse writes", async () => {
    const pair = await csrfPair(server)
    const page = await call(server, "GET", "/auth/signin", { cookie: pair.cookie })
    for (const node of elements(page.text)) for (const name of ["href", "action", "src"]) expect(attr(node, name) ?? "").not.toContain(pair.token)
    const refused = await call(server, "POST", "/auth/signout", { cookie: pair.cookie, form: { csrfToken: "x" } })
    expect(String(refused.headers.location)).not.toContain(pair.token)
  })
})

describe("CSRF-07 skipCSRFCheck cannot be switched on from outside", () => {
  it("no body field, header, query or prototype key disables the check", async () => {
    const { session, both } = await aliceWithCsrf()
    expectMissingCsrf(await call(app, "POST", "/auth/signout", { cookie: both, form: { skipCSRFCheck: "1" } }))
    expectMissingCsrf(await call(app, "POST", "/auth/signout", { cookie: both, headers: { "X-Skip-CSRF": "1" }, form: {} }))
    expectMissingCsrf(await call(app, "POST", "/auth/signout?skipCSRFCheck=true", { cookie: both, form: {} }))
    const json = '{"skipCSRFCheck":true,"__proto__":{"skipCSRFCheck":true},"constructor":{"prototype":{"skipCSRFCheck":true}}}'
    expectMissingCsrf(await call(app, "POST", "/auth/signout", { cookie: both, json }))
    expect(({} as Record<string, unknown>).skipCSRFCheck).toBeUndefined()
    expect(events).toEqual([])
    await expectAliceIntact(session)
  })

  it("an app built with the marker has no csrf action", async () => {
    const optedOut = buildApp(AUTH_URL, { skipCSRFCheck }).app
    const res = await call(optedOut, "GET", "/auth/csrf")
    expect(res.status).toBe(404)
    expect(res.body.error.type).toBe("UnknownAction")
  })
})
