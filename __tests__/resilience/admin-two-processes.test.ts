/**
 * Bans (issue #30) on two app processes, A and B, sharing PostgreSQL (SQL adapter: users, bans,
 * and the session records of the database strategy) and Redis (RedisStore with a subscriber: the
 * channel that carries session revocations to every process). Run once with cookie sessions (a
 * ban sets the user's "not before" in the shared store) and once with database sessions (a ban
 * deletes the user's rows); each process keeps its own caches of what it read.
 *
 * The user signs in on B and B's `requireAuth` route answers 200 several times (B's caches warm);
 * the admin, signed in on A, bans the user there (`POST /auth/admin/ban`). B must refuse the user
 * within one second of A's answer: B is polled every ~20 ms, and the time from A's answer to B's
 * first refusal is printed and bound by the one second. A new sign-in on B is then refused
 * with `UserBanned` (the ban is stored, not only the sessions ended); once A lifts the ban the user
 * signs in on B again.
 */
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { createClient } from "redis"
import { ensureBuilt } from "../helpers/build.js"
import { POSTGRES_URL, REDIS_URL, report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { createTables, type TestTables } from "./support/process-db.js"
import { CookieJar, csrf, postForm, send } from "./support/process-http.js"

const APP = fileURLToPath(new URL("./support/apps/admin-app.js", import.meta.url))
const SECRETS = JSON.stringify(["admin-two-processes-0123456789abcdef01234"])
/** The bound: a banned user is refused on every process within one second. */
const BOUND_MS = 1000
const POLL_MS = 20
/** How long the poll goes on before it gives up (well past the bound, so a miss prints its time). */
const GIVE_UP_MS = 5000
const ADMIN = { id: "u-admin", email: "admin@example.com" }

type Answer = { status: number; type?: string }

let tables: TestTables
let redis: ReturnType<typeof createClient>
const redisPrefix = `gh-res-admin-${randomBytes(4).toString("hex")}:`
const rows: Record<string, string | number>[] = []

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** A credentials sign-in on `origin` in a fresh jar: the POST's answer and the jar. */
async function trySignIn(origin: string, email: string): Promise<{ response: Response; jar: CookieJar }> {
  const jar = new CookieJar()
  const response = await postForm(origin, "/auth/callback/credentials", jar, { csrfToken: await csrf(origin, jar), email, password: "pw", callbackUrl: "/" })
  return { response, jar }
}

/**
 * A jar holding `jar`'s cookies as they are now. The polls send the cookies of just before the ban
 * each time: a refusal that clears the cookie must not make the next request a trivially
 * signed-out one.
 */
function copyOf(jar: CookieJar): CookieJar {
  const copy = new CookieJar()
  for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
  return copy
}

const hasSession = (jar: CookieJar) => [...jar.cookies.keys()].some((name) => name.startsWith("authjs.session-token"))

async function signInAs(origin: string, email: string): Promise<CookieJar> {
  const { response, jar } = await trySignIn(origin, email)
  const location = response.headers.get("location") ?? ""
  if (response.status !== 302 || /error=/.test(location) || !hasSession(jar)) throw new Error(`sign-in of ${email} on ${origin} answered ${response.status} ${location}`)
  return jar
}

/** `POST admin/<action>` on `origin` as the jar's admin, as a back office sends it (JSON answer). */
async function adminAct(origin: string, jar: CookieJar, action: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await postForm(origin, `/auth/admin/${action}`, jar, { csrfToken: await csrf(origin, jar), ...fields }, { accept: "application/json" })
  const body = (await response.json()) as Record<string, unknown>
  if (response.status !== 200) throw new Error(`admin/${action} answered ${response.status} ${JSON.stringify(body)}`)
  return body
}

/** The jar's request to the `requireAuth` route on `origin`: its status and error type. */
async function me(origin: string, jar: CookieJar): Promise<Answer> {
  const response = await send(jar, `${origin}/api/me`, { headers: { accept: "application/json" } })
  const body = (await response.json()) as { error?: { type?: string } }
  return { status: response.status, type: body.error?.type }
}

/** Polls `origin` every ~20 ms until `done` holds; the time since `since` when it first did (or the last answer when it never did). */
async function poll(origin: string, jar: CookieJar, since: number, done: (answer: Answer) => boolean): Promise<{ ms: number; answer: Answer; polls: number }> {
  let polls = 0
  for (;;) {
    const answer = await me(origin, copyOf(jar))
    polls++
    const ms = performance.now() - since
    if (done(answer) || ms > GIVE_UP_MS) return { ms, answer, polls }
    await pause(POLL_MS)
  }
}

beforeAll(async () => {
  // The app processes import the built package: rebuilt when a source is newer.
  await ensureBuilt()
  tables = await createTables("admin")
  await tables.adapter.createUser({ id: ADMIN.id, email: ADMIN.email, name: "Admin", emailVerified: new Date() })
  redis = createClient({ url: REDIS_URL })
  redis.on("error", () => undefined)
  await redis.connect()
}, 240_000)

afterAll(async () => {
  await stopAll()
  await tables?.drop()
  if (redis) {
    const keys = await redis.keys(`${redisPrefix}*`)
    if (keys.length) await redis.del(keys)
    redis.destroy()
  }
  report("bans on two processes sharing PostgreSQL and Redis", rows)
})

describe.each(["cookie", "database"] as const)("bans on two processes sharing PostgreSQL and Redis (%s sessions)", (strategy) => {
  let A: AppProcess
  let B: AppProcess
  // A user of this run's own, so the other strategy's ban leaves no trace on them.
  const user = { id: `u-banned-${strategy}`, email: `banned-${strategy}@example.com` }

  beforeAll(async () => {
    await tables.adapter.createUser({ id: user.id, email: user.email, name: "Banned", emailVerified: new Date() })
    const env = { GH_SECRETS: SECRETS, GH_DB: POSTGRES_URL, GH_TABLE_PREFIX: tables.prefix, GH_REDIS_URL: REDIS_URL, GH_REDIS_PREFIX: `${redisPrefix}${strategy}:`, GH_STRATEGY: strategy, GH_ADMIN_IDS: ADMIN.id }
    ;[A, B] = await Promise.all([startApp(`A-${strategy}`, env, APP), startApp(`B-${strategy}`, env, APP)])
  }, 60_000)

  afterAll(async () => {
    await Promise.all([A?.stop(), B?.stop()])
  })

  test("a user banned on A is refused on B within one second, and cannot sign in on B until unbanned", async () => {
    const admin = await signInAs(A.origin, ADMIN.email)
    const jar = await signInAs(B.origin, user.email)
    // Allowed on B several times in a row: B has read (and cached) the session as live.
    for (let i = 0; i < 4; i++) expect(await me(B.origin, jar)).toEqual({ status: 200 })

    const held = copyOf(jar)
    const banned = await adminAct(A.origin, admin, "ban", { userId: user.id, reason: "spam" })
    const since = performance.now()
    expect(banned).toEqual({ banned: true, ban: { reason: "spam", expires: null } })
    const seen = await poll(B.origin, held, since, (answer) => answer.status !== 200)
    const ms = Math.round(seen.ms)
    console.log(`admin (${strategy} sessions): ban on A seen on the other process after ${ms} ms (${seen.polls} polls of B)`)
    rows.push({ sessions: strategy, change: "banned on A", "refused on B after (ms)": ms, polls: seen.polls, answer: `${seen.answer.status} ${seen.answer.type ?? ""}` })
    expect(seen.answer).toEqual({ status: 401, type: "SessionRequired" })
    expect(ms).toBeLessThan(BOUND_MS)
    // Refused for good, not a passing miss.
    expect(await me(B.origin, copyOf(held))).toEqual({ status: 401, type: "SessionRequired" })

    // The ban is stored: a new sign-in on B (the password is right) gets no session.
    const again = await trySignIn(B.origin, user.email)
    expect(again.response.status).toBe(302)
    expect(new URL(again.response.headers.get("location") ?? "", B.origin).searchParams.get("error")).toBe("UserBanned")
    expect(hasSession(again.jar)).toBe(false)
    expect(await me(B.origin, again.jar)).toEqual({ status: 401, type: "SessionRequired" })
    // The admin's own session on A goes on.
    expect(await me(A.origin, admin)).toEqual({ status: 200 })

    expect(await adminAct(A.origin, admin, "unban", { userId: user.id })).toEqual({ unbanned: true })
    const back = await signInAs(B.origin, user.email)
    expect(await me(B.origin, back)).toEqual({ status: 200 })
    // The session the ban ended stays ended: lifting a ban lets the user sign in, it revives nothing.
    expect(await me(B.origin, copyOf(held))).toEqual({ status: 401, type: "SessionRequired" })
  })
})
