/**
 * API keys (issue #31) on two app processes, A and B, sharing PostgreSQL (SQL adapter: users,
 * keys, bans) and Redis (RedisStore with a subscriber: the channel that carries key revocations
 * and session revocations to every process). Each process keeps its own cache of the keys it has
 * checked, trusted for one second; the channel is what makes a change on A reach B sooner.
 *
 * The key's owner signs in on A and makes a key there (`POST /auth/api-keys/create`); B's
 * `requireAuth({ apiKey: true })` route takes it several times (B's cache warm). Then, on A:
 * - the owner revokes the key (`POST /auth/api-keys/revoke`): B must refuse it with 401
 *   `ApiKeyInvalid` within one second of A's answer;
 * - or an admin bans the owner (`POST /auth/admin/ban`): B must refuse the key with 403
 *   `UserBanned` within one second; once the ban is lifted the key (never revoked) works again.
 * B is polled every ~20 ms, and the time from A's answer to B's first refusal is printed and
 * bound by the one second.
 */
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { createClient } from "redis"
import { ensureBuilt } from "../helpers/build.js"
import { POSTGRES_URL, REDIS_URL, report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { createTables, type TestTables } from "./support/process-db.js"
import { CookieJar, csrf, postForm } from "./support/process-http.js"

const APP = fileURLToPath(new URL("./support/apps/api-keys-app.js", import.meta.url))
const SECRETS = JSON.stringify(["api-keys-two-processes-0123456789abcdef01"])
/** The bound: a revoked key, or a banned owner's, is refused on every process within one second. */
const BOUND_MS = 1000
const POLL_MS = 20
/** How long the poll goes on before it gives up (well past the bound, so a miss prints its time). */
const GIVE_UP_MS = 5000
const ADMIN = { id: "u-keys-admin", email: "keys-admin@example.com" }
const REVOKER = { id: "u-keys-revoker", email: "keys-revoker@example.com" }
const BANNED = { id: "u-keys-banned", email: "keys-banned@example.com" }

type Answer = { status: number; type?: string; via?: string }

let tables: TestTables
let redis: ReturnType<typeof createClient>
const redisPrefix = `gh-res-keys-${randomBytes(4).toString("hex")}:`
const rows: Record<string, string | number>[] = []
let A: AppProcess
let B: AppProcess

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

async function signInAs(origin: string, email: string): Promise<CookieJar> {
  const jar = new CookieJar()
  const response = await postForm(origin, "/auth/callback/credentials", jar, { csrfToken: await csrf(origin, jar), email, password: "pw", callbackUrl: "/" })
  const location = response.headers.get("location") ?? ""
  if (response.status !== 302 || /error=/.test(location)) throw new Error(`sign-in of ${email} on ${origin} answered ${response.status} ${location}`)
  return jar
}

/** `POST <path>` on `origin` as the jar's user, as an app's own page would send it (JSON answer). */
async function act(origin: string, jar: CookieJar, path: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await postForm(origin, path, jar, { csrfToken: await csrf(origin, jar), ...fields }, { accept: "application/json" })
  const body = (await response.json()) as Record<string, unknown>
  if (response.status !== 200) throw new Error(`${path} answered ${response.status} ${JSON.stringify(body)}`)
  return body
}

/** A key of the jar's user, made on `origin`: the key and its id. */
async function newKey(origin: string, jar: CookieJar, name: string): Promise<{ key: string; id: string }> {
  const created = (await act(origin, jar, "/auth/api-keys/create", { name })) as { key: string; apiKey: { id: string } }
  return { key: created.key, id: created.apiKey.id }
}

/** The `requireAuth({ apiKey: true })` route on `origin` called with `key`: status, error type, how it was let in. */
async function me(origin: string, key: string): Promise<Answer> {
  const response = await fetch(`${origin}/api/me`, { headers: { accept: "application/json", authorization: `Bearer ${key}` } })
  const body = (await response.json()) as { error?: { type?: string }; via?: string }
  return response.status === 200 ? { status: 200, via: body.via } : { status: response.status, type: body.error?.type }
}

/** Polls `origin` every ~20 ms until `done` holds; the time since `since` when it first did (or the last answer when it never did). */
async function poll(origin: string, key: string, since: number, done: (answer: Answer) => boolean): Promise<{ ms: number; answer: Answer; polls: number }> {
  let polls = 0
  for (;;) {
    const answer = await me(origin, key)
    polls++
    const ms = performance.now() - since
    if (done(answer) || ms > GIVE_UP_MS) return { ms, answer, polls }
    await pause(POLL_MS)
  }
}

const ACCEPTED: Answer = { status: 200, via: "apiKey" }

/** The key works on B several times in a row: B has checked (and cached) it as live. */
async function warmOnB(key: string): Promise<void> {
  for (let i = 0; i < 4; i++) expect(await me(B.origin, key)).toEqual(ACCEPTED)
}

beforeAll(async () => {
  // The app processes import the built package: rebuilt when a source is newer.
  await ensureBuilt()
  tables = await createTables("api_keys")
  for (const user of [ADMIN, REVOKER, BANNED]) await tables.adapter.createUser({ id: user.id, email: user.email, name: user.id, emailVerified: new Date() })
  redis = createClient({ url: REDIS_URL })
  redis.on("error", () => undefined)
  await redis.connect()
  const env = { GH_SECRETS: SECRETS, GH_DB: POSTGRES_URL, GH_TABLE_PREFIX: tables.prefix, GH_REDIS_URL: REDIS_URL, GH_REDIS_PREFIX: redisPrefix, GH_ADMIN_IDS: ADMIN.id }
  ;[A, B] = await Promise.all([startApp("A-keys", env, APP), startApp("B-keys", env, APP)])
}, 240_000)

afterAll(async () => {
  await stopAll()
  await tables?.drop()
  if (redis) {
    const keys = await redis.keys(`${redisPrefix}*`)
    if (keys.length) await redis.del(keys)
    redis.destroy()
  }
  report("API keys on two processes sharing PostgreSQL and Redis", rows)
})

describe("API keys on two processes sharing PostgreSQL and Redis", () => {
  test("a key revoked on A is refused on B within one second", async () => {
    const owner = await signInAs(A.origin, REVOKER.email)
    const { key, id } = await newKey(A.origin, owner, "revoked on A")
    await warmOnB(key)

    const revoked = await act(A.origin, owner, "/auth/api-keys/revoke", { keyId: id })
    const since = performance.now()
    expect(revoked).toMatchObject({ revoked: true, apiKey: { id } })
    const seen = await poll(B.origin, key, since, (answer) => answer.status !== 200)
    const ms = Math.round(seen.ms)
    console.log(`api keys: key revoked on A refused on the other process after ${ms} ms (${seen.polls} polls of B)`)
    rows.push({ change: "key revoked on A", "refused on B after (ms)": ms, polls: seen.polls, answer: `${seen.answer.status} ${seen.answer.type ?? ""}` })
    expect(seen.answer).toEqual({ status: 401, type: "ApiKeyInvalid" })
    expect(ms).toBeLessThan(BOUND_MS)
    // Refused for good on both, not a passing miss.
    expect(await me(B.origin, key)).toEqual({ status: 401, type: "ApiKeyInvalid" })
    expect(await me(A.origin, key)).toEqual({ status: 401, type: "ApiKeyInvalid" })
  })

  test("a key whose owner is banned on A is refused on B within one second, and works again once the ban is lifted", async () => {
    const owner = await signInAs(A.origin, BANNED.email)
    const { key } = await newKey(A.origin, owner, "owner banned on A")
    await warmOnB(key)

    const admin = await signInAs(A.origin, ADMIN.email)
    const banned = await act(A.origin, admin, "/auth/admin/ban", { userId: BANNED.id, reason: "leaked keys" })
    const since = performance.now()
    expect(banned).toEqual({ banned: true, ban: { reason: "leaked keys", expires: null } })
    const seen = await poll(B.origin, key, since, (answer) => answer.status !== 200)
    const ms = Math.round(seen.ms)
    console.log(`api keys: owner banned on A, key refused on the other process after ${ms} ms (${seen.polls} polls of B)`)
    rows.push({ change: "owner banned on A", "refused on B after (ms)": ms, polls: seen.polls, answer: `${seen.answer.status} ${seen.answer.type ?? ""}` })
    expect(seen.answer).toEqual({ status: 403, type: "UserBanned" })
    expect(ms).toBeLessThan(BOUND_MS)
    expect(await me(B.origin, key)).toEqual({ status: 403, type: "UserBanned" })
    expect(await me(A.origin, key)).toEqual({ status: 403, type: "UserBanned" })

    // The ban ended the owner's sessions, not the key: lifted, the key is taken again (within the
    // cache's second on B, which may still hold the refusal).
    expect(await act(A.origin, admin, "/auth/admin/unban", { userId: BANNED.id })).toEqual({ unbanned: true })
    const lifted = performance.now()
    const back = await poll(B.origin, key, lifted, (answer) => answer.status === 200)
    console.log(`api keys: ban lifted on A, key taken again on the other process after ${Math.round(back.ms)} ms`)
    rows.push({ change: "ban lifted on A", "refused on B after (ms)": `taken again after ${Math.round(back.ms)}`, polls: back.polls, answer: `${back.answer.status} ${back.answer.via ?? ""}` })
    expect(back.answer).toEqual(ACCEPTED)
  })
})
