/**
 * Bot protection's vendors (issue #33): Turnstile, hCaptcha and reCAPTCHA v3 checked against a
 * local fake of their verification endpoint (fake-vendor.ts), through a real app: an email
 * sign-in request (`POST /auth/signin/nodemailer`) and a password sign-up (`POST /auth/signup`).
 * A good answer lets the action through (the mail goes out); a refused one stops it with
 * BotChallengeFailed and sends nothing; a vendor that hangs, fails or talks nonsense follows
 * `botProtection.onOutage`: refused with BotCheckUnavailable (503) when closed, let through
 * when open.
 */
import { describe, expect, it, jest } from "@jest/globals"
import type { BotProtectionOptions } from "../../lib/bot-protection/settings.js"
import { VERIFY_LIMITS } from "../../lib/bot-protection/vendors/verifier.js"
import { ALICE, csrfToken, startSite, type Agent, type Site } from "../email/support.js"
import { mailAt, post, signUp, startPasswordSite } from "../password/support.js"
import { startFakeVendor, type FakeAnswer, type FakeVendor } from "./fake-vendor.js"

const SECRET_KEY = "0xTEST-secret-only-the-server-knows"
const SITE_KEY = "0xTEST-site-key"
const TOKEN = "widget-answer-7f3a9c"
const SOLVED = "2026-11-27T23:00:00Z"

type Kind = "turnstile" | "hcaptcha" | "recaptcha"

/** Each vendor: its widget's field, and a good answer as its documentation shows one. */
const VENDORS: Array<{ kind: Kind; field: string; good: Record<string, unknown> }> = [
  { kind: "turnstile", field: "cf-turnstile-response", good: { success: true, "error-codes": [], challenge_ts: SOLVED, hostname: "127.0.0.1", action: "", cdata: "" } },
  { kind: "hcaptcha", field: "h-captcha-response", good: { success: true, challenge_ts: SOLVED, hostname: "127.0.0.1" } },
  { kind: "recaptcha", field: "g-recaptcha-response", good: { success: true, score: 0.9, action: "emailSignIn", challenge_ts: SOLVED, hostname: "127.0.0.1", "error-codes": [] } },
]
const FIELD: Record<Kind, string> = { turnstile: "cf-turnstile-response", hcaptcha: "h-captcha-response", recaptcha: "g-recaptcha-response" }

function botOption(kind: Kind, fake: FakeVendor, more: Partial<BotProtectionOptions> = {}, vendor: Record<string, unknown> = {}): BotProtectionOptions {
  return { provider: { [kind]: { secret: SECRET_KEY, siteKey: SITE_KEY, verifyUrl: fake.url, ...vendor } } as BotProtectionOptions["provider"], ...more }
}

async function emailSite(kind: Kind, fake: FakeVendor, more: Partial<BotProtectionOptions> = {}, vendor: Record<string, unknown> = {}): Promise<Site> {
  return startSite({ config: { botProtection: botOption(kind, fake, more, vendor) } })
}

/** A browser's agent with its CSRF token, ready to post the email sign-in form. */
async function ready(site: Site): Promise<{ agent: Agent; csrf: string }> {
  const agent = site.agent()
  return { agent, csrf: await csrfToken(agent) }
}

/** POST /auth/signin/nodemailer with the widget's answer in `field` (as JSON when `json`). */
function askLink(form: { agent: Agent; csrf: string }, field: string, token: string, json = false) {
  const test = form.agent.post("/auth/signin/nodemailer").type("form").redirects(0)
  if (json) test.set("accept", "application/json")
  return test.send({ csrfToken: form.csrf, email: ALICE, [field]: token })
}

/** Where a browser was sent, and with which error. */
function landing(response: { status: number; headers: Record<string, unknown> }): { path: string; error: string | null } {
  expect(response.status).toBe(302)
  const url = new URL(String(response.headers.location))
  return { path: url.pathname, error: url.searchParams.get("error") }
}

/**
 * The fake never answers; the verifier's own timeout (VERIFY_LIMITS.timeout) ends the call. Only
 * setTimeout is faked, and moved on once the request reached the fake, so no test waits for it.
 */
async function pastTheTimeout<T>(fake: FakeVendor, send: () => PromiseLike<T>): Promise<T> {
  fake.answer = "hang"
  const before = fake.received.length
  jest.useFakeTimers({
    doNotFake: ["Date", "hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate", "setInterval", "clearInterval"],
    advanceTimers: true,
  })
  let pending: Promise<T>
  try {
    pending = Promise.resolve(send().then((response) => response))
    await fake.waitFor(before + 1)
    jest.advanceTimersByTime(VERIFY_LIMITS.timeout)
  } finally {
    jest.useRealTimers()
  }
  return pending
}

/** The ways a vendor can fail to give a usable answer. */
const OUTAGES: Array<[string, FakeAnswer]> = [
  ["answers 500", { status: 500, body: "upstream trouble" }],
  ["answers a page, not JSON", { status: 200, body: "<html>Service Unavailable</html>", type: "text/html" }],
  ["answers a body far over the cap (saying success)", { huge: 4 * VERIFY_LIMITS.maxResponseSize }],
  // A score too, so that for reCAPTCHA only the wrong type can make these an outage.
  ['answers {"success":"yes"}', { json: { success: "yes", score: 0.9 } }],
  ["answers success with error-codes that are not a list", { json: { success: true, score: 0.9, "error-codes": "none" } }],
  ["reports its own internal error", { json: { success: false, "error-codes": ["internal-error"] } }],
  ["redirects elsewhere", { status: 302, body: "" }],
]

describe.each(VENDORS)("$kind", ({ kind, field, good }) => {
  it("a good answer lets the request through; the vendor got the secret, the token and the client's address as its documented fields", async () => {
    const fake = await startFakeVendor()
    fake.answer = { json: good }
    const site = await emailSite(kind, fake)
    const response = await askLink(await ready(site), field, TOKEN)
    expect(landing(response)).toEqual({ path: "/auth/verify-request", error: null })
    expect(site.smtp.messages.map((mail) => mail.envelope.to)).toEqual([[ALICE]])
    expect(fake.received).toHaveLength(1)
    const [call] = fake.received
    expect(call).toMatchObject({ method: "POST", path: "/siteverify" })
    expect(call!.contentType).toMatch(/^application\/x-www-form-urlencoded/)
    expect(call!.fields).toEqual({ secret: SECRET_KEY, response: TOKEN, remoteip: "127.0.0.1", ...(kind === "hcaptcha" && { sitekey: SITE_KEY }) })
  })

  it("the answer in botToken (an app's own form) is checked the same way", async () => {
    const fake = await startFakeVendor()
    fake.answer = { json: good }
    const site = await emailSite(kind, fake)
    expect(landing(await askLink(await ready(site), "botToken", TOKEN)).error).toBeNull()
    expect(fake.received[0]!.fields.response).toBe(TOKEN)
  })

  it("an answer the vendor refuses stops the request: BotChallengeFailed, nothing sent", async () => {
    const fake = await startFakeVendor()
    fake.answer = { json: { success: false, "error-codes": ["invalid-input-response"] } }
    const site = await emailSite(kind, fake)
    expect(landing(await askLink(await ready(site), field, TOKEN))).toEqual({ path: "/auth/signin", error: "BotChallengeFailed" })
    fake.answer = { json: { success: false, "error-codes": ["timeout-or-duplicate"] } }
    const json = await askLink(await ready(site), field, TOKEN, true)
    expect(json.status).toBe(400)
    expect(json.body.error.type).toBe("BotChallengeFailed")
    expect(fake.received).toHaveLength(2)
    expect(site.smtp.messages).toHaveLength(0)
  })

  it.each(OUTAGES)("a vendor that %s is an outage: closed (the default) refuses with BotCheckUnavailable, 503", async (_name, answer) => {
    const fake = await startFakeVendor()
    fake.answer = answer
    const site = await emailSite(kind, fake)
    expect(landing(await askLink(await ready(site), field, TOKEN))).toEqual({ path: "/auth/signin", error: "BotCheckUnavailable" })
    const json = await askLink(await ready(site), field, TOKEN, true)
    expect(json.status).toBe(503)
    expect(json.body.error.type).toBe("BotCheckUnavailable")
    expect(fake.received).toHaveLength(2)
    expect(site.smtp.messages).toHaveLength(0)
  })

  it("a vendor that never answers is an outage once the timeout passes: refused, 503", async () => {
    const fake = await startFakeVendor()
    const site = await emailSite(kind, fake)
    const form = await ready(site)
    const json = await pastTheTimeout(fake, () => askLink(form, field, TOKEN, true))
    expect(json.status).toBe(503)
    expect(json.body.error.type).toBe("BotCheckUnavailable")
    expect(site.smtp.messages).toHaveLength(0)
  })

  it("a vendor that is not listening is an outage", async () => {
    const fake = await startFakeVendor()
    const site = await emailSite(kind, fake)
    await fake.close()
    expect(landing(await askLink(await ready(site), field, TOKEN))).toEqual({ path: "/auth/signin", error: "BotCheckUnavailable" })
    expect(site.smtp.messages).toHaveLength(0)
  })

  it("a secret the vendor rejects is logged as InvalidOption naming the option (never the secret or the token), and is an outage", async () => {
    const fake = await startFakeVendor()
    fake.answer = { json: { success: false, "error-codes": ["invalid-input-secret"] } }
    const site = await emailSite(kind, fake)
    expect(landing(await askLink(await ready(site), field, TOKEN))).toEqual({ path: "/auth/signin", error: "BotCheckUnavailable" })
    const logged = site.errors.mock.calls.map(([error]) => error)
    const fault = logged.find((error) => (error as { type?: string }).type === "InvalidOption")
    expect(fault?.message).toContain(`botProtection.provider.${kind}.secret`)
    expect(fault?.message).toContain("invalid-input-secret")
    for (const error of logged) expect(`${error.message} ${JSON.stringify(error.cause ?? null)}`).not.toMatch(new RegExp(`${SECRET_KEY}|${TOKEN}`))
    expect(site.smtp.messages).toHaveLength(0)
  })
})

describe("onOutage: open", () => {
  it.each(OUTAGES)("a vendor that %s: the request goes through, the outage is logged", async (_name, answer) => {
    const fake = await startFakeVendor()
    fake.answer = answer
    const site = await emailSite("turnstile", fake, { onOutage: "open" })
    expect(landing(await askLink(await ready(site), FIELD.turnstile, TOKEN))).toEqual({ path: "/auth/verify-request", error: null })
    expect(site.smtp.messages.map((mail) => mail.envelope.to)).toEqual([[ALICE]])
    expect(site.errors.mock.calls.map(([error]) => (error as { type?: string }).type)).toContain("BotCheckUnavailable")
  })

  it("a vendor that never answers: the request goes through once the timeout passes", async () => {
    const fake = await startFakeVendor()
    const site = await emailSite("hcaptcha", fake, { onOutage: { emailSignIn: "open" } })
    const form = await ready(site)
    const response = await pastTheTimeout(fake, () => askLink(form, FIELD.hcaptcha, TOKEN))
    expect(landing(response)).toEqual({ path: "/auth/verify-request", error: null })
    expect(site.smtp.messages).toHaveLength(1)
  })

  it("open does not let a refused answer through", async () => {
    const fake = await startFakeVendor()
    fake.answer = { json: { success: false, "error-codes": ["invalid-input-response"] } }
    const site = await emailSite("turnstile", fake, { onOutage: "open" })
    expect(landing(await askLink(await ready(site), FIELD.turnstile, TOKEN)).error).toBe("BotChallengeFailed")
    expect(site.smtp.messages).toHaveLength(0)
  })
})

describe("password sign-up (the page answers in place)", () => {
  async function passwordSite(fake: FakeVendor, more: Partial<BotProtectionOptions> = {}) {
    return startPasswordSite({ config: { botProtection: botOption("recaptcha", fake, more) } })
  }

  it("a good reCAPTCHA answer for signUp creates the account and mails the link", async () => {
    const fake = await startFakeVendor()
    fake.answer = { json: { success: true, score: 0.7, action: "signUp", challenge_ts: SOLVED, hostname: "127.0.0.1" } }
    const site = await passwordSite(fake)
    const response = await signUp(site.agent(), "new@example.com", undefined, { [FIELD.recaptcha]: TOKEN })
    expect(response.status).toBe(200)
    const { mail } = await mailAt(site, 0)
    expect(mail.envelope.to).toEqual(["new@example.com"])
    expect(fake.received[0]!.fields).toEqual({ secret: SECRET_KEY, response: TOKEN, remoteip: "127.0.0.1" })
  })

  it("closed: an outage shows the page with 503 and creates nothing", async () => {
    const fake = await startFakeVendor()
    fake.answer = { status: 503, body: "" }
    const site = await passwordSite(fake)
    const response = await signUp(site.agent(), "new@example.com", undefined, { [FIELD.recaptcha]: TOKEN })
    expect(response.status).toBe(503)
    expect(await site.adapter.getUserByEmail!("new@example.com")).toBeNull()
  })

  it("open for signUp only: sign-up goes through an outage, forgot-password (still closed) does not", async () => {
    const fake = await startFakeVendor()
    fake.answer = { json: { success: "yes" } }
    const site = await passwordSite(fake, { onOutage: { signUp: "open" } })
    const agent = site.agent()
    expect((await signUp(agent, "new@example.com", undefined, { [FIELD.recaptcha]: TOKEN })).status).toBe(200)
    expect((await mailAt(site, 0)).mail.envelope.to).toEqual(["new@example.com"])
    expect((await post(agent, "/auth/forgot-password", { email: "new@example.com", [FIELD.recaptcha]: TOKEN })).status).toBe(503)
  })
})

describe("reCAPTCHA v3's score and action", () => {
  const answer = (score: unknown, action = "emailSignIn") => ({ json: { success: true, score, action, challenge_ts: SOLVED, hostname: "127.0.0.1" } })

  it.each([
    [0.3, undefined, "BotChallengeFailed"],
    [0.5, undefined, null],
    [0.7, 0.8, "BotChallengeFailed"],
    [0.9, 0.8, null],
    [0, 0, null],
  ])("score %p with threshold %p: error %p", async (score, threshold, error) => {
    const fake = await startFakeVendor()
    fake.answer = answer(score)
    const site = await emailSite("recaptcha", fake, {}, threshold === undefined ? {} : { threshold })
    expect(landing(await askLink(await ready(site), FIELD.recaptcha, TOKEN)).error).toBe(error)
    expect(site.smtp.messages).toHaveLength(error ? 0 : 1)
  })

  it("a token made for another action is refused", async () => {
    const fake = await startFakeVendor()
    fake.answer = answer(0.9, "login")
    const site = await emailSite("recaptcha", fake)
    expect(landing(await askLink(await ready(site), FIELD.recaptcha, TOKEN)).error).toBe("BotChallengeFailed")
  })

  it("a score that is not a number is an outage", async () => {
    const fake = await startFakeVendor()
    fake.answer = answer("0.9")
    const site = await emailSite("recaptcha", fake)
    expect(landing(await askLink(await ready(site), FIELD.recaptcha, TOKEN)).error).toBe("BotCheckUnavailable")
  })

  it("no score at all (v2 keys) is an outage, logged as InvalidOption", async () => {
    const fake = await startFakeVendor()
    fake.answer = { json: { success: true, challenge_ts: SOLVED, hostname: "127.0.0.1" } }
    const site = await emailSite("recaptcha", fake)
    expect(landing(await askLink(await ready(site), FIELD.recaptcha, TOKEN)).error).toBe("BotCheckUnavailable")
    const fault = site.errors.mock.calls.map(([error]) => error).find((error) => (error as { type?: string }).type === "InvalidOption")
    expect(fault?.message).toMatch(/botProtection\.provider\.recaptcha: .*no score/)
  })
})

describe("Turnstile's action", () => {
  it("a token whose action is another door's is refused; none (the widget set no action) is accepted", async () => {
    const fake = await startFakeVendor()
    fake.answer = { json: { success: true, "error-codes": [], action: "signUp" } }
    const site = await emailSite("turnstile", fake)
    expect(landing(await askLink(await ready(site), FIELD.turnstile, TOKEN)).error).toBe("BotChallengeFailed")
    fake.answer = { json: { success: true, "error-codes": [], action: "emailSignIn" } }
    expect(landing(await askLink(await ready(site), FIELD.turnstile, TOKEN)).error).toBeNull()
    expect(site.smtp.messages).toHaveLength(1)
  })
})
