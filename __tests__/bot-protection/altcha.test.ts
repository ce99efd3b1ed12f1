/**
 * ALTCHA, the self-hosted proof of work (issue #33), at the sign-up door of a password site:
 * refused without an answer, with a wrong, tampered, expired, replayed (on one process, and on
 * another sharing Redis) or malformed one, and nothing is created or mailed then; a solved
 * challenge makes the account. The challenge endpoint (format, no caching, the cost rising with
 * refusals), the widget's script, JSON clients with `X-Bot-Token`, and the option off.
 */
import vm from "node:vm"
import { afterAll, afterEach, describe, expect, it, jest } from "@jest/globals"
import { createClient } from "redis"
import { RedisStore } from "../../lib/shared-store/redis.js"
import { botWidgetUrl } from "../../lib/bot-protection/altcha/widget.js"
import { OTHER_SECRET, SECRET, type Agent } from "../helpers/app.js"
import { GOOD_PASSWORD, signUp, startPasswordSite, type PasswordSite } from "../password/support.js"
import { ALTCHA, botSite, fetchChallenge, solvedToken, widgetPayload } from "./altcha-support.js"

const REFUSAL = "Please confirm you are not a robot, then try again."
const REAL_TIMERS = ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"] as const

afterEach(() => {
  jest.useRealTimers()
})

let counter = 0
const address = (label: string) => `${label}-${++counter}@example.test`

/** A sign-up refused by the challenge: the sign-up page again, with the refusal. */
async function expectRefused(agent: Agent, email: string, extra: Record<string, string>): Promise<void> {
  const response = await signUp(agent, email, GOOD_PASSWORD, extra)
  expect(response.status).toBe(400)
  expect(response.text).toContain(REFUSAL)
  expect(response.text).toContain('action="http://127.0.0.1')
  expect(response.text).toContain('/auth/signup"')
}

async function expectAccepted(site: PasswordSite, agent: Agent, email: string, extra: Record<string, string>): Promise<void> {
  const before = site.smtp.messages.length
  const response = await signUp(agent, email, GOOD_PASSWORD, extra)
  expect(response.status).toBe(200)
  expect(response.text).not.toContain(REFUSAL)
  const mails = await site.smtp.waitFor(before + 1)
  expect(mails.some((mail) => mail.envelope.to.includes(email))).toBe(true)
  expect(await site.adapter.getUserByEmail!(email)).toMatchObject({ email })
}

/**
 * No account and no mail for `emails`. A good sign-up is made and its mail awaited first: the
 * work of a sign-up runs just after its answer, so any earlier one's would be done by then.
 */
async function expectNothingFor(site: PasswordSite, agent: Agent, emails: string[]): Promise<void> {
  await expectAccepted(site, agent, address("settle"), { altcha: await solvedToken(agent) })
  for (const email of emails) {
    expect(await site.adapter.getUserByEmail!(email)).toBeNull()
    expect(site.smtp.messages.some((mail) => mail.envelope.to.includes(email))).toBe(false)
  }
}

describe("ALTCHA at the sign-up door", () => {
  it("a solved challenge makes the account and sends its mail", async () => {
    const site = await botSite()
    const agent = site.agent()
    await expectAccepted(site, agent, address("good"), { altcha: await solvedToken(agent) })
  })

  it("no answer: the page again with the refusal, no account, no mail", async () => {
    const site = await botSite()
    const agent = site.agent()
    const email = address("none")
    await expectRefused(agent, email, {})
    await expectRefused(agent, email, { altcha: "" })
    await expectNothingFor(site, agent, [email])
  })

  it("a wrong answer is refused", async () => {
    const site = await botSite()
    const agent = site.agent()
    const challenge = await fetchChallenge(agent)
    const wrongKey = widgetPayload(challenge, { counter: 0, derivedKey: "ab".repeat(32), time: 5 })
    const email = address("wrong")
    await expectRefused(agent, email, { altcha: wrongKey })
    await expectNothingFor(site, agent, [email])
  })

  it("a tampered challenge is refused: a changed signature, or a later expiry under the old one", async () => {
    const site = await botSite()
    const agent = site.agent()
    const signature = await solvedToken(agent, (challenge) => {
      const last = challenge.signature!.at(-1) === "0" ? "1" : "0"
      challenge.signature = challenge.signature!.slice(0, -1) + last
    })
    const expiry = await solvedToken(agent, (challenge) => {
      challenge.parameters.expiresAt = (challenge.parameters.expiresAt ?? 0) + 3600
    })
    const emails = [address("tampered"), address("tampered")]
    await expectRefused(agent, emails[0]!, { altcha: signature })
    await expectRefused(agent, emails[1]!, { altcha: expiry })
    await expectNothingFor(site, agent, emails)
  })

  it("an expired challenge is refused", async () => {
    const site = await botSite()
    const agent = site.agent()
    const token = await solvedToken(agent)
    jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: Date.now() + (ALTCHA.expires + 1) * 1000 })
    const email = address("expired")
    await expectRefused(agent, email, { altcha: token })
    await expectNothingFor(site, agent, [email])
  })

  it("an answer is accepted once: the same one again is refused", async () => {
    const site = await botSite()
    const agent = site.agent()
    const token = await solvedToken(agent)
    await expectAccepted(site, agent, address("first"), { altcha: token })
    const email = address("replay")
    await expectRefused(agent, email, { altcha: token })
    await expectNothingFor(site, agent, [email])
  })

  it("malformed answers are refused, never an error", async () => {
    const site = await botSite()
    const agent = site.agent()
    const good = JSON.parse(Buffer.from(await solvedToken(agent), "base64").toString()) as { challenge: { parameters: Record<string, unknown>; signature: string }; solution: Record<string, unknown> }
    const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64")
    const garbage = [
      "%%%not base64%%%",
      b64("{not json"),
      b64("null"),
      b64([1, 2, 3]),
      b64({ challenge: null, solution: null, test: true }),
      b64({ ...good, solution: { counter: "12", derivedKey: good.solution.derivedKey } }),
      b64({ ...good, solution: { counter: -1, derivedKey: good.solution.derivedKey } }),
      b64({ ...good, challenge: { ...good.challenge, signature: 42 } }),
      b64({ ...good, challenge: { ...good.challenge, parameters: { ...good.challenge.parameters, nonce: "zz" } } }),
      b64({ ...good, challenge: { ...good.challenge, parameters: { ...good.challenge.parameters, algorithm: "SHA-1" } } }),
      b64({ ...good, challenge: { ...good.challenge, parameters: { ...good.challenge.parameters, keyLength: 1e9 } } }),
      b64({ ...good, padding: "x".repeat(5000) }),
    ]
    const emails: string[] = []
    for (const altcha of garbage) {
      const email = address("garbage")
      emails.push(email)
      await expectRefused(agent, email, { altcha })
    }
    await expectNothingFor(site, agent, emails)
    expect(site.errors).not.toHaveBeenCalled()
  })

  it("a challenge signed before a secret rotation is still accepted; one signed with an unknown secret is not", async () => {
    const before = await botSite({ secret: SECRET })
    const after = await botSite({ secret: [OTHER_SECRET, SECRET] })
    const old = await solvedToken(before.agent())
    await expectAccepted(after, after.agent(), address("rotated"), { altcha: old })
    const unknown = await solvedToken(after.agent())
    const email = address("unknown-key")
    await expectRefused(before.agent(), email, { altcha: unknown })
    await expectNothingFor(before, before.agent(), [email])
  })
})

describe("ALTCHA across two processes sharing Redis", () => {
  const clients: Array<ReturnType<typeof createClient>> = []
  const prefix = `gh33-altcha:${Math.random().toString(36).slice(2)}:`
  afterAll(async () => {
    const client = clients[0]
    if (client) {
      const keys = await client.keys(`${prefix}*`)
      if (keys.length) await client.del(keys)
    }
    for (const each of clients.splice(0)) each.destroy()
  })
  /** One "process": its own Redis connection, configuration and app. */
  async function process(): Promise<PasswordSite> {
    const client = createClient({ url: "redis://127.0.0.1:6379" })
    client.on("error", () => undefined)
    await client.connect()
    clients.push(client)
    return botSite({ store: RedisStore({ client, prefix }) })
  }

  it("an answer used on one process is refused on the other", async () => {
    const [one, two] = [await process(), await process()]
    const token = await solvedToken(one.agent())
    await expectAccepted(one, one.agent(), address("one"), { altcha: token })
    const email = address("two")
    await expectRefused(two.agent(), email, { altcha: token })
    await expectNothingFor(two, two.agent(), [email])
    // A fresh answer from one process's challenge is good on the other: only the reuse was refused.
    await expectAccepted(two, two.agent(), address("fresh"), { altcha: await solvedToken(one.agent()) })
  })
})

describe("GET bot-challenge", () => {
  it("a new, signed, expiring PBKDF2 challenge, never cached", async () => {
    const site = await botSite()
    const agent = site.agent()
    const response = await agent.get("/auth/bot-challenge").expect(200)
    expect(response.headers["content-type"]).toMatch(/^application\/json/)
    expect(response.headers["cache-control"]).toBe("no-store")
    const { parameters, signature } = response.body as { parameters: Record<string, unknown>; signature: string }
    expect(parameters).toMatchObject({ algorithm: "PBKDF2/SHA-256", cost: ALTCHA.cost, keyPrefix: expect.stringMatching(/^[0-9a-f]+$/) })
    expect(parameters.expiresAt).toBeGreaterThan(Date.now() / 1000 + ALTCHA.expires - 10)
    expect(parameters.expiresAt).toBeLessThanOrEqual(Date.now() / 1000 + ALTCHA.expires + 1)
    expect(signature).toMatch(/^[0-9a-f]{64}$/)
    const again = (await agent.get("/auth/bot-challenge").expect(200)).body as { parameters: { salt: string } }
    expect(again.parameters.salt).not.toBe(parameters.salt)
  })

  it("costs more after many refused answers, up to maxCost", async () => {
    const site = await botSite()
    const agent = site.agent()
    const cost = async () => ((await fetchChallenge(agent)).parameters.cost as number)
    const refuse = async (times: number) => {
      for (let i = 0; i < times; i++) await expectRefused(agent, address("abuse"), { altcha: "bm90IGFuIGFuc3dlcg==" })
    }
    expect(await cost()).toBe(ALTCHA.cost)
    await refuse(10)
    expect(await cost()).toBe(ALTCHA.cost * 2)
    await refuse(30)
    expect(await cost()).toBe(ALTCHA.maxCost)
    // Still solvable at the higher cost.
    await expectAccepted(site, agent, address("patient"), { altcha: await solvedToken(agent) })
  })

  it("answers 404 when bot protection is off or uses a vendor", async () => {
    const off = await startPasswordSite({ config: { rateLimit: false } })
    const vendor = await botSite({}, { provider: { turnstile: { secret: "0x-secret", siteKey: "0x-site" } } })
    for (const site of [off, vendor]) {
      for (const path of ["/auth/bot-challenge", "/auth/bot-widget"]) {
        const response = await site.agent().get(path).set("Accept", "application/json")
        expect(response.status).toBe(404)
        expect(response.body.error.type).toBe("UnknownAction")
      }
    }
  })
})

describe("GET bot-widget", () => {
  it("serves the widget as an ES module, cached with an ETag, and answers HEAD", async () => {
    const site = await botSite()
    const agent = site.agent()
    const response = await agent.get("/auth/bot-widget").buffer(true).parse((res, done) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => done(null, text))
    })
    expect(response.status).toBe(200)
    expect(response.headers["content-type"]).toBe("text/javascript; charset=utf-8")
    expect(response.headers["cache-control"]).toBe("public, max-age=86400")
    const etag = response.headers.etag as string
    expect(etag).toMatch(/^"[\w-]+"$/)
    const body = response.body as string
    expect(body).toContain("altcha-widget")
    // It parses as a module that imports nothing: one <script type="module"> is all it needs.
    const module = new vm.SourceTextModule(body)
    expect(module.dependencySpecifiers).toEqual([])

    const cached = await agent.get("/auth/bot-widget").set("If-None-Match", etag)
    expect(cached.status).toBe(304)
    const head = await agent.head("/auth/bot-widget")
    expect(head.status).toBe(200)
    expect(head.headers["content-type"]).toBe("text/javascript; charset=utf-8")
    expect(head.text ?? "").toBe("")

    const versioned = await agent.head(botWidgetUrl("/auth"))
    expect(versioned.status).toBe(200)
    expect(versioned.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
  })
})

describe("JSON clients", () => {
  it("send the answer in X-Bot-Token to POST /auth/signup", async () => {
    const site = await botSite()
    const agent = site.agent()
    const csrfToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
    const post = (email: string) => agent.post("/auth/signup").set("Accept", "application/json").send({ csrfToken, email, password: GOOD_PASSWORD })
    const refusedEmail = address("json-none")
    const refused = await post(refusedEmail)
    expect(refused.status).toBe(400)
    const email = address("json")
    const before = site.smtp.messages.length
    const accepted = await post(email).set("X-Bot-Token", await solvedToken(agent))
    expect(accepted.status).toBe(200)
    const mails = await site.smtp.waitFor(before + 1)
    expect(mails.some((mail) => mail.envelope.to.includes(email))).toBe(true)
    expect(await site.adapter.getUserByEmail!(refusedEmail)).toBeNull()
  })
})
