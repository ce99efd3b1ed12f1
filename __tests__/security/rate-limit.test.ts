/**
 * Built-in rate limiting (SECURITY-CATALOG.md CRED-03, CRED-04, CRED-05, EMAIL-08, the passkey
 * verification limit, the defaults and the 429 answer). Apps are APP-PROD (NODE_ENV=production
 * while the app is built: limits on by default) unless a test says otherwise; requests from other
 * source addresses go over real sockets bound to 127.0.0.2 … 127.0.0.12 (loopback aliases), never
 * through headers. The shared (Redis) store and FAULT-06 are in rate-limit-redis.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { randomBytes } from "node:crypto"
import { request as httpRequest, type IncomingHttpHeaders } from "node:http"
import type { Express } from "express"
import Credentials from "../../lib/providers/credentials.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Passkey from "../../lib/providers/passkey.js"
import { InvalidOption } from "../../lib/errors.js"
import { SIGNIN_ERRORS } from "../../lib/core/error-messages.js"
import type { AuthConfig } from "../../lib/types.js"
import { startSmtp, linkIn, type SmtpSink } from "../helpers/smtp.js"
import { ALICE as ALICE_EMAIL, askForLink, startSite, withEnv as withEnvEmail } from "../email/support.js"
import {
  ALICE, Browser, buildApp as buildPasskeyApp, expectSignedIn, names, passkeySignIn, seedPasskey, seedUser, softFor, storedCounter, TLS, type Res as BrowserRes, type Site,
} from "../webauthn/fixtures.js"
import { AUTH_URL, BASE, HOST, buildApp, call, csrfPair, listen, preserveEnv, sessionCookie, sessionOf, type CsrfPair, type Res } from "./fixtures.js"

preserveEnv("AUTH_URL", "NODE_ENV")

const MESSAGE = SIGNIN_ERRORS.RateLimited as string

// ---- apps and clients -----------------------------------------------------------------------

/** Runs `build` with NODE_ENV set (production by default), then puts NODE_ENV back. */
function inEnv<T>(build: () => T, nodeEnv = "production"): T {
  const saved = process.env.NODE_ENV
  process.env.NODE_ENV = nodeEnv
  try {
    return build()
  } finally {
    process.env.NODE_ENV = saved
  }
}

/** APP-PROD (or APP with another NODE_ENV), listening on 127.0.0.1 so real sockets can reach it. */
async function started(overrides: Partial<AuthConfig> = {}, nodeEnv = "production", setup?: (app: Express) => void) {
  const { app } = inEnv(() => buildApp(AUTH_URL, overrides), nodeEnv)
  setup?.(app)
  const served = await listen(app)
  servers.push(served)
  const pair = await csrfPair(served.server)
  return { app, server: served.server, port: served.port, pair }
}

const servers: Array<{ close: () => Promise<void> }> = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  text: string
  body: unknown
}

/** One HTTP request over a new socket bound to `localAddress` (a loopback alias). */
function fromAddress(port: number, localAddress: string, method: string, path: string, options: { headers?: Record<string, string>; form?: Record<string, string> } = {}): Promise<Answer> {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined
  const headers: Record<string, string | number> = { Host: HOST, ...options.headers }
  if (body !== undefined) {
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    headers["Content-Length"] = Buffer.byteLength(body)
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, localAddress, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        let parsed: unknown = undefined
        if (String(res.headers["content-type"] ?? "").includes("json")) parsed = JSON.parse(text)
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed })
      })
    })
    req.on("error", reject)
    req.setTimeout(10_000, () => req.destroy(new Error("no answer")))
    req.end(body)
  })
}

/** The passkey suite's browser, but every request goes over a real socket from `localAddress`. */
class BoundBrowser extends Browser {
  constructor(
    app: Express,
    site: Site,
    readonly port: number,
    readonly localAddress: string,
  ) {
    super(app, site)
  }

  private async send(method: string, path: string, headers: Record<string, string>, form?: Record<string, string>): Promise<BrowserRes> {
    const all = { Host: this.site.host, ...(this.jar.size ? { Cookie: this.cookieHeader() } : {}), ...headers }
    const answer = await fromAddress(this.port, this.localAddress, method, path, { headers: all, form })
    const res = answer as unknown as BrowserRes
    this.absorb(res)
    return res
  }

  override get(path: string, headers: Record<string, string> = {}): Promise<BrowserRes> {
    return this.send("GET", path, headers)
  }

  override post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<BrowserRes> {
    return this.send("POST", path, headers, form)
  }
}

/** A credentials attempt with the csrf pair, through supertest (from 127.0.0.1). */
function attempt(target: Parameters<typeof call>[0], pair: CsrfPair, username: string, password: string, options: { accept?: string; headers?: Record<string, string> } = {}): Promise<Res> {
  return call(target, "POST", "/auth/callback/credentials", { cookie: pair.cookie, form: { csrfToken: pair.token, username, password }, ...options })
}

/** The same attempt over a socket bound to `address`. */
function attemptFrom(port: number, address: string, pair: CsrfPair, username: string, password: string): Promise<Answer> {
  return fromAddress(port, address, "POST", "/auth/callback/credentials", { headers: { Cookie: pair.cookie }, form: { csrfToken: pair.token, username, password } })
}

type Answered = { status: number; headers: Record<string, unknown> | IncomingHttpHeaders; text?: string; body?: unknown }

/** An ordinary refusal of wrong credentials: not rate limited. */
function expectWrongCredentials(res: Answered, base = BASE): void {
  expect(res.status).toBe(302)
  const location = new URL(String(res.headers.location))
  expect(`${location.origin}${location.pathname}`).toBe(`${base}/auth/signin`)
  expect(location.searchParams.get("error")).toBe("CredentialsSignin")
}

/** A successful sign-in: a redirect with a session cookie. */
function expectSession(res: Answered): void {
  expect(res.status).toBe(302)
  expect(String(res.headers.location)).not.toContain("error=")
  expect(sessionCookie(res as Res)).not.toBe("")
}

/** Retry-After in whole seconds, within (0, max]. */
function retryAfter(res: Answered, max: number): number {
  const value = String(res.headers["retry-after"])
  expect(value).toMatch(/^\d+$/)
  const seconds = Number(value)
  expect(seconds).toBeGreaterThanOrEqual(1)
  expect(seconds).toBeLessThanOrEqual(max)
  return seconds
}

/** The browser's view of a refused attempt: the sign-in page, 429, Retry-After, the message; no session. */
function expectLimitedPage(res: Answered, window: number): number {
  expect(res.status).toBe(429)
  expect(String(res.headers["content-type"])).toMatch(/^text\/html/)
  expect(res.text).toContain(MESSAGE)
  expect(res.text).not.toContain(SIGNIN_ERRORS.CredentialsSignin as string)
  expect(sessionCookie(res as Res)).toBe("")
  return retryAfter(res, window)
}

/** A JSON client's view: 429, Retry-After, { error: { type: "RateLimited", message } }. */
function expectLimitedJson(res: Answered, window: number): number {
  expect(res.status).toBe(429)
  expect(String(res.headers["content-type"])).toMatch(/^application\/json/)
  expect(res.body).toEqual({ error: { type: "RateLimited", message: MESSAGE } })
  expect(sessionCookie(res as Res)).toBe("")
  return retryAfter(res, window)
}

const sleep = (ms: number) => new Promise((resume) => setTimeout(resume, ms))
const randomIp = () => [...randomBytes(4)].map((byte) => String(Math.max(1, byte))).join(".")

// ---- CRED-03 ----------------------------------------------------------------------------------

describe("CRED-03 brute force against one account is throttled", () => {
  it("after the 10 attempts allowed per account, the correct password gets 429 with Retry-After and RateLimited (page and JSON)", async () => {
    const { server, pair } = await started()
    for (let i = 0; i < 10; i++) expectWrongCredentials(await attempt(server, pair, "alice", `guess${i}`))
    const page = await attempt(server, pair, "alice", "correct-horse", { accept: "text/html" })
    expectLimitedPage(page, 900)
    const json = await attempt(server, pair, "alice", "correct-horse", { accept: "application/json" })
    expectLimitedJson(json, 900)
    // The limit is alice's, not the address's: bob signs in from the same address.
    expectSession(await attempt(server, pair, "bob", "battery-staple"))
    expectLimitedPage(await attempt(server, pair, "alice", "correct-horse"), 900)
  })

  it("the counter is keyed on the normalised identifier: ALICE and ' alice ' count against alice", async () => {
    const { server, pair } = await started()
    for (let i = 0; i < 4; i++) expectWrongCredentials(await attempt(server, pair, "ALICE", `guess${i}`))
    for (let i = 0; i < 3; i++) expectWrongCredentials(await attempt(server, pair, " alice ", `guess${i}`))
    for (let i = 0; i < 3; i++) expectWrongCredentials(await attempt(server, pair, "alice", `guess${i}`))
    expectLimitedPage(await attempt(server, pair, "alice", "correct-horse"), 900)
    expectLimitedPage(await attempt(server, pair, "Alice\t", "x"), 900)
  })

  it("compatibility forms count as the same identifier: full-width ａｌｉｃｅ shares alice's counter", async () => {
    const { server, pair } = await started()
    for (let i = 0; i < 5; i++) expectWrongCredentials(await attempt(server, pair, "ａｌｉｃｅ", `guess${i}`))
    for (let i = 0; i < 5; i++) expectWrongCredentials(await attempt(server, pair, "ＡＬＩＣＥ ", `guess${i}`))
    expectLimitedPage(await attempt(server, pair, "alice", "correct-horse"), 900)
  })

  it("the per-account limit holds across source addresses (real sockets from 127.0.0.2 … 127.0.0.11)", async () => {
    const { port, pair } = await started()
    for (let host = 2; host <= 11; host++) expectWrongCredentials(await attemptFrom(port, `127.0.0.${host}`, pair, "alice", `guess${host}`))
    // An address that never tried before, and one that tried once: both refused, even with the right password.
    expectLimitedPage(await attemptFrom(port, "127.0.0.12", pair, "alice", "correct-horse"), 900)
    expectLimitedPage(await attemptFrom(port, "127.0.0.2", pair, "alice", "correct-horse"), 900)
    // Those addresses are not blocked as such.
    expectSession(await attemptFrom(port, "127.0.0.12", pair, "bob", "battery-staple"))
  })

  it("once Retry-After has passed (a 1 s window), the correct password works", async () => {
    const { server, pair } = await started({ rateLimit: { credentials: { identifier: { limit: 3, window: 1 } } } })
    for (let i = 0; i < 3; i++) expectWrongCredentials(await attempt(server, pair, "alice", `guess${i}`))
    const limited = await attempt(server, pair, "alice", "correct-horse")
    const wait = expectLimitedPage(limited, 1)
    await sleep(wait * 1000 + 150)
    const res = await attempt(server, pair, "alice", "correct-horse")
    expectSession(res)
    expect((await sessionOf(server, sessionCookie(res)))?.user).toMatchObject({ name: "Alice" })
  })

  it("a successful sign-in forgets the account's failures; failures after it count again", async () => {
    const { server, pair } = await started()
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 9; i++) expectWrongCredentials(await attempt(server, pair, "alice", `typo${round}-${i}`))
      expectSession(await attempt(server, pair, "alice", "correct-horse"))
    }
    for (let i = 0; i < 10; i++) expectWrongCredentials(await attempt(server, pair, "alice", `guess${i}`))
    expectLimitedPage(await attempt(server, pair, "alice", "correct-horse"), 900)
  })
})

// ---- CRED-04 ----------------------------------------------------------------------------------

describe("CRED-04 credential stuffing from one address; spoofed client addresses", () => {
  it("100 usernames from one address: 429 after the 50 allowed per address", async () => {
    const { server, pair } = await started()
    const statuses: number[] = []
    for (let i = 0; i < 100; i++) statuses.push((await attempt(server, pair, `user${i}`, "password")).status)
    expect(statuses.slice(0, 50)).toEqual(Array(50).fill(302))
    expect(statuses.slice(50)).toEqual(Array(50).fill(429))
    // Even a real account with its password, from that address.
    expectLimitedPage(await attempt(server, pair, "bob", "battery-staple"), 900)
  })

  it("with trust proxy off, a fresh random X-Forwarded-For (and Forwarded, X-Real-IP) per request changes nothing", async () => {
    const { server, pair } = await started()
    const statuses: number[] = []
    for (let i = 0; i < 100; i++) {
      const spoofed = randomIp()
      const headers = { "X-Forwarded-For": spoofed, Forwarded: `for=${spoofed}`, "X-Real-IP": spoofed, "X-Client-IP": spoofed }
      statuses.push((await attempt(server, pair, `user${i}`, "password", { headers })).status)
    }
    expect(statuses.slice(0, 50)).toEqual(Array(50).fill(302))
    expect(statuses.slice(50)).toEqual(Array(50).fill(429))
  })

  it("with trust proxy = 1 hop, the key is the right-most address (127.0.0.9), never the client-chosen left-most one", async () => {
    const { server, pair } = await started({}, "production", (app) => app.set("trust proxy", 1))
    const through = (hop: string) => ({ headers: { "X-Forwarded-For": `${randomIp()}, ${hop}` } })
    for (let i = 0; i < 50; i++) expectWrongCredentials(await attempt(server, pair, `user${i}`, "password", through("127.0.0.9")))
    expectLimitedPage(await attempt(server, pair, "user50", "password", through("127.0.0.9")), 900)
    expectLimitedPage(await attempt(server, pair, "bob", "battery-staple", { headers: { "X-Forwarded-For": "127.0.0.9" } }), 900)
    // Another client behind the same proxy, and the proxy's own address, are not limited.
    expectWrongCredentials(await attempt(server, pair, "user51", "password", through("127.0.0.10")))
    expectSession(await attempt(server, pair, "bob", "battery-staple"))
  })
})

// ---- CRED-05 ----------------------------------------------------------------------------------

describe("CRED-05 throttling is not a lock-out weapon", () => {
  let smtp: SmtpSink
  beforeAll(async () => {
    smtp = await startSmtp()
  })
  afterAll(async () => {
    await smtp.close()
  })

  it("with alice's credentials limit tripped, she signs in with her passkey and a magic link; the trip is logged once per window", async () => {
    const WINDOW = 4
    const logged: Error[] = []
    const byEmail = Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      async authorize(fields) {
        return fields.email === ALICE.email && fields.password === "correct-horse" ? { id: ALICE.id, email: ALICE.email, name: ALICE.name } : null
      },
    })
    const built = inEnv(() =>
      buildPasskeyApp({
        providers: [Passkey(), Nodemailer({ server: smtp.url }), byEmail],
        config: {
          logger: { error: (error: Error) => void logged.push(error) },
          // Small email and passkey limits: had the methods shared counters, the credentials attempts would exhaust them.
          rateLimit: {
            credentials: { ip: { limit: 10, window: WINDOW }, identifier: { limit: 3, window: WINDOW } },
            email: { ip: { limit: 5, window: WINDOW }, identifier: { limit: 5, window: WINDOW } },
            webauthn: { ip: { limit: 5, window: WINDOW } },
          },
        },
      }),
    )
    const soft = softFor()
    await seedUser(built.adapter, ALICE)
    // Alice proved her address when she signed up (an unproven one would be taken back by her
    // magic link below, issue #12: her passkey removed, and a notice page first).
    await built.adapter.updateUser({ id: ALICE.id, emailVerified: new Date() })
    await seedPasskey(built.adapter, ALICE.id, soft, 5)
    const served = await listen(built.app)
    servers.push(served)
    const rateLimitLogs = () => logged.filter((error) => (error as { type?: string }).type === "RateLimited")
    const credentialsFrom = async (browser: Browser, email: string, password: string) =>
      browser.post("/auth/callback/credentials", { csrfToken: await browser.csrf(), email, password })

    // The attacker, from 127.0.0.2: 3 guesses allowed, then 7 refused; one log line for them.
    const attacker = new BoundBrowser(built.app, TLS, served.port, "127.0.0.2")
    for (let i = 0; i < 3; i++) expectWrongCredentials(await credentialsFrom(attacker, ALICE.email, `guess${i}`), TLS.origin)
    for (let i = 3; i < 10; i++) expect((await credentialsFrom(attacker, ALICE.email, `guess${i}`)).status).toBe(429)
    expect(rateLimitLogs()).toHaveLength(1)

    // alice, from 127.0.0.1: her password is refused while the window lasts...
    const alice = new Browser(built.app)
    expectLimitedPage(await credentialsFrom(alice, ALICE.email, "correct-horse"), WINDOW)
    // ...and someone else at her address uses up its credentials limit too (10 attempts, then 429).
    for (let i = 0; i < 9; i++) expectWrongCredentials(await credentialsFrom(alice, `other${i}@example.com`, "x"), TLS.origin)
    for (let i = 0; i < 3; i++) expect((await credentialsFrom(alice, "other@example.com", "x")).status).toBe(429)
    expect(rateLimitLogs()).toHaveLength(2)

    // The passkey: signed in.
    const { res: passkey } = await passkeySignIn(alice, soft)
    expectSignedIn(passkey)
    expect(storedCounter(built.adapter, soft.id)).toBe(6)
    expect((await alice.session())?.user?.email).toBe(ALICE.email)

    // The magic link, from the same address and for the same identifier string: signed in.
    const mailer = new Browser(built.app)
    const ask = await mailer.post("/auth/signin/nodemailer", { csrfToken: await mailer.csrf(), email: ALICE.email })
    expect(ask.status).toBe(302)
    expect(new URL(String(ask.headers.location)).pathname).toBe("/auth/verify-request")
    const [mail] = await smtp.waitFor(1)
    const link = linkIn(mail!)
    expect(link.searchParams.get("email")).toBe(ALICE.email)
    // Issue #19: the link opens a confirm page; its button posts the token.
    const confirm = await mailer.get(`${link.pathname}${link.search}`)
    expect(confirm.status).toBe(200)
    const callback = await mailer.post(link.pathname, {
      csrfToken: await mailer.csrf(),
      token: link.searchParams.get("token")!,
      email: link.searchParams.get("email")!,
      callbackUrl: link.searchParams.get("callbackUrl")!,
    })
    expectSignedIn(callback)
    expect((await mailer.session())?.user?.email).toBe(ALICE.email)

    // Still inside the window: the credentials limit was in force all along.
    const stillLimited = await credentialsFrom(new Browser(built.app), ALICE.email, "correct-horse")
    const wait = expectLimitedPage(stillLimited, WINDOW)
    // Not a permanent lock: once the window ends, her password works.
    await sleep(wait * 1000 + 150)
    const later = new Browser(built.app)
    const res = await credentialsFrom(later, ALICE.email, "correct-horse")
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`${TLS.origin}/`)
    expect((await later.session())?.user?.email).toBe(ALICE.email)
    // Two limits tripped in the window, two log lines, for 13 refused requests.
    expect(rateLimitLogs()).toHaveLength(2)
    expect(rateLimitLogs()[0]!.message).toMatch(/credentials/)
    expect(rateLimitLogs()[0]!.message).not.toContain(ALICE.email)
  }, 20_000)
})

// ---- EMAIL-08 ---------------------------------------------------------------------------------

describe("EMAIL-08 no account enumeration; sending is rate-limited", () => {
  async function prodSite() {
    const restore = withEnvEmail({ NODE_ENV: "production", AUTH_URL: undefined })
    try {
      return await startSite({ config: { trustHost: true } })
    } finally {
      restore()
    }
  }

  it("existing and unknown addresses answer alike; after 5 per address 429, and the mails and rows stop at the limit; 30 per client address", async () => {
    const site = await prodSite()
    await site.memory.createUser({ id: "user-alice", email: ALICE_EMAIL, name: "Alice", emailVerified: null })
    const rows = () => site.memory.store.tokens.size
    const agent = site.agent()

    const known = await askForLink(agent, ALICE_EMAIL)
    const unknown = await askForLink(agent, "nobody@example.com")
    for (const res of [known, unknown]) {
      expect(res.status).toBe(302)
      expect(res.headers.location).toBe(`${site.url}/auth/verify-request?provider=nodemailer&type=email`)
    }
    const shape = (res: typeof known) => JSON.stringify([res.status, res.headers.location, (res.headers["set-cookie"] as unknown as string[] | undefined)?.map((line) => line.replace(/=[^;]*/, "=")) ?? []])
    expect(shape(known)).toBe(shape(unknown))
    await site.smtp.waitFor(2)
    expect(rows()).toBe(2)

    // 20 more for alice: 4 more are sent (5 in all), then 429 with Retry-After; nothing more is sent or stored.
    const statuses: number[] = []
    let limited: Awaited<ReturnType<typeof askForLink>> | undefined
    for (let i = 0; i < 20; i++) {
      const res = await askForLink(agent, ALICE_EMAIL)
      statuses.push(res.status)
      if (res.status === 429) limited = res
    }
    expect(statuses).toEqual([...Array(4).fill(302), ...Array(16).fill(429)])
    expectLimitedPage(limited!, 3600)
    const toAlice = () => site.smtp.messages.filter((message) => message.envelope.to.includes(ALICE_EMAIL)).length
    expect(toAlice()).toBe(5)
    expect(site.smtp.messages).toHaveLength(6)
    expect(rows()).toBe(6)
    // Written another way, still alice's counter.
    expect((await askForLink(agent, "  ALICE@Example.COM ")).status).toBe(429)

    // 20 different addresses from the same client: its 30 requests an hour (23 used) leave 7.
    const others: number[] = []
    for (let i = 0; i < 20; i++) others.push((await askForLink(agent, `person${i}@example.com`)).status)
    expect(others).toEqual([...Array(7).fill(302), ...Array(13).fill(429)])
    expect(site.smtp.messages).toHaveLength(13)
    expect(rows()).toBe(13)
    // A refused unknown address looks like a refused known one.
    const refusedUnknown = await askForLink(agent, "nobody2@example.com")
    const refusedKnown = await askForLink(agent, ALICE_EMAIL)
    expect(refusedUnknown.status).toBe(429)
    // The address each typed is kept on the page (issue #26): the rest is the same.
    const page = (res: typeof refusedKnown) => res.text.replace(/value="[0-9a-f]{32,}"/g, 'value="<token>"').replaceAll("nobody2@example.com", "<typed>").replaceAll(ALICE_EMAIL, "<typed>")
    expect(refusedKnown.status).toBe(429)
    expect(page(refusedUnknown)).toBe(page(refusedKnown))
    expect(site.smtp.messages).toHaveLength(13)
  })
})

// ---- passkey verification ---------------------------------------------------------------------

describe("passkey verification is limited per client address", () => {
  it("after 50 verifications from one address, even a genuine assertion gets 429; another address still signs in", async () => {
    const built = inEnv(() => buildPasskeyApp())
    const soft = softFor()
    await seedUser(built.adapter, ALICE)
    await seedPasskey(built.adapter, ALICE.id, soft, 5)
    const served = await listen(built.app)
    servers.push(served)
    const browser = new Browser(built.app)
    for (let i = 0; i < 50; i++) {
      const res = await browser.callback("authenticate", { id: `guess-${i}`, rawId: `guess-${i}`, type: "public-key", response: {} })
      expect(res.status).toBe(302)
      expect(new URL(String(res.headers.location)).searchParams.get("error")).toBe("WebAuthnVerificationError")
    }
    const { res } = await passkeySignIn(browser, soft)
    expectLimitedPage(res, 900)
    expect(findSession(res)).toBe(false)
    expect(storedCounter(built.adapter, soft.id)).toBe(5)
    expect(await browser.session()).toBeNull()
    // JSON clients (the page's script) get the JSON form.
    const json = await browser.callback("authenticate", { id: "x" }, {}, "passkey", { Accept: "application/json" })
    expectLimitedJson(json, 900)
    // From 127.0.0.2 the same passkey signs in.
    const other = new BoundBrowser(built.app, TLS, served.port, "127.0.0.2")
    expectSignedIn((await passkeySignIn(other, soft)).res)
    expect(storedCounter(built.adapter, soft.id)).toBe(soft.signCount)
    expect(soft.signCount).toBeGreaterThan(5)
  })
})

function findSession(res: BrowserRes): boolean {
  return (res.headers["set-cookie"] as unknown as string[] | undefined)?.some((line) => line.startsWith(`${names().session}=`) && !line.startsWith(`${names().session}=;`)) ?? false
}

// ---- defaults ---------------------------------------------------------------------------------

describe("defaults: on in production, off otherwise; rateLimit: false turns it off; invalid options throw", () => {
  /** 15 wrong passwords for alice, then the right one: the statuses, and the last answer. */
  async function fifteenThenCorrect(overrides: Partial<AuthConfig>, nodeEnv: string) {
    const { server, pair } = await started(overrides, nodeEnv)
    const statuses: number[] = []
    for (let i = 0; i < 15; i++) statuses.push((await attempt(server, pair, "alice", `guess${i}`)).status)
    const last = await attempt(server, pair, "alice", "correct-horse")
    return { statuses: [...statuses, last.status], last }
  }
  const ON = [...Array(10).fill(302), ...Array(6).fill(429)]
  const OFF = Array(16).fill(302)

  async function expectOn(overrides: Partial<AuthConfig>, nodeEnv: string) {
    const { statuses, last } = await fifteenThenCorrect(overrides, nodeEnv)
    expect(statuses).toEqual(ON)
    expectLimitedPage(last, 900)
  }

  async function expectOff(overrides: Partial<AuthConfig>, nodeEnv: string) {
    const { statuses, last } = await fifteenThenCorrect(overrides, nodeEnv)
    expect(statuses).toEqual(OFF)
    expectSession(last)
  }

  it("NODE_ENV=production: on with the documented limits", async () => {
    await expectOn({}, "production")
  })

  it("NODE_ENV=development (or test): off", async () => {
    await expectOff({}, "development")
    await expectOff({}, "test")
  })

  it("rateLimit: false in production: off; rateLimit: true in development: on", async () => {
    await expectOff({ rateLimit: false }, "production")
    await expectOff({ rateLimit: { enabled: false } }, "production")
    await expectOff({ rateLimit: { credentials: false } }, "production")
    await expectOn({ rateLimit: true }, "development")
    await expectOn({ rateLimit: { enabled: true } }, "test")
  })

  it("invalid options throw InvalidOption naming the path, in production and in development", () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ credentials: { identifier: { limit: 0, window: 60 } } }, /rateLimit\.credentials\.identifier/],
      [{ email: { ip: { limit: 5, window: "1h" } } }, /rateLimit\.email\.ip/],
      [{ webauthn: true }, /rateLimit\.webauthn/],
      [{ credentails: { identifier: { limit: 3, window: 60 } } }, /rateLimit\.credentails/],
      ["on", /rateLimit/],
    ]
    for (const nodeEnv of ["production", "development"]) {
      for (const [rateLimit, path] of cases) {
        let thrown: unknown
        try {
          inEnv(() => buildApp(AUTH_URL, { rateLimit: rateLimit as AuthConfig["rateLimit"] }), nodeEnv)
        } catch (error) {
          thrown = error
        }
        expect(thrown).toBeInstanceOf(InvalidOption)
        expect((thrown as Error).message).toMatch(path)
      }
    }
  })
})

// ---- the 429 answer ---------------------------------------------------------------------------

describe("the 429 answer", () => {
  it("the built-in sign-in page, rendered in place: 429, Retry-After, the message, the form to try again later, no-store", async () => {
    const { server, pair } = await started({ rateLimit: { credentials: { identifier: { limit: 1, window: 120 } } } })
    expectWrongCredentials(await attempt(server, pair, "alice", "guess"))
    const res = await attempt(server, pair, "alice", "correct-horse", { accept: "text/html" })
    expectLimitedPage(res, 120)
    expect(res.text).toMatch(/<form[^>]+action="[^"]*\/auth\/callback\/credentials"/)
    expect(String(res.headers["cache-control"])).toContain("no-store")
    expect(res.headers.location).toBeUndefined()
  })

  it("JSON clients: 429 with Retry-After and a named error", async () => {
    const { server, pair } = await started({ rateLimit: { credentials: { identifier: { limit: 1, window: 120 } } } })
    await attempt(server, pair, "alice", "guess")
    const res = await call(server, "POST", "/auth/callback/credentials", {
      cookie: pair.cookie,
      json: { csrfToken: pair.token, username: "alice", password: "correct-horse" },
      accept: "application/json",
    })
    expectLimitedJson(res, 120)
  })

  it("a custom pages.signIn gets a redirect with error=RateLimited (and no session)", async () => {
    const { server, pair } = await started({ pages: { signIn: "/login" }, rateLimit: { credentials: { identifier: { limit: 1, window: 120 } } } })
    await attempt(server, pair, "alice", "guess")
    const res = await attempt(server, pair, "alice", "correct-horse")
    expect(res.status).toBe(302)
    const location = new URL(String(res.headers.location), BASE)
    expect(`${location.origin}${location.pathname}`).toBe(`${BASE}/login`)
    expect(location.searchParams.get("error")).toBe("RateLimited")
    expect(sessionCookie(res)).toBe("")
  })
})

afterEach(() => {
  jest.restoreAllMocks()
})
