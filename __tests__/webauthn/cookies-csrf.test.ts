/**
 * The passkey parts of CSRF-01 (target 6) and CSRF-05, COOK-01/02/04/05 (the challenge cookie),
 * SESS-08 (the challenge cookie presented as a session, and the reverse), HDR-03 and XSS-04
 * (the webauthn-options JSON), SECURITY-CATALOG.md §1, §3, §4, §11, §12.
 */
import { describe, expect, it, jest } from "@jest/globals"
import type { Session } from "../../lib/types.js"
import {
  ALICE, Browser, DEV, TLS, buildApp, expectRefused, expectSignedIn, expectSignedOut, findCookie, isCleared, names, passkeySignIn,
  seedPasskey, seedUser, softFor, storedCounter, type BuildOptions, type Res, type Site,
} from "./fixtures.js"

async function setup(options: BuildOptions = {}) {
  const signIn = jest.fn<(message: unknown) => void>()
  const built = buildApp({ ...options, config: { events: { signIn }, ...options.config } })
  const soft = softFor(built.site)
  await seedUser(built.adapter, ALICE)
  await seedPasskey(built.adapter, ALICE.id, soft, 5)
  return { ...built, soft, signIn }
}

const lines = (res: Res): string[] => {
  const raw = res.headers["set-cookie"] as unknown
  return raw === undefined ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)]
}

/** RFC 6265bis §4.1.3 as a strict user agent applies it, plus the README's attributes. */
function expectStrictCookie(line: string, secure: boolean): void {
  const name = line.slice(0, line.indexOf("="))
  const attrs = line.split(";").slice(1).map((part) => part.trim().toLowerCase())
  expect(attrs).toContain("httponly")
  expect(attrs).toContain("samesite=lax")
  expect(attrs).toContain("path=/")
  expect(attrs.some((a) => a.startsWith("domain="))).toBe(false)
  expect(attrs.includes("secure")).toBe(secure)
  if (name.startsWith("__Secure-") || name.startsWith("__Host-")) expect(attrs).toContain("secure")
}

describe("CSRF-01 target 6 and CSRF-05: a passkey callback without the double-submit token, or from another site", () => {
  const variants: Array<[string, (browser: Browser) => Promise<Record<string, string>>, (token: string) => Record<string, string>]> = [
    ["(a) csrf cookie, no csrfToken field", async (b) => (await b.csrf(), {}), () => ({})],
    ["(b) no csrf cookie, no field", async () => ({}), () => ({})],
    [
      "(c) cross-site form with the victim's cookies",
      async (b) => (await b.csrf(), { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate" }),
      () => ({}),
    ],
    ["(d) a genuine token but Origin of another site", async (b) => (await b.csrf(), { Origin: "https://evil.example" }), (token) => ({ csrfToken: token })],
  ]

  it.each(variants)("%s: MissingCSRF, SIGNED-OUT, nothing written; the challenge still works afterwards", async (_name, prepare, field) => {
    const { app, adapter, soft, signIn } = await setup()
    const browser = new Browser(app)
    const options = await browser.options()
    const data = JSON.stringify(soft.authenticate(options.body.options))
    const headers = await prepare(browser)
    const token = browser.jar.has(names().csrf) ? await browser.csrf() : ""
    if (_name.startsWith("(d)")) expect(token).toMatch(/^[0-9a-f]{64}$/)
    const res = await browser.post("/auth/callback/passkey", { action: "authenticate", data, ...field(token) }, headers)
    await expectRefused(res, browser, { type: "MissingCSRF", cleared: false })
    expect(storedCounter(adapter, soft.id)).toBe(5)
    expect(signIn).not.toHaveBeenCalled()
    const json = await browser.post("/auth/callback/passkey", { action: "authenticate", data, ...field(token) }, { ...headers, Accept: "application/json" })
    expect(json.status).toBe(403)
    expect(json.body.error.type).toBe("MissingCSRF")
    // A refused POST changes nothing: the same challenge and response still sign in with the token.
    expectSignedIn(await browser.callback("authenticate", data))
    expect(storedCounter(adapter, soft.id)).toBe(6)
  })
})

describe("COOK-01/02/04/05 the challenge cookie", () => {
  it.each<[string, Site]>([
    ["COOK-01 plain HTTP (localhost)", DEV],
    ["COOK-02 HTTPS", TLS],
  ])("%s: strict attributes on every cookie of the flow; Max-Age ≤ 900 for the challenge; csrf a browser-session cookie", async (_name, site) => {
    const { app, soft } = await setup({ site })
    const { challenge, csrf, session } = names(site)
    const browser = new Browser(app, site)
    const options = await browser.options()
    const [line] = lines(options)
    expect(lines(options)).toHaveLength(1)
    expect(line!.startsWith(`${challenge}=`)).toBe(true)
    expectStrictCookie(line!, site.secure)
    const maxAge = Number(/max-age=(\d+)/i.exec(line!)?.[1])
    expect(maxAge).toBeGreaterThan(0)
    expect(maxAge).toBeLessThanOrEqual(900)
    const res = await browser.callback("authenticate", soft.authenticate(options.body.options))
    expectSignedIn(res, site)
    // And the sign-in page's "Last used" cookie (issue #26).
    const lastUsed = site.secure ? "__Host-gatehouse.last-used" : "gatehouse.last-used"
    expect(new Set(lines(res).map((l) => l.slice(0, l.indexOf("="))))).toEqual(new Set([challenge, csrf, session, lastUsed]))
    for (const l of lines(res)) expectStrictCookie(l, site.secure)
    const csrfLine = lines(res).find((l) => l.startsWith(`${csrf}=`))!
    expect(csrfLine).not.toMatch(/max-age|expires/i)
  })

  it.each<[string, Site]>([
    ["HTTP", DEV],
    ["HTTPS", TLS],
  ])("COOK-05 (%s): the challenge is cleared with the same name, Path and Secure after success, a refusal and a 400", async (_name, site) => {
    const { app, soft } = await setup({ site })
    const { challenge } = names(site)
    const outcomes: Res[] = []
    for (const data of [(o: { challenge: string }) => soft.authenticate(o), (o: { challenge: string }) => soft.authenticate(o, { corruptSignature: true }), () => "not json"]) {
      const browser = new Browser(app, site)
      const options = await browser.options()
      outcomes.push(await browser.callback("authenticate", data(options.body.options)))
      expect(browser.jar.has(challenge)).toBe(false)
    }
    expect(outcomes.map((r) => r.status)).toEqual([302, 302, 400])
    for (const res of outcomes) {
      const cleared = lines(res).find((l) => l.startsWith(`${challenge}=`))!
      expect(isCleared(findCookie(res, challenge))).toBe(true)
      expectStrictCookie(cleared, site.secure)
    }
  })
})

describe("SESS-08 the challenge cookie is never a session (and a session never a challenge)", () => {
  it.each([["cookie" as const], ["database" as const]])("%s strategy: the challenge value presented as the session cookie reads as signed out", async (strategy) => {
    const session = jest.fn(({ session }: { session: Session }) => session)
    const { app } = await setup({ config: { session: { strategy }, callbacks: { session } } })
    const { challenge, session: sessionName } = names()
    const browser = new Browser(app)
    await browser.options()
    const value = browser.jar.get(challenge)!
    browser.jar.clear()
    browser.jar.set(sessionName, value)
    await expectSignedOut(browser)
    expect(session).not.toHaveBeenCalled()
  })

  it("a genuine session token (cookie strategy) or the csrf cookie presented as the challenge is refused", async () => {
    const { app, soft } = await setup({ config: { session: { strategy: "cookie" } } })
    const { challenge, session, csrf } = names()
    const signedIn = new Browser(app)
    expectSignedIn((await passkeySignIn(signedIn, soft)).res)
    for (const value of [signedIn.jar.get(session)!, signedIn.jar.get(csrf)!]) {
      const browser = new Browser(app)
      const options = await browser.options()
      browser.jar.set(challenge, value)
      await expectRefused(await browser.callback("authenticate", soft.authenticate(options.body.options)), browser)
    }
  })
})

describe("HDR-03 / XSS-04 the webauthn-options JSON", () => {
  it("asked cross-origin as HTML: still JSON, nosniff, no-store, no CORS grant", async () => {
    const { app } = await setup()
    const res = await new Browser(app).get("/auth/webauthn-options/passkey?action=authenticate", { Origin: "https://evil.example", Accept: "text/html" })
    expect(res.status).toBe(200)
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8")
    expect(res.headers["x-content-type-options"]).toBe("nosniff")
    expect(res.headers["cache-control"]).toBe("no-store")
    expect(res.headers["access-control-allow-origin"]).toBeUndefined()
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined()
  })

  it("a user name with markup is escaped in the registration options (<, >, &, U+2028, U+2029)", async () => {
    const name = "</script><script>alert(1)</script>&\u2028\u2029"
    const { app, adapter } = buildApp()
    const soft = softFor()
    await seedUser(adapter, { id: "user-x", email: "x@example.com", name })
    await seedPasskey(adapter, "user-x", soft, 0)
    const browser = new Browser(app)
    expectSignedIn((await passkeySignIn(browser, soft)).res)
    const res = await browser.options("", "passkey", { Accept: "text/html" })
    expect(res.body.options.user.displayName).toBe(name)
    expect(res.text).not.toMatch(/[<>&\u2028\u2029]/)
    expect(res.text).toContain("\\u003c/script\\u003e")
  })
})
