/**
 * Organizations (issue #27) on two app processes, A and B, sharing PostgreSQL (SQL adapter: users,
 * organizations, members) and Redis (RedisStore with a subscriber: the channel that drops a changed
 * user's memberships in every process). Cookie sessions; each process keeps its own membership
 * cache (lib/organizations/memberships.ts).
 *
 * The owner, signed in on A, demotes a member (admin -> member) and later removes them; the
 * member's requests to B's `requireAuth({ permission: "project:write" })` route, allowed just
 * before each change (B's cache warm with the old role), must be refused within one second of A's
 * answer to the change. B is polled every ~20 ms; the time from A's answer to B's first refusal is
 * printed and bound by the one second.
 */
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { createClient } from "redis"
import { POSTGRES_URL, REDIS_URL, report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { createTables, type TestTables } from "./support/process-db.js"
import { CookieJar, csrf, postForm, send } from "./support/process-http.js"

const APP = fileURLToPath(new URL("./support/apps/organizations-app.js", import.meta.url))
const SECRETS = JSON.stringify(["organizations-two-processes-0123456789abcdef"])
/** The bound: a role change or removal takes effect on every process within one second. */
const BOUND_MS = 1000
const POLL_MS = 20
/** How long the poll goes on before it gives up (well past the bound, so a miss prints its time). */
const GIVE_UP_MS = 5000

let tables: TestTables
let A: AppProcess
let B: AppProcess
let redis: ReturnType<typeof createClient>
const redisPrefix = `gh-res-orgs-${randomBytes(4).toString("hex")}:`
const rows: Record<string, string | number>[] = []

let owner: CookieJar
let member: CookieJar
let organizationId: string

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

async function signInAs(origin: string, email: string): Promise<CookieJar> {
  const jar = new CookieJar()
  const response = await postForm(origin, "/auth/callback/credentials", jar, { csrfToken: await csrf(origin, jar), email, password: "pw", callbackUrl: "/" })
  if (response.status !== 302 || ![...jar.cookies.keys()].some((name) => name.startsWith("authjs.session-token"))) {
    throw new Error(`sign-in of ${email} on ${origin} answered ${response.status} ${response.headers.get("location")}`)
  }
  return jar
}

/** `POST organizations/<action>` on `origin` as the jar's user, as an SPA sends it (JSON answer). */
async function act(origin: string, jar: CookieJar, action: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await postForm(origin, `/auth/organizations/${action}`, jar, { csrfToken: await csrf(origin, jar), ...fields }, { accept: "application/json" })
  const body = (await response.json()) as Record<string, unknown>
  if (response.status !== 200) throw new Error(`organizations/${action} answered ${response.status} ${JSON.stringify(body)}`)
  return body
}

/** The member's request to B's `project:write` route: its status and error type. */
async function writeOnB(): Promise<{ status: number; type?: string }> {
  const response = await send(member, `${B.origin}/api/project/write`, { headers: { accept: "application/json" } })
  const body = (await response.json()) as { error?: { type?: string } }
  return { status: response.status, type: body.error?.type }
}

/** The member's session as B answers it (GET /auth/session): its `organization`. */
async function sessionOnB(): Promise<{ organization?: { id: string; role: string; permissions: string[] } | null }> {
  return (await (await send(member, `${B.origin}/auth/session`)).json()) as { organization?: { id: string; role: string; permissions: string[] } | null }
}

/** Polls B every ~20 ms until `done` holds; the time since `since` when it first did (or the last answer when it never did). */
async function pollB(since: number, done: (answer: { status: number; type?: string }) => boolean): Promise<{ ms: number; answer: { status: number; type?: string }; polls: number }> {
  let polls = 0
  for (;;) {
    const answer = await writeOnB()
    polls++
    const ms = performance.now() - since
    if (done(answer) || ms > GIVE_UP_MS) return { ms, answer, polls }
    await pause(POLL_MS)
  }
}

/** The member is allowed on B, several times in a row (B's cache holds the current role). */
async function allowedOnB(): Promise<void> {
  const back = await pollB(performance.now(), (answer) => answer.status === 200)
  expect(back.answer.status).toBe(200)
  for (let i = 0; i < 3; i++) expect((await writeOnB()).status).toBe(200)
}

beforeAll(async () => {
  tables = await createTables("orgs")
  for (const [id, email] of [["u-owner", "owner@example.com"], ["u-member", "member@example.com"]] as const) {
    await tables.adapter.createUser({ id, email, name: id, emailVerified: new Date() })
  }
  redis = createClient({ url: REDIS_URL })
  redis.on("error", () => undefined)
  await redis.connect()
  const env = { GH_SECRETS: SECRETS, GH_DB: POSTGRES_URL, GH_TABLE_PREFIX: tables.prefix, GH_REDIS_URL: REDIS_URL, GH_REDIS_PREFIX: redisPrefix }
  ;[A, B] = await Promise.all([startApp("A", env, APP), startApp("B", env, APP)])
  owner = await signInAs(A.origin, "owner@example.com")
  member = await signInAs(B.origin, "member@example.com")
  const created = (await act(A.origin, owner, "create", { name: "Acme", slug: `acme-${randomBytes(3).toString("hex")}` })) as { organization: { id: string } }
  organizationId = created.organization.id
  // Added as the app's server code would (addMember): no action adds a user without their consent.
  await tables.adapter.addMember!({ organizationId, userId: "u-member", role: "admin", createdAt: new Date() })
})

afterAll(async () => {
  await stopAll()
  await tables?.drop()
  if (redis) {
    const keys = await redis.keys(`${redisPrefix}*`)
    if (keys.length) await redis.del(keys)
    redis.destroy()
  }
  report("organizations on two processes sharing PostgreSQL and Redis", rows)
})

describe("organizations on two processes sharing PostgreSQL and Redis", () => {
  test("a member demoted on A is refused project:write on B within one second", async () => {
    await allowedOnB()
    expect((await sessionOnB()).organization).toMatchObject({ id: organizationId, role: "admin" })
    const changed = await act(A.origin, owner, "role", { organizationId, userId: "u-member", role: "member" })
    const since = performance.now()
    expect((changed.member as { role: string }).role).toBe("member")
    const seen = await pollB(since, (answer) => answer.status !== 200)
    const ms = Math.round(seen.ms)
    console.log(`organizations: demotion seen on the other process after ${ms} ms (${seen.polls} polls of B)`)
    rows.push({ change: "admin -> member on A", "refused on B after (ms)": ms, polls: seen.polls, answer: `${seen.answer.status} ${seen.answer.type ?? ""}` })
    expect(seen.answer).toEqual({ status: 403, type: "PermissionDenied" })
    expect(ms).toBeLessThan(BOUND_MS)
    expect((await sessionOnB()).organization).toMatchObject({ id: organizationId, role: "member", permissions: ["project:read"] })
  })

  test("a member removed on A is refused on B within one second", async () => {
    // Admin again (seen on B), so the removal is the change that takes project:write away.
    await act(A.origin, owner, "role", { organizationId, userId: "u-member", role: "admin" })
    await allowedOnB()
    const removed = await act(A.origin, owner, "remove-member", { organizationId, userId: "u-member" })
    const since = performance.now()
    expect(removed).toEqual({ removed: true })
    const seen = await pollB(since, (answer) => answer.status !== 200)
    const ms = Math.round(seen.ms)
    console.log(`organizations: removal seen on the other process after ${ms} ms (${seen.polls} polls of B)`)
    rows.push({ change: "removed on A", "refused on B after (ms)": ms, polls: seen.polls, answer: `${seen.answer.status} ${seen.answer.type ?? ""}` })
    // In no organization any more: the route says so.
    expect(seen.answer).toEqual({ status: 403, type: "OrganizationRequired" })
    expect(ms).toBeLessThan(BOUND_MS)
    expect((await sessionOnB()).organization).toBeNull()
  })
})
