/**
 * Issue #14 across processes: two app processes A and B share PostgreSQL and Redis (RedisStore
 * with a subscriber), once with database sessions and once with cookie sessions. A session
 * revoked on A (POST /auth/sessions/revoke), a sign-out on A and revokeUserSessions on B must read
 * as signed out on the other process within one second (README "Sessions and devices": the
 * push arrives in milliseconds; one second is the worst case). Each delay is measured (the first
 * read on the other process that answers 401, polled every 2 ms after the revoking response) and
 * printed. A cookie copied before the revocation, replayed on the other process, reads as signed out.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { createClient } from "redis"
import { POSTGRES_URL, REDIS_URL, report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { createTables, type TestTables } from "./support/process-db.js"
import { csrf, postForm, send, signedIn, signOut, type CookieJar } from "./support/process-http.js"

const SECRETS = JSON.stringify(["revocation-secret-0123456789abcdef012345678"])
const BOUND_MS = 1000
const rows: Record<string, string | number>[] = []
let tables: TestTables
let redis: ReturnType<typeof createClient>
const redisPrefix = `gh-res-rev-${randomBytes(4).toString("hex")}:`

beforeAll(async () => {
  tables = await createTables("revoke")
  redis = createClient({ url: REDIS_URL })
  redis.on("error", () => undefined)
  await redis.connect()
})

afterAll(async () => {
  await stopAll()
  await tables?.drop()
  if (redis) {
    const keys = await redis.keys(`${redisPrefix}*`)
    if (keys.length) await redis.del(keys)
    redis.destroy()
  }
  report("Issue #14: revocations across two processes (PostgreSQL + Redis pub/sub)", rows)
})

const me = (origin: string, cookie: string) => fetch(`${origin}/api/me`, { headers: { cookie, accept: "application/json" } })

/** Milliseconds from now until `origin` answers 401 to `cookie` (polled); fails past the bound. */
async function untilSignedOut(origin: string, cookie: string): Promise<number> {
  const start = performance.now()
  for (;;) {
    const status = (await me(origin, cookie)).status
    const elapsed = performance.now() - start
    if (status === 401) return elapsed
    expect(status).toBe(200)
    if (elapsed > BOUND_MS) throw new Error(`still signed in on the other process after ${elapsed.toFixed(0)} ms`)
    await new Promise((resume) => setTimeout(resume, 2))
  }
}

async function sessionsOf(origin: string, jar: CookieJar): Promise<Array<{ id: string; current: boolean }>> {
  const response = await send(jar, `${origin}/auth/sessions`, { headers: { accept: "application/json" } })
  expect(response.status).toBe(200)
  return (await response.json()) as Array<{ id: string; current: boolean }>
}

describe.each(["database", "cookie"] as const)("two processes, %s sessions", (strategy) => {
  let A: AppProcess
  let B: AppProcess
  beforeAll(async () => {
    const env = {
      GH_SECRETS: SECRETS,
      GH_DB: POSTGRES_URL,
      GH_TABLE_PREFIX: tables.prefix,
      GH_STRATEGY: strategy,
      GH_REDIS_URL: REDIS_URL,
      GH_REDIS_PREFIX: `${redisPrefix}${strategy}:`,
      GH_ADMIN: "1",
    }
    ;[A, B] = await Promise.all([startApp(`A-${strategy}`, env), startApp(`B-${strategy}`, env)])
  })

  test("a session revoked on A reads as signed out on B within one second; its copied cookie replayed on B too", async () => {
    const laptop = await signedIn(A.origin, A.origin, "alice", "correct-horse")
    const phone = await signedIn(A.origin, A.origin, "alice", "correct-horse")
    const copied = phone.header()
    expect((await me(B.origin, copied)).status).toBe(200) // B has read (and cached) it
    const phoneId = (await sessionsOf(A.origin, phone)).find((entry) => entry.current)!.id
    const response = await postForm(A.origin, "/auth/sessions/revoke", laptop, { csrfToken: await csrf(A.origin, laptop), id: phoneId }, { accept: "application/json" })
    expect(response.status).toBe(200)
    const delay = await untilSignedOut(B.origin, copied)
    rows.push({ strategy, check: "revoke one session on A, read on B", "ms until B reads signed out": delay.toFixed(1) })
    expect((await me(B.origin, laptop.header())).status).toBe(200)
    expect((await me(A.origin, copied)).status).toBe(401)
  })

  test("sign-out on A: the cookie copied before, replayed on B, reads as signed out", async () => {
    const jar = await signedIn(A.origin, A.origin, "alice", "correct-horse")
    const copied = jar.header()
    expect((await me(B.origin, copied)).status).toBe(200)
    expect((await signOut(A.origin, jar)).status).toBe(302)
    const delay = await untilSignedOut(B.origin, copied)
    rows.push({ strategy, check: "sign out on A, replay the copied cookie on B", "ms until B reads signed out": delay.toFixed(1) })
  })

  test("revokeUserSessions on B ends the user's sessions read on A", async () => {
    const first = await signedIn(A.origin, A.origin, "alice", "correct-horse")
    const second = await signedIn(B.origin, B.origin, "alice", "correct-horse")
    const bob = await signedIn(A.origin, A.origin, "bob", "battery-staple")
    for (const jar of [first, second]) expect((await me(A.origin, jar.header())).status).toBe(200)
    const userId = String((await tables.adapter.getUserByEmail("alice@example.com"))!.id)
    const response = await fetch(`${B.origin}/__revoke-user/${encodeURIComponent(userId)}`, { method: "POST" })
    expect(response.status).toBe(200)
    const delays = [await untilSignedOut(A.origin, first.header()), await untilSignedOut(A.origin, second.header())]
    rows.push({ strategy, check: "revokeUserSessions on B, read on A", "ms until B reads signed out": delays.map((ms) => ms.toFixed(1)).join(", ") })
    expect((await me(A.origin, bob.header())).status).toBe(200)
  })
})
