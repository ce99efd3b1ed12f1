/**
 * The magic-link flow as a user lives it: ask for a link, read it in the mail the SMTP server
 * received, follow it. First and second sign-in, the mail itself, replay, expiry, both session
 * strategies, the verify-request page.
 */
import { describe, expect, it, jest } from "@jest/globals"
import { decode } from "../../lib/jwt/index.js"
import Email from "../../lib/providers/email.js"
import {
  ALICE, CSRF_COOKIE, SECRET, SESSION_COOKIE, askForLink, elementsOf, expectError, follow, hrefsIn, location, mailFor, sessionCookie, sessionOf,
  linkIn, setCookies, signInByEmail, startSite,
} from "./support.js"

describe("first and second sign-in", () => {
  it("the first sign-in creates a verified user with the email account and a database session", async () => {
    const site = await startSite()
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE, { callbackUrl: "/dashboard" })
    const csrfBefore = (await agent.get("/auth/csrf")).body.csrfToken as string
    expect(link.origin).toBe(site.url)
    expect(link.pathname).toBe("/auth/callback/nodemailer")
    expect(link.searchParams.get("email")).toBe(ALICE)
    const response = await follow(agent, link)
    expect(location(response).href).toBe(`${site.url}/dashboard`)

    const { users, accounts, sessions, tokens } = site.memory.store
    expect(users.size).toBe(1)
    const user = [...users.values()][0]!
    expect(user.email).toBe(ALICE)
    expect(user.emailVerified).toBeInstanceOf(Date)
    expect([...accounts.values()]).toEqual([{ type: "email", provider: "nodemailer", providerAccountId: ALICE, userId: user.id }])
    expect(tokens.size).toBe(0)
    // Database strategy (the default with an adapter): the cookie holds the session record's token.
    const cookie = sessionCookie(response)
    expect(cookie).toBeDefined()
    expect(sessions.get(cookie!)?.userId).toBe(user.id)
    expect((await sessionOf(agent))?.user?.email).toBe(ALICE)
    await agent.get("/api/me").expect(200)
    // The CSRF token rotates on sign-in.
    expect(setCookies(response).some((c) => c.name === CSRF_COOKIE && c.value !== "")).toBe(true)
    expect((await agent.get("/auth/csrf")).body.csrfToken).not.toBe(csrfBefore)
  })

  it("the built-in sign-in page's email form, filled in as a user would, sends the link", async () => {
    const site = await startSite()
    const agent = site.agent()
    const page = await agent.get("/auth/signin?callbackUrl=%2Fdashboard").expect(200)
    const elements = elementsOf(page.text)
    const form = elements.find((e) => e.tagName === "form" && e.attrs.action === `${site.url}/auth/signin/nodemailer`)
    expect(form?.attrs.method).toBe("post")
    const inputs = elements.filter((e) => e.tagName === "input" && e.attrs.name)
    const fields: Record<string, string> = {}
    for (const input of inputs) if (input.attrs.type === "hidden") fields[input.attrs.name!] = input.attrs.value ?? ""
    expect(inputs.find((e) => e.attrs.name === "email")?.attrs.type).toBe("email")
    expect(Object.keys(fields).sort()).toEqual(["callbackUrl", "csrfToken"])
    fields.email = ALICE
    const response = await agent.post(new URL(form!.attrs.action!).pathname).type("form").send(fields)
    expect(location(response).pathname).toBe("/auth/verify-request")
    const [mail] = await site.smtp.waitFor(1)
    const followed = await follow(agent, linkIn(mail!))
    expect(location(followed).href).toBe(`${site.url}/dashboard`)
  })

  it("a second sign-in reuses the stored user and its account", async () => {
    const site = await startSite()
    await signInByEmail(site, site.agent(), ALICE)
    const [first] = [...site.memory.store.users.values()]
    const other = site.agent()
    const response = await signInByEmail(site, other, ALICE)
    expect(sessionCookie(response)).toBeDefined()
    expect(site.memory.store.users.size).toBe(1)
    expect(site.memory.store.accounts.size).toBe(1)
    const [again] = [...site.memory.store.users.values()]
    expect(again!.id).toBe(first!.id)
    expect(site.memory.store.sessions.get(sessionCookie(response)!)?.userId).toBe(first!.id)
    expect((await sessionOf(other))?.user?.email).toBe(ALICE)
  })

  it("with session.strategy cookie, the user lives in the database and the session in a sealed cookie", async () => {
    const site = await startSite({ config: { session: { strategy: "cookie" } } })
    const agent = site.agent()
    const response = await signInByEmail(site, agent, ALICE)
    const cookie = sessionCookie(response)!
    expect(cookie.split(".")).toHaveLength(5)
    expect(site.memory.store.sessions.size).toBe(0)
    const [user] = [...site.memory.store.users.values()]
    const token = await decode({ token: cookie, secret: SECRET, salt: SESSION_COOKIE })
    expect(token).toEqual(expect.objectContaining({ sub: user!.id, email: ALICE }))
    expect((await sessionOf(agent))?.user?.email).toBe(ALICE)
  })

  it("GET /auth/providers lists the email provider", async () => {
    const site = await startSite()
    const response = await site.agent().get("/auth/providers").expect(200)
    expect(response.body).toEqual([
      { id: "nodemailer", name: "Email", type: "email", signinUrl: `${site.url}/auth/signin/nodemailer`, callbackUrl: `${site.url}/auth/callback/nodemailer` },
    ])
  })

  it("the provider from gatehouse/providers/email works under the id email", async () => {
    const site = await startSite({ providers: (smtp) => [Email({ server: smtp.url })] })
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE, { provider: "email" })
    expect(link.pathname).toBe("/auth/callback/email")
    expect(sessionCookie(await follow(agent, link))).toBeDefined()
    expect([...site.memory.store.accounts.values()][0]?.provider).toBe("email")
  })
})

describe("the mail", () => {
  it("goes to the one address, with an HTML and a text part holding the link, the site and the expiry", async () => {
    const now = Date.now()
    jest.spyOn(Date, "now").mockReturnValue(now)
    const site = await startSite()
    const { mail, link } = await mailFor(site, site.agent(), ALICE)
    const host = new URL(site.url).host
    const expires = new Date(now + 86_400_000).toUTCString()
    expect(mail.envelope.to).toEqual([ALICE])
    expect(mail.mail.to).toEqual([{ address: ALICE, name: "" }])
    expect(mail.mail.cc ?? []).toEqual([])
    expect(mail.mail.bcc ?? []).toEqual([])
    expect(mail.mail.subject).toBe(`Sign in to ${host}`)
    const text = mail.mail.text!
    expect(text).toContain(link.href)
    expect(text).toContain(host)
    expect(text).toContain(ALICE)
    expect(text).toContain(expires)
    const html = mail.mail.html!
    expect(hrefsIn(html)).toEqual([link.href])
    expect(html).toContain(host)
    expect(html).toContain(expires)
  })

  it("comes from no-reply@<site host> by default", async () => {
    const site = await startSite()
    const { mail } = await mailFor(site, site.agent(), ALICE)
    const from = `no-reply@${new URL(site.url).hostname}`
    expect(mail.mail.from?.address).toBe(from)
    expect(mail.envelope.from).toBe(from)
  })

  it("uses the default brand colour, or the theme's brandColor and buttonText", async () => {
    const plain = await startSite()
    const { mail: before } = await mailFor(plain, plain.agent(), ALICE)
    expect(before.mail.html).toContain("background:#2563eb")
    const themed = await startSite({ config: { theme: { brandColor: "#ff5500", buttonText: "#102030" } } })
    const { mail } = await mailFor(themed, themed.agent(), ALICE)
    expect(mail.mail.html).toContain("background:#ff5500")
    expect(mail.mail.html).toContain("color:#102030")
    expect(mail.mail.html).not.toContain("#2563eb")
  })
})

describe("verify-request", () => {
  it("asking for a link goes to /auth/verify-request?provider=<id>&type=email, a check-your-email page", async () => {
    const site = await startSite()
    const agent = site.agent()
    const response = await askForLink(agent, ALICE)
    const url = location(response)
    expect(url.origin).toBe(site.url)
    expect(url.pathname).toBe("/auth/verify-request")
    expect(Object.fromEntries(url.searchParams)).toEqual({ provider: "nodemailer", type: "email" })
    const page = await agent.get(`${url.pathname}${url.search}`).expect(200)
    expect(page.text).toContain("Check your email")
  })

  it("pages.verifyRequest replaces the page", async () => {
    const site = await startSite({ config: { pages: { verifyRequest: "/check-your-inbox" } } })
    const url = location(await askForLink(site.agent(), ALICE))
    expect(url.origin).toBe(site.url)
    expect(url.pathname).toBe("/check-your-inbox")
    expect(Object.fromEntries(url.searchParams)).toEqual({ provider: "nodemailer", type: "email" })
    await site.smtp.waitFor(1)
  })
})

describe("a link works once and until it expires", () => {
  it("a replayed link is refused, in the same browser and in another", async () => {
    const site = await startSite()
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE)
    expect(sessionCookie(await follow(agent, link))).toBeDefined()
    expect(site.memory.store.tokens.size).toBe(0)
    const again = await follow(agent, link)
    const errorPage = expectError(again, "error", "Verification")
    const page = await agent.get(`${errorPage.pathname}${errorPage.search}`)
    expect(page.status).toBe(403)
    expect(page.text).toContain("This link no longer works")
    expect(page.text).not.toContain(link.searchParams.get("token")!)
    expect(sessionCookie(again)).toBeUndefined()
    const stranger = site.agent()
    const replay = await follow(stranger, link)
    expectError(replay, "error", "Verification")
    expect(sessionCookie(replay)).toBeUndefined()
    expect(await sessionOf(stranger)).toBeNull()
    expect(site.memory.store.sessions.size).toBe(1)
  })

  it("an expired link is refused, signs no one in, creates no user, and its row is gone", async () => {
    const now = Date.now()
    const clock = jest.spyOn(Date, "now").mockReturnValue(now)
    const site = await startSite({ provider: { maxAge: 60 } })
    const agent = site.agent()
    const { link } = await mailFor(site, agent, "new@example.com")
    expect(site.memory.store.tokens.size).toBe(1)
    clock.mockReturnValue(now + 60_000)
    const response = await follow(agent, link)
    expectError(response, "error", "Verification")
    expect(sessionCookie(response)).toBeUndefined()
    expect(site.memory.store.users.size).toBe(0)
    expect(site.memory.store.sessions.size).toBe(0)
    expect(site.memory.store.tokens.size).toBe(0)
    expect(await sessionOf(agent)).toBeNull()
  })

  it("a link followed just before its expiry still works", async () => {
    const now = Date.now()
    const clock = jest.spyOn(Date, "now").mockReturnValue(now)
    const site = await startSite({ provider: { maxAge: 60 } })
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE)
    clock.mockReturnValue(now + 59_000)
    expect(sessionCookie(await follow(agent, link))).toBeDefined()
    expect((await sessionOf(agent))?.user?.email).toBe(ALICE)
  })

  it("an incomplete link is refused", async () => {
    const site = await startSite()
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE)
    const noToken = new URL(link)
    noToken.searchParams.delete("token")
    expectError(await follow(agent, noToken), "error", "Verification")
    const noEmail = new URL(link)
    noEmail.searchParams.delete("email")
    expectError(await follow(agent, noEmail), "error", "Verification")
    // Neither attempt used the link up.
    expect(sessionCookie(await follow(agent, link))).toBeDefined()
  })

  it("clients asking for JSON: the link request answers {url} with X-Auth-Return-Redirect, a bad link 400 Verification", async () => {
    const site = await startSite()
    const agent = site.agent()
    const token = (await agent.get("/auth/csrf")).body.csrfToken as string
    const asked = await agent.post("/auth/signin/nodemailer").set("X-Auth-Return-Redirect", "1").type("form").send({ csrfToken: token, email: ALICE })
    expect(asked.status).toBe(200)
    expect(asked.body).toEqual({ url: `${site.url}/auth/verify-request?provider=nodemailer&type=email` })
    const [mail] = await site.smtp.waitFor(1)
    const link = linkIn(mail!)
    link.searchParams.set("email", "bob@example.com")
    const refused = await follow(agent, link, { Accept: "application/json" })
    expect(refused.status).toBe(400)
    expect(refused.body.error.type).toBe("Verification")
  })

  // Issue #19 changed this test: the callback now takes a POST (the confirm page's button), which
  // must carry the CSRF token; one without it (the link's query as the only data) is refused.
  it("a POST to the link without the confirm page's CSRF token is refused and does not use it up", async () => {
    const site = await startSite()
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE)
    const posted = await agent.post(`${link.pathname}${link.search}`).type("form").send({ token: link.searchParams.get("token")!, email: ALICE })
    expectError(posted, "signin", "MissingCSRF")
    expect(sessionCookie(posted)).toBeUndefined()
    expect(site.memory.store.tokens.size).toBe(1)
    expect(sessionCookie(await follow(agent, link))).toBeDefined()
  })
})
