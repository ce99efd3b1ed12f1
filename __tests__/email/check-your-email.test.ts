/**
 * Issue #26, no dead ends: "Check your email" names the address the mail went to (carried in a
 * sealed cookie, never read from the URL), offers "send again" (the provider's normal sign-in POST,
 * with the CSRF token; the rate limits apply) and "use another address" (the sign-in page, keeping
 * the callback URL).
 */
import { describe, expect, it } from "@jest/globals"
import { ALICE, CSRF_COOKIE, askForLink, linkIn, elementsOf, expectError, location, mailFor, request, setCookies, startSite, type Agent } from "./support.js"

const SENT_COOKIE = "gatehouse.email-sent"
const PAGE = "/auth/verify-request?provider=nodemailer&type=email"

/** The page's text as a person reads it (tags dropped, entities decoded). */
function textOf(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/g, "")
    .replace(/<\/?strong[^>]*>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&#34;|&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
}

/** The "send again" form: the POST form whose action is the provider's sign-in, with its hidden fields. */
function resendForm(html: string): { action: string; fields: Record<string, string> } | undefined {
  const elements = elementsOf(html)
  const start = elements.findIndex((element) => element.tagName === "form" && element.attrs.action?.endsWith("/auth/signin/nodemailer"))
  if (start < 0) return undefined
  const fields: Record<string, string> = {}
  for (const element of elements.slice(start + 1)) {
    if (element.tagName === "form") break
    if (element.tagName === "input" && element.attrs.type === "hidden") fields[element.attrs.name!] = element.attrs.value!
  }
  return { action: elements[start]!.attrs.action!, fields }
}

function linkNamed(html: string, text: string): string | undefined {
  const match = new RegExp(`<a href="([^"]*)">${text}</a>`).exec(html)
  return match?.[1]?.replace(/&amp;/g, "&")
}

async function checkPage(agent: Agent, headers: Record<string, string> = {}) {
  return agent.get(PAGE).set(headers).expect(200)
}

async function pressSendAgain(agent: Agent, html: string) {
  const form = resendForm(html)!
  return agent.post(new URL(form.action).pathname).type("form").send(form.fields).redirects(0)
}

describe("check your email", () => {
  it("names the address the mail went to, and the code and link", async () => {
    const site = await startSite()
    const agent = site.agent()
    await mailFor(site, agent, ALICE)
    const page = await checkPage(agent)
    expect(page.text).toContain(`<strong class="address">${ALICE}</strong>`)
    expect(textOf(page.text)).toContain(`We sent an email with a sign-in code and a link to ${ALICE}. Type the code here, or open the link.`)
  })

  it("without codes, it says a link went to the address; in German too", async () => {
    const site = await startSite({ provider: { code: false } })
    const agent = site.agent()
    await mailFor(site, agent, ALICE)
    expect(textOf((await checkPage(agent)).text)).toContain(`We sent a sign-in link to ${ALICE}. It works once and expires soon.`)
    const german = textOf((await checkPage(agent, { "Accept-Language": "de" })).text)
    expect(german).toContain(`Wir haben einen Anmeldelink an ${ALICE} gesendet.`)
    expect(german).toContain("Erneut senden")
    expect(german).toContain("Andere Adresse verwenden")
  })

  it("the address is escaped, and an address in the URL is never shown", async () => {
    const site = await startSite({ provider: { code: false } })
    const agent = site.agent()
    const asked = await askForLink(agent, "o'hara&co@example.com")
    expect(location(asked).pathname).toBe("/auth/verify-request")
    const page = await checkPage(agent)
    expect(page.text).toContain('<strong class="address">o&#39;hara&amp;co@example.com</strong>')

    const stranger = site.agent()
    const forged = await stranger.get(`${PAGE}&email=mallory%40evil.example&identifier=mallory%40evil.example`).expect(200)
    expect(forged.text).not.toContain("mallory")
    expect(textOf(forged.text)).toContain("We sent you a link to sign in.")
    expect(resendForm(forged.text)).toBeUndefined()
  })

  it("a browser that asked for no mail (or whose cookie was tampered with) sees no address and no send-again, but a way back to sign in", async () => {
    const site = await startSite()
    const page = await site.agent().get(PAGE).set("Cookie", `${SENT_COOKIE}=eyJhbGciOiJkaXIifQ..x.y.z`).expect(200)
    expect(resendForm(page.text)).toBeUndefined()
    expect(page.text).not.toContain('class="address"')
    expect(linkNamed(page.text, "Go to the sign-in page")).toBe(`${site.url}/auth/signin`)
  })

  it("send again: the provider's sign-in POST with the CSRF token, to the same address and callback URL; the page then says it was sent again", async () => {
    const site = await startSite()
    const agent = site.agent()
    await mailFor(site, agent, ALICE, { callbackUrl: "/dashboard" })
    const page = await checkPage(agent)
    expect(textOf(page.text)).not.toContain("We sent the email again.")
    const form = resendForm(page.text)!
    expect(new URL(form.action).pathname).toBe("/auth/signin/nodemailer")
    expect(form.fields).toEqual({ csrfToken: expect.any(String), email: ALICE, callbackUrl: `${site.url}/dashboard` })

    const again = await pressSendAgain(agent, page.text)
    expect(location(again).pathname).toBe("/auth/verify-request")
    const [, second] = await site.smtp.waitFor(2)
    expect(second!.envelope.to).toEqual([ALICE])
    const link = linkIn(second!)
    expect(link.searchParams.get("callbackUrl")).toBe(`${site.url}/dashboard`)
    const after = textOf((await checkPage(agent)).text)
    expect(after).toContain("We sent the email again. Use the newest one.")
    expect(after).toContain(ALICE)
  })

  it("send again needs the CSRF token like any sign-in POST", async () => {
    const site = await startSite()
    const agent = site.agent()
    await mailFor(site, agent, ALICE)
    const form = resendForm((await checkPage(agent)).text)!
    const refused = await agent.post("/auth/signin/nodemailer").type("form").send({ ...form.fields, csrfToken: "forged" }).redirects(0)
    expectError(refused, "signin", "MissingCSRF")
    // A browser without the CSRF cookie (a cross-site form) is refused too.
    const elsewhere = await request(site.url).post("/auth/signin/nodemailer").type("form").send(form.fields).redirects(0)
    expectError(elsewhere, "signin", "MissingCSRF")
    expect(site.smtp.messages).toHaveLength(1)
  })

  it("send again counts against the per-address limit of sign-in emails", async () => {
    const site = await startSite({ config: { rateLimit: { enabled: true, email: { identifier: { limit: 2, window: 600 }, ip: false } } } })
    const agent = site.agent()
    await mailFor(site, agent, ALICE)
    expect((await pressSendAgain(agent, (await checkPage(agent)).text)).status).toBe(302)
    const third = await pressSendAgain(agent, (await checkPage(agent)).text)
    expect(third.status).toBe(429)
    expect(third.text).toContain("Too many attempts")
    expect(site.smtp.messages).toHaveLength(2)
  })

  it("use another address: the sign-in page, keeping the callback URL", async () => {
    const site = await startSite()
    const agent = site.agent()
    await mailFor(site, agent, ALICE, { callbackUrl: "/dashboard" })
    const href = linkNamed((await checkPage(agent)).text, "Use another address")!
    const url = new URL(href)
    expect(url.pathname).toBe("/auth/signin")
    expect(url.searchParams.get("callbackUrl")).toBe(`${site.url}/dashboard`)
    expect((await agent.get(`${url.pathname}${url.search}`)).status).toBe(200)
  })

  it("the address is forgotten at sign-out", async () => {
    const site = await startSite()
    const agent = site.agent()
    await mailFor(site, agent, ALICE)
    const csrf = await agent.get("/auth/csrf").expect(200)
    const out = await agent.post("/auth/signout").type("form").send({ csrfToken: csrf.body.csrfToken as string }).redirects(0)
    const cleared = setCookies(out).find((cookie) => cookie.name === SENT_COOKIE)
    expect(cleared?.value).toBe("")
    expect(setCookies(out).some((cookie) => cookie.name === CSRF_COOKIE)).toBe(true)
  })
})
