/**
 * Security catalog §8 and the email parts of other entries: EMAIL-01 (hashed at rest), EMAIL-03
 * (token bound to its address, memory adapter; engines.test.ts runs it on every engine), EMAIL-07,
 * EMAIL-08 (enumeration half), EMAIL-09, EMAIL-10, CSRF-01 target 2, CSRF-04 (email), SESS-08
 * (the raw link token as a session cookie), FIX-01 b (fixation through a magic-link sign-in).
 */
import { randomBytes } from "node:crypto"
import { describe, expect, it, jest } from "@jest/globals"
import type { AdapterUser } from "../../lib/adapters.js"
import type { SessionCallbackParams } from "../../lib/callbacks.js"
import { decode } from "../../lib/jwt/index.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import {
  ALICE, SECRET, SESSION_COOKIE, askForLink, cookieHeader, csrfToken, expectError, follow, openLink, location, mailFor, plant,
  recordingSender, sessionCookie, sessionOf, setCookies, signInByEmail, startSite, type Agent, type Site,
} from "./support.js"

const MALLORY = "mallory@evil.example"

async function expectSignedOut(agent: Agent): Promise<void> {
  expect(await sessionOf(agent)).toBeNull()
  await agent.get("/api/me").expect(401)
}

describe("EMAIL-01 the token is stored hashed", () => {
  it("no stored field holds the raw token, and the stored value is not a usable link", async () => {
    const site = await startSite()
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE)
    const raw = link.searchParams.get("token")!
    const rows = [...site.memory.store.tokens.values()]
    expect(rows).toHaveLength(1)
    const dump = JSON.stringify(rows)
    expect(dump).not.toContain(raw)
    expect(rows[0]!.token).not.toBe(raw)
    const forged = new URL(link)
    forged.searchParams.set("token", rows[0]!.token)
    expectError(await follow(site.agent(), forged), "error", "Verification")
    expect(site.memory.store.tokens.size).toBe(1)
    expect(sessionCookie(await follow(agent, link))).toBeDefined()
  })
})

describe("EMAIL-03 a token is bound to its address (memory adapter)", () => {
  it("mallory's token with alice's address (and every other mix) is refused, and alice's link still works", async () => {
    const site = await startSite()
    const mallory = site.agent()
    const { link: mLink } = await mailFor(site, mallory, MALLORY)
    const alice = site.agent()
    const { link: aLink } = await mailFor(site, alice, ALICE)
    const tM = mLink.searchParams.get("token")!
    const tA = aLink.searchParams.get("token")!
    const attempts = [
      `token=${tM}&email=${encodeURIComponent(ALICE)}`,
      `token=${tA}&email=${encodeURIComponent(MALLORY)}`,
      `token=${tM}`,
      `email=${encodeURIComponent(ALICE)}`,
      `token=${tM}&email=${encodeURIComponent(MALLORY)}&email=${encodeURIComponent(ALICE)}`,
      `token=${tM}&email=${encodeURIComponent(ALICE)}&email=${encodeURIComponent(MALLORY)}`,
      `token=${tM}&token=${tA}&email=${encodeURIComponent(ALICE)}`,
      `token=&email=${encodeURIComponent(ALICE)}`,
    ]
    for (const query of attempts) {
      const response = await follow(mallory, `${site.url}/auth/callback/nodemailer?${query}`)
      expectError(response, "error", "Verification")
      expect(sessionCookie(response)).toBeUndefined()
    }
    await expectSignedOut(mallory)
    expect(site.memory.store.users.size).toBe(0)
    expect(site.memory.store.tokens.size).toBe(2)
    const upper = new URL(aLink)
    upper.searchParams.set("email", "ALICE@Example.com")
    expect(sessionCookie(await follow(alice, upper))).toBeDefined()
    expect((await sessionOf(alice))?.user?.email).toBe(ALICE)
  })
})

describe("EMAIL-07 nothing injected into the mail", () => {
  it("a quoted local part carrying HTML is refused", async () => {
    const site = await startSite()
    expectError(await askForLink(site.agent(), '"<a href=https://evil.example>Claim</a>"@example.com'), "signin", "EmailSignin")
    expect(site.smtp.messages).toHaveLength(0)
  })

  it("HTML in callbackUrl stays inside the one link: escaped in the HTML part, encoded in the text part", async () => {
    const site = await startSite()
    const { mail } = await mailFor(site, site.agent(), ALICE, { callbackUrl: '/x"><a href=https://evil.example>Claim</a>' })
    const html = mail.mail.html!
    expect(html).not.toContain("<a href=https://evil.example")
    expect(html.match(/<a\b/g)).toHaveLength(1)
    expect(html.match(/href="/g)).toHaveLength(1)
    expect(html).not.toContain('"><a')
    const text = mail.mail.text!
    expect(text.match(/https?:\/\/\S+/g)).toEqual([expect.stringMatching(new RegExp(`^${site.url}/auth/callback/nodemailer\\?`))])
    expect(mail.mail.headers.map((header) => header.key).sort()).toEqual(["content-type", "date", "from", "message-id", "mime-version", "subject", "to"])
    expect(mail.mail.subject).toBe(`Sign in to ${new URL(site.url).host}`)
  })
})

describe("EMAIL-08 no enumeration through the answer", () => {
  it("an address with an account and one without get the same status, Location and cookies, and both a mail", async () => {
    const site = await startSite()
    await site.memory.createUser({ id: "u-alice", email: ALICE, emailVerified: new Date() } as AdapterUser)
    const known = await askForLink(site.agent(), ALICE)
    const unknown = await askForLink(site.agent(), "nobody@example.com")
    expect(location(known).pathname).toBe("/auth/verify-request")
    expect(unknown.status).toBe(known.status)
    expect(unknown.headers.location).toBe(known.headers.location)
    expect(setCookies(unknown).map((c) => c.name)).toEqual(setCookies(known).map((c) => c.name))
    expect(unknown.text).toBe(known.text)
    expect(site.smtp.messages.map((m) => m.envelope.to)).toEqual([[ALICE], ["nobody@example.com"]])
  })
})

describe("EMAIL-09 token quality and secrecy", () => {
  it("200 links: 32 random bytes each, all distinct; never in a warning, an error, the answer or the page", async () => {
    const { calls, send } = recordingSender()
    const logger = { error: jest.fn<(e: Error) => void>(), warn: jest.fn<(code: string) => void>(), debug: jest.fn() }
    const site = await startSite({ providers: () => [Nodemailer({ sendVerificationRequest: send })], config: { logger, logLevel: "verbose" } })
    const agent = site.agent()
    const answers: string[] = []
    for (let i = 0; i < 200; i++) {
      const response = await askForLink(agent, `user${i % 7}@example.com`)
      answers.push(JSON.stringify(response.headers) + response.text)
    }
    const verify = location(await askForLink(agent, ALICE))
    const page = await agent.get(`${verify.pathname}${verify.search}`).expect(200)
    const tokens = calls.map((call) => call.token)
    expect(tokens).toHaveLength(201)
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{64}$/)
    expect(new Set(tokens).size).toBe(201)
    // Failures are logged too: a replay and a link with another address.
    const [first, second] = calls
    expect((await follow(agent, first!.url)).status).toBe(302)
    expectError(await follow(agent, first!.url), "error", "Verification")
    const swapped = new URL(second!.url)
    swapped.searchParams.set("email", MALLORY)
    expectError(await follow(agent, swapped), "error", "Verification")
    // Everyday refusals (issue #26): at debug level, not as errors; the two are there all the same.
    expect(logger.error).not.toHaveBeenCalled()
    const refusals = logger.debug.mock.calls.filter(([message]) => String(message).startsWith("Verification: "))
    expect(refusals).toHaveLength(2)
    const logged = [JSON.stringify(logger.debug.mock.calls), JSON.stringify(logger.warn.mock.calls)].join("\n")
    for (const text of [logged, ...answers, page.text]) {
      expect(text).not.toContain("/auth/callback/nodemailer?")
      expect(tokens.filter((token) => text.includes(token))).toEqual([])
    }
  }, 30_000)
})

describe("EMAIL-10 link scanners do not burn the link", () => {
  // Issue #19: a GET now shows the confirm page (200) whatever it carries; only its POST signs in.
  it("HEAD and prefetch requests change nothing; the user's GET then signs in", async () => {
    const site = await startSite()
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE)
    const path = `${link.pathname}${link.search}`
    const scanner = site.agent()
    const head = await scanner.head(path).redirects(0)
    expect(head.status).toBe(405)
    const prefetches: Array<Record<string, string>> = [{ "Sec-Purpose": "prefetch" }, { "Sec-Purpose": "prefetch;prerender" }, { Purpose: "prefetch" }]
    for (const headers of prefetches) {
      const response = await openLink(scanner, link, headers)
      expect(response.status).toBe(200)
      expect(sessionCookie(response)).toBeUndefined()
    }
    expect(setCookies(head)).toEqual([])
    expect(site.memory.store.tokens.size).toBe(1)
    expect(site.memory.store.users.size).toBe(0)
    expect(site.memory.store.sessions.size).toBe(0)
    await expectSignedOut(scanner)
    expect(sessionCookie(await follow(agent, link))).toBeDefined()
    expect((await sessionOf(agent))?.user?.email).toBe(ALICE)
  })
})

describe("CSRF-01 (target 2) and CSRF-04: asking for a link needs the CSRF token and a POST", () => {
  async function refusedOn(site: Site, response: { status: number; headers: Record<string, unknown> }) {
    expectError(response, "signin", "MissingCSRF")
    expect(site.smtp.messages).toHaveLength(0)
    expect(site.memory.store.tokens.size).toBe(0)
  }

  it("no field with a valid cookie, no cookie at all, a wrong token, or a cross-site form: MissingCSRF, no mail, no token", async () => {
    const signIn = jest.fn(() => true)
    const site = await startSite({ config: { callbacks: { signIn } } })
    const withCookie = site.agent()
    const token = await csrfToken(withCookie)
    await refusedOn(site, await withCookie.post("/auth/signin/nodemailer").type("form").send({ email: ALICE }))
    await refusedOn(site, await site.agent().post("/auth/signin/nodemailer").type("form").send({ email: ALICE }))
    await refusedOn(site, await withCookie.post("/auth/signin/nodemailer").type("form").send({ email: ALICE, csrfToken: randomBytes(32).toString("hex") }))
    const crossSite = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate" }
    await refusedOn(site, await withCookie.post("/auth/signin/nodemailer").set(crossSite).type("form").send({ email: ALICE }))
    await refusedOn(site, await withCookie.post("/auth/signin/nodemailer").set(crossSite).type("form").send({ email: ALICE, csrfToken: token }))
    const json = await withCookie.post("/auth/signin/nodemailer").set("Accept", "application/json").type("form").send({ email: ALICE })
    expect(json.status).toBe(403)
    expect(json.body.error.type).toBe("MissingCSRF")
    expect(signIn).not.toHaveBeenCalled()
    // The same agent with its token gets a link: the refusals were about CSRF only.
    await mailFor(site, withCookie, ALICE)
  })

  it("GET, HEAD and OPTIONS on the sign-in action send nothing", async () => {
    const site = await startSite()
    const agent = site.agent()
    const token = await csrfToken(agent)
    const page = await agent.get(`/auth/signin/nodemailer?email=${encodeURIComponent(ALICE)}&csrfToken=${token}`).redirects(0)
    expect(page.status).toBe(200)
    expect(page.headers["content-type"]).toMatch(/^text\/html/)
    expect((await agent.head(`/auth/signin/nodemailer?email=${encodeURIComponent(ALICE)}`)).status).toBe(200)
    expect((await agent.options("/auth/signin/nodemailer")).status).toBe(405)
    expect(site.smtp.messages).toHaveLength(0)
    expect(site.memory.store.tokens.size).toBe(0)
  })
})

describe("SESS-08 the raw link token is not a session", () => {
  it.each(["database", "cookie"] as const)("presented as the session cookie (%s strategy), it signs no one in", async (strategy) => {
    const session = jest.fn(({ session }: SessionCallbackParams) => session)
    const site = await startSite({ config: { session: { strategy }, callbacks: { session } } })
    const { link } = await mailFor(site, site.agent(), ALICE)
    const raw = link.searchParams.get("token")!
    const hashed = [...site.memory.store.tokens.values()][0]!.token
    for (const value of [raw, hashed]) {
      const attacker = site.agent()
      plant(attacker, SESSION_COOKIE, value)
      await expectSignedOut(attacker)
      const page = await attacker.get("/dashboard").set("Accept", "text/html").redirects(0)
      expect(page.status).toBe(302)
    }
    // Also sent by hand, before and after the link is used.
    const before = await site.agent().get("/auth/session").set("Cookie", cookieHeader({ [SESSION_COOKIE]: raw }))
    expect(before.body).toBeNull()
    expect((await follow(site.agent(), link)).status).toBe(302)
    const after = await site.agent().get("/api/me").set("Cookie", cookieHeader({ [SESSION_COOKIE]: raw }))
    expect(after.status).toBe(401)
    expect(session).not.toHaveBeenCalled()
  })
})

describe("FIX-01 b: a magic-link sign-in never adopts a planted session", () => {
  it("database strategy: a planted unknown token or mallory's session is replaced, mallory's session stays hers", async () => {
    const site = await startSite()
    const mallory = site.agent()
    const mResponse = await signInByEmail(site, mallory, MALLORY)
    const mToken = sessionCookie(mResponse)!
    const malloryId = site.memory.store.sessions.get(mToken)!.userId
    for (const planted of [mToken, "0".repeat(64)]) {
      const victim = site.agent()
      plant(victim, SESSION_COOKIE, planted)
      const response = await signInByEmail(site, victim, ALICE)
      const fresh = sessionCookie(response)!
      expect(fresh).not.toBe(planted)
      expect((await sessionOf(victim))?.user?.email).toBe(ALICE)
    }
    expect(site.memory.store.sessions.has("0".repeat(64))).toBe(false)
    expect(site.memory.store.sessions.get(mToken)?.userId).toBe(malloryId)
    expect((await sessionOf(mallory))?.user?.email).toBe(MALLORY)
    for (const account of site.memory.store.accounts.values()) {
      expect(site.memory.store.users.get(account.userId)?.email).toBe(account.providerAccountId)
    }
  })

  it("database strategy: signing in again replaces the previous session token and ends it", async () => {
    const site = await startSite()
    const agent = site.agent()
    const t1 = sessionCookie(await signInByEmail(site, agent, ALICE))!
    const t2 = sessionCookie(await signInByEmail(site, agent, ALICE))!
    expect(t2).not.toBe(t1)
    expect(site.memory.store.sessions.has(t1)).toBe(false)
    const old = await site.agent().get("/auth/session").set("Cookie", cookieHeader({ [SESSION_COOKIE]: t1 }))
    expect(old.body).toBeNull()
  })

  it("cookie strategy: each sign-in seals a new jti, and a planted session of mallory's is replaced by alice's", async () => {
    const site = await startSite({ config: { session: { strategy: "cookie" } } })
    const mallory = site.agent()
    const mCookie = sessionCookie(await signInByEmail(site, mallory, MALLORY))!
    const victim = site.agent()
    plant(victim, SESSION_COOKIE, mCookie)
    const first = await decode({ token: sessionCookie(await signInByEmail(site, victim, ALICE)), secret: SECRET, salt: SESSION_COOKIE })
    const second = await decode({ token: sessionCookie(await signInByEmail(site, victim, ALICE)), secret: SECRET, salt: SESSION_COOKIE })
    const planted = await decode({ token: mCookie, secret: SECRET, salt: SESSION_COOKIE })
    expect(first?.email).toBe(ALICE)
    // Since issue #14 a cookie session is identified by its `sid` (no `jti` beside it).
    const id = (token: typeof first) => token?.sid ?? token?.jti
    expect(new Set([id(planted), id(first), id(second)]).size).toBe(3)
    expect(id(first)).toEqual(expect.any(String))
    expect((await sessionOf(victim))?.user?.email).toBe(ALICE)
  })
})
