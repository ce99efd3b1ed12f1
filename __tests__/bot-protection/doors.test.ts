/**
 * Bot protection at each door (issue #33), with ALTCHA on the memory and SQLite adapters: the
 * email sign-in request, forgot-password, and a credentials or password sign-in after repeated
 * failures (for the identifier, and for the client's address). Without an answer the door
 * refuses (`BotChallengeFailed`, a `bot.refused` audit record), and nothing is mailed or created;
 * with a solved one it opens. Also the other forms that ask for an email sign-in (the passkey's
 * "create via email", the verify-request page's "send again") carry the widget, and the account
 * page has none to carry.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import type { TransactionalAdapter } from "../../lib/core/adapter.js"
import Credentials from "../../lib/providers/credentials.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Passkey from "../../lib/providers/passkey.js"
import Password from "../../lib/providers/password.js"
import type { AuthConfig } from "../../lib/types.js"
import { engine, type EngineName } from "../integration/organizations/support.js"
import { csrfToken, linkIn, sessionCookie, startSite, type Agent, type Site } from "../email/support.js"
import { ALTCHA, fetchChallenge, solvedToken, widgetPayload } from "./altcha-support.js"

const FROM = "auth@example.test"
const RIGHT = "the right passphrase"
const WRONG = "not the passphrase at all"
/** Each password attempt runs scrypt at its real cost: a dozen of them on a busy machine take a while. */
const SCRYPT_TIMEOUT = 90_000
type BotOptions = AuthConfig["botProtection"]
type Audit = Record<string, unknown>

let counter = 0
const label = (name: string) => `${name}-${++counter}`
const address = (name: string) => `${label(name)}@example.test`

/** Anyone whose password is RIGHT: a user made from the username (the identifier bot protection counts). */
function anyone() {
  return Credentials({
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    async authorize(fields) {
      const username = String(fields.username)
      return fields.password === RIGHT ? { id: `id-${username}`, email: `${username}@example.test`, name: username } : null
    },
  })
}

interface DoorSite extends Site {
  audits: Audit[]
}

/**
 * The Password provider, the magic link (both mailing to the sink) and Credentials, on `adapter`.
 * Forwarded addresses are trusted, so a test can speak from several clients.
 */
async function doorSite(adapter: TransactionalAdapter, botProtection: BotOptions): Promise<DoorSite> {
  const audits: Audit[] = []
  const site = await startSite({
    adapter,
    trustProxy: true,
    providers: (smtp) => [Password({ email: Nodemailer({ server: smtp.url, from: FROM }) }), Nodemailer({ server: smtp.url, from: FROM }), anyone()],
    config: {
      rateLimit: false,
      botProtection,
      events: {
        audit: (record) => {
          audits.push({ ...(record as unknown as Audit) })
        },
      },
    },
  })
  return Object.assign(site, { audits })
}

const refusals = (site: DoorSite) => site.audits.filter((record) => record.type === "bot.refused")

/** Mail sent to `email` so far. */
const mailsTo = (site: Site, email: string) => site.smtp.messages.filter((mail) => mail.envelope.to.includes(email))

/** Waits for one more mail than `before`, and says it went to `email`. */
async function expectMail(site: Site, before: number, email: string) {
  const mails = await site.smtp.waitFor(before + 1)
  const mail = mails[before]!
  expect(mail.envelope.to).toContain(email)
  return mail
}

/** POST /auth/signin/nodemailer as the sign-in page's email form does, with `extra` (the widget's field). */
async function askForLink(agent: Agent, email: string, extra: Record<string, string> = {}) {
  // The token first: the agent attaches its cookies when the request is made.
  const token = await csrfToken(agent)
  return agent.post("/auth/signin/nodemailer").type("form").redirects(0).send({ csrfToken: token, email, ...extra })
}

/** POST /auth/forgot-password as its page's form does. */
async function forgot(agent: Agent, email: string, extra: Record<string, string> = {}) {
  const token = await csrfToken(agent)
  return agent.post("/auth/forgot-password").type("form").redirects(0).send({ csrfToken: token, email, ...extra })
}

/** A confirmed password account (signed up with a solved challenge, the mailed link followed). */
async function passwordAccount(site: Site, email: string): Promise<void> {
  const agent = site.agent()
  const before = site.smtp.messages.length
  const body = { csrfToken: await csrfToken(agent), email, password: RIGHT, altcha: await solvedToken(agent) }
  const signup = await agent.post("/auth/signup").type("form").redirects(0).send(body)
  expect(signup.status).toBe(200)
  const link = linkIn(await expectMail(site, before, email))
  const page = await agent.get(`${link.pathname}${link.search}`).expect(200)
  const hidden = Object.fromEntries([...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1], match[2]]))
  expect((await agent.post(link.pathname).type("form").redirects(0).send(hidden)).status).toBe(302)
}

/**
 * One sign-in attempt from the client at `ip`, as the page's form posts it (a fresh browser):
 * the error it is refused with, or "signed in".
 */
async function attempt(site: Site, door: "credentials" | "password", identifier: string, password: string, ip: string, answer = false): Promise<string> {
  const agent = site.agent()
  const body: Record<string, string> = { csrfToken: await csrfToken(agent), [door === "credentials" ? "username" : "email"]: identifier, password }
  if (answer) body.altcha = await solvedToken(agent)
  const response = await agent.post(`/auth/callback/${door}`).set("X-Forwarded-For", ip).type("form").redirects(0).send(body)
  expect(response.status).toBe(302)
  const error = new URL(String(response.headers.location), site.url).searchParams.get("error")
  if (error) return error
  expect(sessionCookie(response)).toBeDefined()
  return "signed in"
}

describe.each(["memory", "sqlite"] as EngineName[])("on %s", (name) => {
  const store = engine(name, "bots")
  beforeAll(() => store.open())
  afterAll(() => store.close())
  const site = (botProtection: BotOptions = { altcha: ALTCHA, actions: { signIn: { afterFailures: 3 } } }) => doorSite(store.adapter() as TransactionalAdapter, botProtection)

  describe("the email sign-in request", () => {
    it("without an answer: back to the sign-in page with BotChallengeFailed, audited, no mail; solved: the mail goes", async () => {
      const s = await site()
      const agent = s.agent()
      const refused = address("refused")
      const response = await askForLink(agent, refused)
      expect(response.status).toBe(302)
      const to = new URL(String(response.headers.location), s.url)
      expect(to.pathname).toBe("/auth/signin")
      expect(to.searchParams.get("error")).toBe("BotChallengeFailed")
      expect(refusals(s)).toEqual([expect.objectContaining({ action: "emailSignIn", outcome: "failure" })])

      const accepted = address("accepted")
      const before = s.smtp.messages.length
      const sent = await askForLink(agent, accepted, { altcha: await solvedToken(agent) })
      expect(new URL(String(sent.headers.location), s.url).pathname).toBe("/auth/verify-request")
      await expectMail(s, before, accepted)
      // The refused one sent nothing (the later mail is there, so an earlier one would be too).
      expect(mailsTo(s, refused)).toHaveLength(0)
      expect(await s.adapter!.getUserByEmail!(refused)).toBeNull()
      expect(refusals(s)).toHaveLength(1)
    })

    it("a JSON client sends the answer in X-Bot-Token", async () => {
      const s = await site()
      const agent = s.agent()
      const token = await csrfToken(agent)
      const post = (email: string) => agent.post("/auth/signin/nodemailer").set("Accept", "application/json").send({ csrfToken: token, email })
      const refused = address("json-refused")
      const no = await post(refused)
      expect(no.status).toBe(400)
      expect(no.body).toMatchObject({ error: { type: "BotChallengeFailed" } })
      const accepted = address("json")
      const before = s.smtp.messages.length
      const yes = await post(accepted).set("X-Bot-Token", await solvedToken(agent))
      expect(new URL(String(yes.headers.location), s.url).pathname).toBe("/auth/verify-request")
      await expectMail(s, before, accepted)
      expect(mailsTo(s, refused)).toHaveLength(0)
      expect(refusals(s)).toEqual([expect.objectContaining({ action: "emailSignIn" })])
    })

    it("with the door off, no answer is asked", async () => {
      const s = await site({ altcha: ALTCHA, actions: { emailSignIn: false } })
      const agent = s.agent()
      const email = address("door-off")
      const before = s.smtp.messages.length
      const sent = await askForLink(agent, email)
      expect(new URL(String(sent.headers.location), s.url).pathname).toBe("/auth/verify-request")
      await expectMail(s, before, email)
      expect(refusals(s)).toHaveLength(0)
    })
  })

  describe("forgot-password", () => {
    it("without an answer: the page again (400) with the refusal, audited, no mail; solved: the reset mail goes", async () => {
      const s = await site()
      const email = address("forgot")
      await passwordAccount(s, email)
      const agent = s.agent()
      const before = s.smtp.messages.length
      const refused = await forgot(agent, email)
      expect(refused.status).toBe(400)
      expect(refused.text).toContain("Please confirm you are not a robot, then try again.")
      expect(refused.text).toContain("<altcha-widget")
      expect(refusals(s)).toEqual([expect.objectContaining({ action: "forgotPassword" })])

      const sent = await forgot(agent, email, { altcha: await solvedToken(agent) })
      expect(sent.status).toBe(200)
      const mail = await expectMail(s, before, email)
      expect(linkIn(mail).pathname).toBe("/auth/reset-password")
      // Only the solved request's mail: the refused one sent none.
      expect(mailsTo(s, email)).toHaveLength(2)
    })
  })

  describe.each(["credentials", "password"] as const)("sign-in with %s", (door) => {
    /** A new identifier that can sign in with RIGHT. */
    const someone = async (s: Site, name: string) => {
      if (door === "credentials") return label(name)
      const email = address(name)
      await passwordAccount(s, email)
      return email
    }

    it("after 3 failures the identifier and the address are asked; a solved answer signs in, and the identifier's failures are forgotten", async () => {
      const s = await site()
      const alice = await someone(s, "alice")
      const bob = await someone(s, "bob")
      for (let i = 0; i < 3; i++) expect(await attempt(s, door, alice, WRONG, "203.0.113.1")).toBe("CredentialsSignin")
      expect(refusals(s)).toHaveLength(0)
      // The identifier is asked, even with the right password, from this address and another.
      expect(await attempt(s, door, alice, RIGHT, "203.0.113.1")).toBe("BotChallengeFailed")
      expect(await attempt(s, door, alice, RIGHT, "203.0.113.2")).toBe("BotChallengeFailed")
      // The address is marked: someone else from it is asked too.
      expect(await attempt(s, door, bob, RIGHT, "203.0.113.1")).toBe("BotChallengeFailed")
      expect(refusals(s)).toEqual([0, 1, 2].map(() => expect.objectContaining({ type: "bot.refused", action: "signIn" })))
      if (door === "credentials") expect(await s.adapter!.getUserByEmail!(`${bob}@example.test`)).toBeNull()

      // A wrong password with an answer is still wrong; the right one with an answer signs in.
      expect(await attempt(s, door, alice, WRONG, "203.0.113.2", true)).toBe("CredentialsSignin")
      expect(await attempt(s, door, alice, RIGHT, "203.0.113.2", true)).toBe("signed in")
      // Her failures are forgotten: from an unmarked address she is not asked.
      expect(await attempt(s, door, alice, RIGHT, "203.0.113.3")).toBe("signed in")
      // Bob was never asked for himself: from an unmarked address he signs in.
      expect(await attempt(s, door, bob, RIGHT, "203.0.113.4")).toBe("signed in")
    }, SCRYPT_TIMEOUT)

    it("with signIn: false nothing is ever asked", async () => {
      const s = await site({ altcha: ALTCHA, actions: { signIn: false } })
      const alice = await someone(s, "alice")
      for (let i = 0; i < 4; i++) expect(await attempt(s, door, alice, WRONG, "203.0.113.5")).toBe("CredentialsSignin")
      expect(await attempt(s, door, alice, RIGHT, "203.0.113.5")).toBe("signed in")
      expect(refusals(s)).toHaveLength(0)
    }, SCRYPT_TIMEOUT)

    it("with afterFailures: 0 every sign-in is asked", async () => {
      const s = await site({ altcha: ALTCHA, actions: { signIn: { afterFailures: 0 } } })
      const alice = await someone(s, "alice")
      expect(await attempt(s, door, alice, RIGHT, "203.0.113.6")).toBe("BotChallengeFailed")
      expect(refusals(s)).toEqual([expect.objectContaining({ action: "signIn" })])
      expect(await attempt(s, door, alice, RIGHT, "203.0.113.6", true)).toBe("signed in")
      // A success does not stop the asking.
      expect(await attempt(s, door, alice, RIGHT, "203.0.113.7")).toBe("BotChallengeFailed")
    }, SCRYPT_TIMEOUT)
  })
})

describe("the other forms that ask for an email sign-in", () => {
  const csp = (response: { headers: Record<string, unknown> }) => String(response.headers["content-security-policy"])
  const count = (html: string, text: string) => html.split(text).length - 1
  const WIDGET = /altcha|bot-widget|<noscript>/

  // The page's second step for an address: the passkey is created for it, by email first.
  const SECOND_STEP = `/auth/signin?login_hint=${encodeURIComponent("carol@example.test")}`

  /** The magic link and passkeys, with `botProtection`. */
  const passkeySite = (botProtection: BotOptions) =>
    startSite({ providers: (smtp) => [Nodemailer({ server: smtp.url, from: FROM }), Passkey()], config: { rateLimit: false, botProtection } })

  const createSection = (html: string) => {
    const section = /<section class="passkey-create"[\s\S]*?<\/section>/.exec(html)?.[0]
    if (!section) throw new Error("no passkey-create section")
    return section
  }

  it("the passkey's \"create via email\" form carries the widget before its button, the script loaded once", async () => {
    const site = await passkeySite({ altcha: ALTCHA })
    const page = await site.agent().get(SECOND_STEP).expect(200)
    const section = createSection(page.text)
    expect(section).toContain(`action="${site.url}/auth/signin/nodemailer"`)
    expect(section).toContain(`<altcha-widget challenge="${site.url}/auth/bot-challenge" name="altcha"`)
    expect(section.indexOf("<altcha-widget")).toBeLessThan(section.indexOf('<button type="submit"'))
    // The page's email form carries one too; the script is loaded once for both.
    expect(count(page.text, "<altcha-widget")).toBe(2)
    expect(count(page.text, `<script src="${site.url}/auth/bot-widget"`)).toBe(1)
    expect(csp(page)).toContain("worker-src 'self' blob:")

    // Its answer opens the door: the mail goes.
    const agent = site.agent()
    const email = address("create")
    const sent = await askForLink(agent, email, { altcha: await solvedToken(agent) })
    expect(new URL(String(sent.headers.location), site.url).pathname).toBe("/auth/verify-request")
    await expectMail(site, 0, email)
  })

  it("without bot protection the passkey section has no widget, and the page's policy is as with the email door unguarded", async () => {
    const [off, unguarded] = await Promise.all([passkeySite(undefined), passkeySite({ altcha: ALTCHA, actions: { emailSignIn: false } })])
    const [page, reference] = await Promise.all([off.agent().get(SECOND_STEP).expect(200), unguarded.agent().get(SECOND_STEP).expect(200)])
    expect(createSection(page.text)).toContain(`action="${off.url}/auth/signin/nodemailer"`)
    expect(page.text).not.toMatch(WIDGET)
    expect(reference.text).not.toMatch(WIDGET)
    expect(csp(page)).toBe(csp(reference))
    expect(csp(page)).not.toContain("blob:")
  })

  /** The verify-request page after a link was asked for (the sent-mail cookie names the address). */
  async function verifyRequestPage(site: Site, agent: Agent, email: string, answer: boolean) {
    const before = site.smtp.messages.length
    const sent = await askForLink(agent, email, answer ? { altcha: await solvedToken(agent) } : {})
    expect(new URL(String(sent.headers.location), site.url).pathname).toBe("/auth/verify-request")
    await expectMail(site, before, email)
    return agent.get("/auth/verify-request").expect(200)
  }

  const resendForm = (html: string) => {
    const form = /<form method="post" action="[^"]*\/auth\/signin\/nodemailer">[\s\S]*?<\/form>/.exec(html)?.[0]
    if (!form) throw new Error("no send-again form")
    return form
  }

  const hiddenFields = (form: string) => Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1]!, match[2]!]))

  it("the verify-request page's \"send again\" carries the widget before its button; pressed with its answer, the mail goes again", async () => {
    const site = await startSite({ config: { rateLimit: false, botProtection: { altcha: ALTCHA } } })
    const agent = site.agent()
    const email = address("resend")
    const page = await verifyRequestPage(site, agent, email, true)
    const form = resendForm(page.text)
    expect(form).toContain(`<altcha-widget challenge="${site.url}/auth/bot-challenge" name="altcha"`)
    expect(form).toContain(`<script src="${site.url}/auth/bot-widget" type="module"></script>`)
    expect(form.indexOf("<altcha-widget")).toBeLessThan(form.indexOf('<button type="submit"'))
    expect(csp(page)).toContain("script-src 'self'")
    expect(csp(page)).toContain("worker-src 'self' blob:")

    const fields = hiddenFields(form)
    const refused = await agent.post("/auth/signin/nodemailer").type("form").redirects(0).send(fields)
    expect(new URL(String(refused.headers.location), site.url).searchParams.get("error")).toBe("BotChallengeFailed")
    const again = await agent.post("/auth/signin/nodemailer").type("form").redirects(0).send({ ...fields, altcha: await solvedToken(agent) })
    expect(new URL(String(again.headers.location), site.url).pathname).toBe("/auth/verify-request")
    await expectMail(site, 1, email)
    expect(mailsTo(site, email)).toHaveLength(2)
  })

  it("without bot protection the verify-request page has no widget, and its policy is as with the email door unguarded", async () => {
    const [off, unguarded] = await Promise.all([startSite({ config: { rateLimit: false } }), startSite({ config: { rateLimit: false, botProtection: { altcha: ALTCHA, actions: { emailSignIn: false } } } })])
    const [page, reference] = await Promise.all([verifyRequestPage(off, off.agent(), address("off"), false), verifyRequestPage(unguarded, unguarded.agent(), address("unguarded"), false)])
    expect(resendForm(page.text)).not.toMatch(WIDGET)
    expect(page.text).not.toMatch(WIDGET)
    expect(reference.text).not.toMatch(WIDGET)
    expect(csp(page)).toBe(csp(reference))
    expect(csp(page)).not.toContain("script-src")
  })

  it("the account page has no form that asks for an email sign-in, so no widget and the policy unchanged", async () => {
    const start = (botProtection: BotOptions) => startSite({ providers: (smtp) => [Nodemailer({ server: smtp.url, from: FROM }), anyone()], config: { rateLimit: false, botProtection } })
    const pages = []
    for (const site of await Promise.all([start({ altcha: ALTCHA }), start(undefined)])) {
      const agent = site.agent()
      const body = { csrfToken: await csrfToken(agent), username: label("account"), password: RIGHT }
      const signedIn = await agent.post("/auth/callback/credentials").type("form").redirects(0).send(body)
      expect(sessionCookie(signedIn)).toBeDefined()
      pages.push(await agent.get("/auth/account").expect(200))
    }
    const [on, off] = pages
    expect(on!.text).not.toContain("/auth/signin/nodemailer")
    expect(on!.text).not.toMatch(WIDGET)
    expect(csp(on!)).toBe(csp(off!))
  })
})

/**
 * Every door takes the same answers the same way: a wrong solution, a tampered challenge, an
 * expired one and a replayed one are refused (nothing mailed, no session), a fresh solved one opens.
 */
describe("each door refuses a wrong, tampered, expired or replayed answer", () => {
  const REAL_TIMERS = ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"] as const
  const store = engine("memory", "botdoors")
  // A site per test: the email suites' sites close after each test.
  let s: DoorSite
  beforeAll(() => store.open())
  afterAll(async () => {
    jest.useRealTimers()
    await store.close()
  })

  type Door = "emailSignIn" | "forgotPassword" | "signIn"
  /** Sends the door's request with `answer`; "opened" when it did its work, else the refusal's type. */
  async function knock(door: Exclude<Door, "signIn">, answer: string): Promise<string> {
    const agent = s.agent()
    const email = address(door)
    const response = door === "emailSignIn" ? await askForLink(agent, email, { altcha: answer }) : await forgot(agent, email, { altcha: answer })
    if (door === "emailSignIn") return new URL(String(response.headers.location), s.url).searchParams.get("error") ?? "opened"
    return response.status === 200 ? "opened" : /robot/i.test(response.text) ? "BotChallengeFailed" : `status ${response.status}`
  }

  /** A sign-in with `answer` in the widget's field: the error type, or "opened". */
  async function signInWith(answer: string): Promise<string> {
    const agent = s.agent()
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/callback/credentials").type("form").redirects(0).send({ csrfToken: token, username: label("door"), password: RIGHT, altcha: answer })
    return new URL(String(response.headers.location), s.url).searchParams.get("error") ?? "opened"
  }

  const send = (door: Door, answer: string) => (door === "signIn" ? signInWith(answer) : knock(door, answer))

  it.each<Door>(["emailSignIn", "forgotPassword", "signIn"])("%s", async (door) => {
    s = await doorSite(store.adapter() as TransactionalAdapter, { altcha: ALTCHA, actions: { signIn: { afterFailures: 0 } } })
    const agent = s.agent()
    // A signed, fresh challenge with a solution that is not one (the work not done).
    const wrong = widgetPayload(await fetchChallenge(agent), { counter: 7, derivedKey: "ab".repeat(32) })
    expect(await send(door, wrong)).toBe("BotChallengeFailed")
    const tampered = await solvedToken(agent, (challenge) => {
      challenge.signature = `${challenge.signature?.slice(0, -2)}00`
    })
    expect(await send(door, tampered)).toBe("BotChallengeFailed")
    const stale = await solvedToken(agent)
    jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: Date.now() + (ALTCHA.expires + 5) * 1000 })
    expect(await send(door, stale)).toBe("BotChallengeFailed")
    jest.useRealTimers()
    const good = await solvedToken(agent)
    expect(await send(door, good)).toBe("opened")
    expect(await send(door, good)).toBe("BotChallengeFailed")
  })
})
