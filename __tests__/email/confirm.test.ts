/**
 * Issue #19, scanner-safe links: a GET of the magic link only shows "Sign in as a…@example.com"
 * with one button (a plain form), whatever the scanner sends; the POST from that page uses the
 * token (CSRF-checked: the page sets the cookie in a fresh browser). `confirm: false` brings back
 * one-click links. Also the rate limits of the email pages and POSTs (`rateLimit.emailCallback`).
 */
import { describe, expect, it } from "@jest/globals"
import {
  ALICE, CSRF_COOKIE, codeIn, elementsOf, expectError, follow, formIn, location, mailFor, openLink, postCode, sessionCookie, sessionOf, setCookies,
  signInByEmail, startSite, typeCode,
} from "./support.js"

/** What Outlook Safe Links, Proofpoint, Mimecast and link previews send, as seen in the wild. */
const SCANNERS: Array<{ method: "GET" | "HEAD"; headers: Record<string, string> }> = [
  { method: "HEAD", headers: {} },
  { method: "HEAD", headers: { "User-Agent": "Microsoft Office Existence Discovery" } },
  { method: "GET", headers: { "User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36" } },
  { method: "GET", headers: { "User-Agent": "Proofpoint URL Defense", Accept: "*/*" } },
  { method: "GET", headers: { "User-Agent": "Mimecast-Url-Protect", Accept: "text/html" } },
  { method: "GET", headers: { "Sec-Purpose": "prefetch" } },
  { method: "GET", headers: { Purpose: "prefetch", "Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate" } },
  { method: "GET", headers: { Accept: "application/json" } },
  { method: "GET", headers: { "X-Auth-Return-Redirect": "1" } },
  { method: "GET", headers: { "Sec-Purpose": "prefetch;prerender", Accept: "text/html,application/xhtml+xml" } },
]

describe("a GET never spends the link", () => {
  it("10 scanner-like GETs and HEADs (no cookies, any headers) leave it usable; the person's button then signs in", async () => {
    const site = await startSite()
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE, { callbackUrl: "/dashboard" })
    const path = `${link.pathname}${link.search}`
    for (const { method, headers } of SCANNERS) {
      const scanner = site.agent()
      const response = await (method === "HEAD" ? scanner.head(path) : scanner.get(path)).set(headers).redirects(0)
      expect([200, 405]).toContain(response.status)
      expect(sessionCookie(response)).toBeUndefined()
    }
    expect(site.memory.store.tokens.size).toBe(1)
    expect(site.memory.store.users.size).toBe(0)
    expect(site.memory.store.sessions.size).toBe(0)
    const response = await follow(agent, link)
    expect(location(response).href).toBe(`${site.url}/dashboard`)
    expect((await sessionOf(agent))?.user?.email).toBe(ALICE)
  })

  it("the confirm page: 'Sign in as a…@example.com?', one button in a plain form, no script; the address is not shown whole", async () => {
    const site = await startSite()
    const { link } = await mailFor(site, site.agent(), ALICE, { callbackUrl: "/dashboard" })
    const page = await openLink(site.agent(), link)
    expect(page.status).toBe(200)
    expect(page.headers["content-type"]).toMatch(/^text\/html/)
    expect(page.headers["cache-control"]).toBe("no-store")
    const visible = page.text.replace(/<input[^>]*>/g, "").replace(/<[^>]+>/g, "")
    expect(visible).toContain("Sign in as a…@example.com?")
    expect(visible).not.toContain(ALICE)
    const elements = elementsOf(page.text)
    expect(elements.filter((e) => e.tagName === "button")).toHaveLength(1)
    expect(elements.some((e) => e.tagName === "script")).toBe(false)
    const form = formIn(page.text)!
    expect(form.path).toBe("/auth/callback/nodemailer")
    expect(Object.keys(form.fields).sort()).toEqual(["callbackUrl", "csrfToken", "email", "token"])
    expect(form.fields.callbackUrl).toBe(`${site.url}/dashboard`)
  })

  it("a fresh browser (a phone's mail app) gets the CSRF cookie from the confirm page; without the token, or cross-site, the POST is refused and spends nothing", async () => {
    const site = await startSite()
    const { link } = await mailFor(site, site.agent(), ALICE)
    const phone = site.agent()
    const page = await openLink(phone, link)
    expect(setCookies(page).some((c) => c.name === CSRF_COOKIE && c.value)).toBe(true)
    const form = formIn(page.text)!
    const { csrfToken: _token, ...withoutToken } = form.fields
    expectError(await phone.post(form.path).type("form").send(withoutToken).redirects(0), "signin", "MissingCSRF")
    const crossSite = await phone.post(form.path).set("Origin", "https://evil.example").type("form").send(form.fields).redirects(0)
    expectError(crossSite, "signin", "MissingCSRF")
    expect(site.memory.store.tokens.size).toBe(1)
    const signedIn = await phone.post(form.path).type("form").send(form.fields).redirects(0)
    expect(sessionCookie(signedIn)).toBeDefined()
  })

  it("a link without its token or address is refused on the GET already (Verification), without a page", async () => {
    const site = await startSite()
    const { link } = await mailFor(site, site.agent(), ALICE)
    const broken = new URL(link)
    broken.searchParams.delete("token")
    expectError(await openLink(site.agent(), broken), "error", "Verification")
    broken.searchParams.set("token", link.searchParams.get("token")!)
    broken.searchParams.set("email", "not an address")
    expectError(await openLink(site.agent(), broken), "error", "Verification")
  })
})

describe("confirm: false", () => {
  it("the GET signs in at once (Auth.js's way); a prefetch still changes nothing", async () => {
    const site = await startSite({ provider: { confirm: false } })
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE)
    const prefetch = await openLink(site.agent(), link, { "Sec-Purpose": "prefetch" })
    expect(prefetch.status).toBe(204)
    const response = await openLink(agent, link)
    expect(response.status).toBe(302)
    expect(sessionCookie(response)).toBeDefined()
  })

  it("a value other than a boolean is refused at start-up", async () => {
    await expect(startSite({ provider: { confirm: "yes" as unknown as boolean } })).rejects.toMatchObject({ type: "InvalidOption" })
    await expect(startSite({ provider: { code: { length: 4 } } })).rejects.toMatchObject({ type: "InvalidOption" })
    await expect(startSite({ provider: { code: { format: "emoji" as "digits" } } })).rejects.toMatchObject({ type: "InvalidOption" })
  })
})

describe("rate limits of the email pages and POSTs (rateLimit.emailCallback)", () => {
  it("per client address: the verify-request page, the confirm page and the POSTs share one count", async () => {
    const site = await startSite({ config: { rateLimit: { enabled: true, email: false, emailCallback: { ip: { limit: 4, window: 600 }, identifier: false } } } })
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE) // (asking is `rateLimit.email`, off here)
    await agent.get("/auth/verify-request").expect(200) // 1
    await openLink(agent, link).expect(200) // 2
    await openLink(site.agent(), link).expect(200) // 3
    expect((await postCode(agent, "000000")).status).toBe(302) // 4
    const limited = await agent.get("/auth/verify-request")
    expect(limited.status).toBe(429)
    expect(limited.headers["retry-after"]).toMatch(/^\d+$/)
    expect((await openLink(site.agent(), link)).status).toBe(429)
    expect(site.memory.store.tokens.size).toBe(1)
  })

  it("per inbox: code tries and link confirmations for one address, from many browsers, are limited", async () => {
    const site = await startSite({ config: { rateLimit: { enabled: true, email: false, emailCallback: { ip: false, identifier: { limit: 3, window: 600 } } } } })
    const agent = site.agent()
    const { mail } = await mailFor(site, agent, "bob+news@example.com")
    const code = codeIn(mail)
    for (let i = 0; i < 3; i++) expectError(await postCode(agent, code === "000000" ? "111111" : "000000"), "verify-request", "EmailCodeInvalid")
    // The fourth try, even the right code, is refused without being checked.
    const limited = await typeCode(agent, code)
    expect(limited.status).toBe(429)
    expect(sessionCookie(limited)).toBeUndefined()
    // Another spelling of the same inbox shares the count (its link's button is refused); another inbox does not.
    const other = site.agent()
    const { link } = await mailFor(site, other, "bob@example.com")
    const refused = await follow(other, link)
    expect(refused.status).toBe(429)
    expect(site.memory.store.tokens.size).toBe(2)
    expect(sessionCookie(await signInByEmail(site, site.agent(), "carol@example.com"))).toBeDefined()
  })
})
