/**
 * LOAD-05 (SECURITY-CATALOG.md §15) and the scale-out: two app processes, A and B, on
 * different ports, sharing PostgreSQL (SQL adapter, database sessions, users, verification tokens)
 * and Redis (RedisStore: rate-limit counters). No proxy in front: the test sends each request to
 * the process it names, which is what a round-robin proxy would do at its worst.
 *
 * - a csrf pair from B signs in on A; the session reads on B (GET /auth/session and requireAuth);
 * - sign-out on A ends the session on B (the record is deleted);
 * - the credentials limit per identifier (5 here) counts attempts on A and B together: five wrong
 *   passwords alternating A/B, then the right one is refused with 429 on either process;
 * - a magic link requested on A (mail in a real SMTP sink in this process) works once on B, and
 *   the same link on A afterwards ends on /auth/error?error=Verification with no session;
 * - a passkey challenge obtained on A is completed on B (a software authenticator whose counter
 *   stays 0, passkey seeded in the shared tables); the same response replayed on A is refused
 *   (WA-03: the used-challenge store is shared through Redis);
 * - a short mixed load on both at once (GET /api/me with one session): zero non-2xx.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { createClient } from "redis"
import { startSmtp, linkIn, type SmtpSink } from "../helpers/smtp.js"
import { POSTGRES_URL, REDIS_URL, report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { createTables, type TestTables } from "./support/process-db.js"
import { CookieJar, SESSION_COOKIE, csrf, postForm, readSession, send, signIn, signOut, signedIn } from "./support/process-http.js"
import { runStage } from "./support/process-load.js"
import { SoftAuthenticator } from "../webauthn/soft-authenticator.js"
import { seedPasskey, seedUser } from "../webauthn/fixtures.js"

const SECRETS = JSON.stringify(["scale-secret-0123456789abcdef0123456789abcd"])
const IDENTIFIER_LIMIT = 5
const MIXED_REQUESTS = Number(process.env.RESILIENCE_REQUESTS ?? 20_000) / 4

let tables: TestTables
let smtp: SmtpSink
let A: AppProcess
let B: AppProcess
let redis: ReturnType<typeof createClient>
const redisPrefix = `gh-res-scale-${randomBytes(4).toString("hex")}:`
const rows: Record<string, string | number>[] = []

beforeAll(async () => {
  tables = await createTables("scale")
  smtp = await startSmtp()
  redis = createClient({ url: REDIS_URL })
  redis.on("error", () => undefined)
  await redis.connect()
  const env = {
    GH_SECRETS: SECRETS,
    GH_DB: POSTGRES_URL,
    GH_TABLE_PREFIX: tables.prefix,
    GH_STRATEGY: "database",
    GH_REDIS_URL: REDIS_URL,
    GH_REDIS_PREFIX: redisPrefix,
    GH_SMTP: smtp.url,
    GH_PASSKEY: "1",
    GH_RATE_LIMIT: JSON.stringify({
      credentials: { ip: { limit: 10_000, window: 900 }, identifier: { limit: IDENTIFIER_LIMIT, window: 900 } },
      email: { ip: { limit: 10_000, window: 3600 }, identifier: { limit: 100, window: 3600 } },
    }),
  }
  ;[A, B] = await Promise.all([startApp("A", env), startApp("B", env)])
})

afterAll(async () => {
  await stopAll()
  await tables?.drop()
  await smtp?.close()
  if (redis) {
    const keys = await redis.keys(`${redisPrefix}*`)
    if (keys.length) await redis.del(keys)
    redis.destroy()
  }
  report("LOAD-05 two processes sharing PostgreSQL and Redis", rows)
})

describe("LOAD-05 two processes sharing PostgreSQL and Redis", () => {
  test("a csrf pair from B signs in on A; the session reads on B", async () => {
    const jar = await signedIn(B.origin, A.origin, "alice", "correct-horse")
    expect((await readSession(B.origin, jar)).body?.user?.email).toBe("alice@example.com")
    const me = await send(jar, `${B.origin}/api/me`, { headers: { accept: "application/json" } })
    expect(me.status).toBe(200)
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe("alice@example.com")
    rows.push({ check: "sign in on A (csrf from B), read on B", result: "signed in on B" })
  })

  test("sign-out on A ends the session on B", async () => {
    const jar = await signedIn(A.origin, A.origin, "alice", "correct-horse")
    const copied = jar.header() // what B will be sent, as a copy kept from before the sign-out
    const token = jar.cookies.get(SESSION_COOKIE) as string
    expect((await readSession(B.origin, jar)).body?.user?.email).toBe("alice@example.com")
    const out = await signOut(A.origin, jar)
    expect(out.status).toBe(302)
    const row = await tables.adapter.db.selectFrom(`${tables.prefix}sessions`).select("id").where("session_token", "=", token).executeTakeFirst()
    expect(row).toBeUndefined()
    const onB = await fetch(`${B.origin}/auth/session`, { headers: { cookie: copied } })
    expect(await onB.json()).toBeNull()
    const meOnB = await fetch(`${B.origin}/api/me`, { headers: { cookie: copied, accept: "application/json" } })
    expect(meOnB.status).toBe(401)
    rows.push({ check: "sign out on A, read on B", result: "signed out on B (record deleted)" })
  })

  test("the credentials limit counts attempts on A and B together", async () => {
    const statuses: string[] = []
    for (let i = 0; i < IDENTIFIER_LIMIT; i++) {
      const app = i % 2 === 0 ? A : B
      const response = await signIn(app.origin, app.origin, new CookieJar(), "bob", `guess-${i}`)
      statuses.push(`${app.name}:${response.status}`)
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toContain("error=CredentialsSignin")
    }
    // A per-process count would stand at 3 on A and 2 on B: both would still let bob in.
    for (const app of [A, B]) {
      const response = await signIn(app.origin, app.origin, new CookieJar(), "bob", "battery-staple")
      statuses.push(`${app.name}:${response.status}`)
      expect(response.status).toBe(429)
      expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/)
      expect(response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`) && !/max-age=0/i.test(line))).toBe(false)
    }
    expect(await redis.keys(`${redisPrefix}rl:credentials:id:*`)).toHaveLength(1)
    rows.push({ check: `${IDENTIFIER_LIMIT} wrong passwords A/B, then the right one on A and B`, result: statuses.join(" ") })
  })

  /** Opens the link on `origin` (the confirm page, issue #19) and presses its button: the POST's answer. */
  async function confirmLink(origin: string, jar: CookieJar, path: string): Promise<Response> {
    const page = await send(jar, `${origin}${path}`)
    expect(page.status).toBe(200)
    const html = await page.text()
    const fields = Object.fromEntries([...html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replaceAll("&#34;", '"').replaceAll("&amp;", "&")]))
    return postForm(origin, path.slice(0, path.indexOf("?")), jar, fields)
  }

  test("a magic link requested on A works once on B, then fails on A with Verification", async () => {
    const jar = new CookieJar()
    const csrfToken = await csrf(A.origin, jar)
    const requested = await postForm(A.origin, "/auth/signin/nodemailer", jar, { csrfToken, email: "carol@example.com", callbackUrl: "/api/me" })
    expect(requested.status).toBe(302)
    expect(requested.headers.get("location")).toContain("/auth/verify-request")
    const [mail] = await smtp.waitFor(1)
    expect(mail!.envelope.to).toEqual(["carol@example.com"])
    const link = linkIn(mail!)
    const path = `${link.pathname}${link.search}`

    const onB = new CookieJar()
    const first = await confirmLink(B.origin, onB, path)
    expect(first.status).toBe(302)
    expect(first.headers.get("location")).toMatch(/\/api\/me$/)
    expect((await readSession(A.origin, onB)).body?.user?.email).toBe("carol@example.com")

    const onA = new CookieJar()
    const second = await confirmLink(A.origin, onA, path)
    expect(second.status).toBe(302)
    const location = new URL(second.headers.get("location") ?? "", "http://app.test:3000")
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("Verification")
    expect(onA.cookies.has(SESSION_COOKIE)).toBe(false)
    rows.push({ check: "magic link from A: followed on B, then on A", result: `B ${first.status} signed in; A ${second.status} error=Verification` })
  })

  test("a one-time code asked for on A (issue #19) is typed on B by the same browser, once", async () => {
    const jar = new CookieJar()
    const before = smtp.messages.length
    const requested = await postForm(A.origin, "/auth/signin/nodemailer", jar, { csrfToken: await csrf(A.origin, jar), email: "dave@example.com", callbackUrl: "/api/me" })
    expect(requested.status).toBe(302)
    const mail = (await smtp.waitFor(before + 1))[before]!
    const code = /: ([0-9 ]+)$/m.exec(mail.mail.text ?? "")![1]!.replaceAll(" ", "")
    const typed = await postForm(B.origin, "/auth/callback/nodemailer", jar, { csrfToken: await csrf(B.origin, jar), code })
    expect(typed.status).toBe(302)
    expect(typed.headers.get("location")).toMatch(/\/api\/me$/)
    expect((await readSession(A.origin, jar)).body?.user?.email).toBe("dave@example.com")
    // Its link, on A: spent by the code.
    const link = linkIn(mail)
    const onA = new CookieJar()
    const second = await confirmLink(A.origin, onA, `${link.pathname}${link.search}`)
    expect(new URL(second.headers.get("location") ?? "", "http://app.test:3000").searchParams.get("error")).toBe("Verification")
    rows.push({ check: "one-time code from A: typed on B, then its link on A", result: `B ${typed.status} signed in; A ${second.status} error=Verification` })
  })

  test("a passkey challenge from A completes on B once; the replay on A is refused", async () => {
    const soft = new SoftAuthenticator({ rpId: "app.test", origin: "http://app.test:3000" })
    soft.counting = false
    // Erin: dave signed up by the email test above (one address, one user).
    const erin = await seedUser(tables.adapter, { id: "user-erin", email: "erin@example.com", name: "Erin" })
    await seedPasskey(tables.adapter, erin.id, soft, 0)

    const victim = new CookieJar()
    const options = await send(victim, `${A.origin}/auth/webauthn-options/passkey?action=authenticate`, { headers: { accept: "application/json" } })
    expect(options.status).toBe(200)
    const challengeCookie = victim.header()
    const data = JSON.stringify(soft.authenticate(((await options.json()) as { options: Parameters<SoftAuthenticator["authenticate"]>[0] }).options))
    const complete = async (origin: string, jar: CookieJar) => {
      const csrfToken = await csrf(origin, jar)
      return postForm(origin, "/auth/callback/passkey", jar, { csrfToken, action: "authenticate", data, callbackUrl: "/api/me" })
    }
    const onB = await complete(B.origin, victim)
    expect(onB.status).toBe(302)
    expect(onB.headers.get("location")).toMatch(/\/api\/me$/)
    expect((await readSession(A.origin, victim)).body?.user?.email).toBe("erin@example.com")
    // B recorded the used challenge in Redis, where A looks.
    expect(await redis.keys(`${redisPrefix}webauthn-challenge:*`)).toHaveLength(1)

    const attacker = new CookieJar()
    for (const pair of challengeCookie.split("; ")) attacker.cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1))
    attacker.cookies.delete(SESSION_COOKIE)
    const replay = await complete(A.origin, attacker)
    expect(replay.status).toBe(302)
    expect(replay.headers.get("location")).toContain("error=WebAuthnVerificationError")
    expect(attacker.cookies.has(SESSION_COOKIE)).toBe(false)
    rows.push({ check: "passkey challenge from A: completed on B, replayed on A", result: `B ${onB.status} signed in; A ${replay.status} WebAuthnVerificationError` })
  })

  test("a mixed load on both processes at once: zero errors, zero non-2xx", async () => {
    const jar = await signedIn(A.origin, B.origin, "load-1", "pw-1")
    const cookie = jar.header()
    const requests = (fail: (reason: string) => void) => [
      {
        method: "GET",
        path: "/api/me",
        headers: { cookie, accept: "application/json" },
        onResponse: (status: number, body: string) => {
          if (status !== 200 || !body.includes("load-1@example.com")) fail(`/api/me answered ${status}`)
        },
      },
      { method: "GET", path: "/auth/session", headers: { cookie } },
      { method: "GET", path: "/auth/csrf" },
    ]
    const [onA, onB] = await Promise.all([runStage(A, MIXED_REQUESTS, requests, { connections: 25 }), runStage(B, MIXED_REQUESTS, requests, { connections: 25 })])
    for (const [name, stage] of [["A", onA], ["B", onB]] as const) {
      rows.push({ check: `mixed load on ${name}`, result: `${stage.requests} requests, ${Math.round(stage.perSecond)} req/s, p99 ${stage.p99} ms, errors ${stage.errors}, non-2xx ${stage.bad}` })
      expect(stage.requests).toBe(MIXED_REQUESTS)
      expect(stage.errors).toBe(0)
      expect(stage.bad).toBe(0)
      expect(stage.reasons).toBeUndefined()
    }
  })
})
