/**
 * SCIM provisioning (issue #29) on two app processes, A and B, sharing PostgreSQL (SQL adapter:
 * users, organizations, members, SCIM tokens and users) and Redis (RedisStore with a subscriber:
 * the channel that drops a changed user's memberships and carries session revocations to every
 * process). Cookie sessions; each process keeps its own membership cache.
 *
 * The directory provisions a user through A's SCIM endpoint; the user signs in on B and is allowed
 * on its `requireAuth({ permission: "project:read" })` route. The directory then deactivates them
 * through A (Okta's PATCH `replace {active: false}`): they have no other membership, so every
 * session of theirs ends, and B must refuse them within one second of A's answer. B is polled every
 * ~20 ms; the time is printed and bound by the one second. Then the same for a reactivated
 * user deleted through A (Entra's DELETE), and for a user who is a member of another organization
 * too (Entra's `Replace active "False"`): their sessions go on, and B's membership cache must drop
 * the directory's organization within the second (they act for the other one).
 */
import { createHash, randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { createClient } from "redis"
import { ensureBuilt } from "../helpers/build.js"
import { POSTGRES_URL, REDIS_URL, report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { createTables, type TestTables } from "./support/process-db.js"
import { CookieJar, csrf, postForm, send } from "./support/process-http.js"

const APP = fileURLToPath(new URL("./support/apps/scim-app.js", import.meta.url))
const SECRETS = JSON.stringify(["scim-two-processes-0123456789abcdef0123"])
/** The bound: a deactivated user is refused on every process within one second. */
const BOUND_MS = 1000
const POLL_MS = 20
/** How long the poll goes on before it gives up (well past the bound, so a miss prints its time). */
const GIVE_UP_MS = 5000
const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
const EMAIL = "dana.directory@example.com"

let tables: TestTables
let A: AppProcess
let B: AppProcess
let redis: ReturnType<typeof createClient>
const redisPrefix = `gh-res-scim-${randomBytes(4).toString("hex")}:`
const rows: Record<string, string | number>[] = []

let organizationId: string
let token: string
let userId: string
let user: CookieJar

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** A SCIM request to A for the organization, with its bearer token. */
async function scimOnA(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> | null }> {
  const response = await fetch(`${A.origin}/auth/scim/v2/${organizationId}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: "application/scim+json", ...(body === undefined ? {} : { "content-type": "application/scim+json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null }
}

async function signInOnB(email: string): Promise<CookieJar> {
  const jar = new CookieJar()
  const response = await postForm(B.origin, "/auth/callback/credentials", jar, { csrfToken: await csrf(B.origin, jar), email, password: "pw", callbackUrl: "/" })
  if (response.status !== 302 || ![...jar.cookies.keys()].some((name) => name.startsWith("authjs.session-token"))) {
    throw new Error(`sign-in of ${email} on B answered ${response.status} ${response.headers.get("location")}`)
  }
  return jar
}

/** The user's request to B's `project:read` route: its status, error type, and the organization it acted for. */
async function readOnB(): Promise<{ status: number; type?: string; organization?: string }> {
  const response = await send(user, `${B.origin}/api/project/read`, { headers: { accept: "application/json" } })
  const body = (await response.json()) as { error?: { type?: string }; organization?: { id?: string } }
  return { status: response.status, type: body.error?.type, organization: body.organization?.id }
}

/** The user's session as B answers it (GET /auth/session). */
async function sessionOnB(): Promise<{ user?: { email?: string }; organization?: { id: string; role: string } | null } | null> {
  return (await (await send(user, `${B.origin}/auth/session`)).json()) as { user?: { email?: string }; organization?: { id: string; role: string } | null } | null
}

/** Polls B every ~20 ms until `done` holds; the time since `since` when it first did (or the last answer when it never did). */
async function pollB(since: number, done: (answer: { status: number; type?: string; organization?: string }) => boolean): Promise<{ ms: number; answer: { status: number; type?: string; organization?: string }; polls: number }> {
  let polls = 0
  for (;;) {
    const answer = await readOnB()
    polls++
    const ms = performance.now() - since
    if (done(answer) || ms > GIVE_UP_MS) return { ms, answer, polls }
    await pause(POLL_MS)
  }
}

/** The user is allowed on B, several times in a row (B's cache holds the membership). */
async function allowedOnB(): Promise<void> {
  const back = await pollB(performance.now(), (answer) => answer.status === 200)
  expect(back.answer.status).toBe(200)
  for (let i = 0; i < 3; i++) expect(await readOnB()).toMatchObject({ status: 200, organization: organizationId })
  expect((await sessionOnB())?.organization).toMatchObject({ id: organizationId, role: "member" })
}

/** Provisions `email` through A's SCIM endpoint (as Okta's POST /Users); the user's id. */
async function provision(email: string, given: string): Promise<string> {
  const created = await scimOnA("POST", "/Users", {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
    userName: email,
    name: { givenName: given, familyName: "Directory" },
    emails: [{ primary: true, value: email, type: "work" }],
    active: true,
    groups: [],
  })
  if (created.status !== 201) throw new Error(`POST /Users on A answered ${created.status} ${JSON.stringify(created.body)}`)
  return created.body!.id as string
}

/** `POST organizations/switch` on B as the user (JSON answer). */
async function switchOnB(id: string): Promise<void> {
  const response = await postForm(B.origin, "/auth/organizations/switch", user, { csrfToken: await csrf(B.origin, user), organizationId: id }, { accept: "application/json" })
  if (response.status !== 200) throw new Error(`organizations/switch on B answered ${response.status} ${await response.text()}`)
}

beforeAll(async () => {
  // The app processes import the built package: rebuilt when a source is newer.
  await ensureBuilt()
  tables = await createTables("scim")
  await tables.adapter.createUser({ id: "u-owner", email: "owner@example.com", name: "Owner", emailVerified: new Date() })
  organizationId = `org-${randomBytes(4).toString("hex")}`
  await tables.adapter.createOrganization!({ id: organizationId, slug: `acme-${randomBytes(3).toString("hex")}`, name: "Acme", logo: null, metadata: null, roles: null, createdAt: new Date() }, { organizationId, userId: "u-owner", role: "owner", createdAt: new Date() })
  // The token an admin creates on the organization page: shown once, stored hashed.
  token = `scim_${randomBytes(24).toString("base64url")}`
  await tables.adapter.createScimToken!({ id: `tok-${randomBytes(4).toString("hex")}`, organizationId, name: "Okta", tokenHash: createHash("sha256").update(token).digest("base64url"), createdAt: new Date(), lastUsedAt: null })
  redis = createClient({ url: REDIS_URL })
  redis.on("error", () => undefined)
  await redis.connect()
  const env = { GH_SECRETS: SECRETS, GH_DB: POSTGRES_URL, GH_TABLE_PREFIX: tables.prefix, GH_REDIS_URL: REDIS_URL, GH_REDIS_PREFIX: redisPrefix }
  ;[A, B] = await Promise.all([startApp("A", env, APP), startApp("B", env, APP)])
  userId = await provision(EMAIL, "Dana")
}, 240_000)

afterAll(async () => {
  await stopAll()
  await tables?.drop()
  if (redis) {
    const keys = await redis.keys(`${redisPrefix}*`)
    if (keys.length) await redis.del(keys)
    redis.destroy()
  }
  report("SCIM on two processes sharing PostgreSQL and Redis", rows)
})

describe("SCIM on two processes sharing PostgreSQL and Redis", () => {
  test("a user the directory deactivates through A is refused on B within one second", async () => {
    user = await signInOnB(EMAIL)
    await allowedOnB()
    const deactivated = await scimOnA("PATCH", `/Users/${userId}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] })
    const since = performance.now()
    expect(deactivated.status).toBe(200)
    expect(deactivated.body).toMatchObject({ id: userId, active: false })
    const seen = await pollB(since, (answer) => answer.status !== 200)
    const ms = Math.round(seen.ms)
    console.log(`scim: deactivation seen on the other process after ${ms} ms (${seen.polls} polls of B)`)
    rows.push({ change: "deactivated through A's SCIM", "refused on B after (ms)": ms, polls: seen.polls, answer: `${seen.answer.status} ${seen.answer.type ?? ""}` })
    // No other membership: every session ended, so B reads them as signed out.
    expect(seen.answer).toEqual({ status: 401, type: "SessionRequired" })
    expect(ms).toBeLessThan(BOUND_MS)
    expect(await sessionOnB()).toBeNull()
    expect(await tables.adapter.getMember!(organizationId, userId)).toBeNull()
  })

  test("reactivated, signed in again on B, then deleted through A: refused on B within one second", async () => {
    const reactivated = await scimOnA("PATCH", `/Users/${userId}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: true } }] })
    expect(reactivated.status).toBe(200)
    user = await signInOnB(EMAIL)
    await allowedOnB()
    const deleted = await scimOnA("DELETE", `/Users/${userId}`)
    const since = performance.now()
    expect(deleted.status).toBe(204)
    const seen = await pollB(since, (answer) => answer.status !== 200)
    const ms = Math.round(seen.ms)
    console.log(`scim: deletion seen on the other process after ${ms} ms (${seen.polls} polls of B)`)
    rows.push({ change: "deleted through A's SCIM", "refused on B after (ms)": ms, polls: seen.polls, answer: `${seen.answer.status} ${seen.answer.type ?? ""}` })
    expect(seen.answer).toEqual({ status: 401, type: "SessionRequired" })
    expect(ms).toBeLessThan(BOUND_MS)
    expect((await scimOnA("GET", `/Users/${userId}`)).status).toBe(404)
  })

  test("a user who is a member elsewhere, deactivated through A, loses the organization on B within one second and stays signed in", async () => {
    const email = "erin.elsewhere@example.com"
    const erinId = await provision(email, "Erin")
    // A member of another organization too (added as the app's server code would).
    const otherId = `org-other-${randomBytes(4).toString("hex")}`
    await tables.adapter.createOrganization!({ id: otherId, slug: `other-${randomBytes(3).toString("hex")}`, name: "Other", logo: null, metadata: null, roles: null, createdAt: new Date() }, { organizationId: otherId, userId: "u-owner", role: "owner", createdAt: new Date() })
    await tables.adapter.addMember!({ organizationId: otherId, userId: erinId, role: "member", createdAt: new Date() })
    user = await signInOnB(email)
    await switchOnB(organizationId)
    await allowedOnB()
    const deactivated = await scimOnA("PATCH", `/Users/${erinId}`, { schemas: [PATCH_OP], Operations: [{ op: "Replace", path: "active", value: "False" }] })
    const since = performance.now()
    expect(deactivated.status).toBe(200)
    const seen = await pollB(since, (answer) => answer.status !== 200 || answer.organization !== organizationId)
    const ms = Math.round(seen.ms)
    console.log(`scim: deactivation of a member elsewhere seen on the other process after ${ms} ms (${seen.polls} polls of B)`)
    rows.push({ change: "deactivated through A's SCIM (member elsewhere)", "refused on B after (ms)": ms, polls: seen.polls, answer: `${seen.answer.status} ${seen.answer.organization === otherId ? "acting for the other organization" : (seen.answer.type ?? "")}` })
    // Still signed in, acting for the organization they keep.
    expect(seen.answer).toEqual({ status: 200, organization: otherId })
    expect(ms).toBeLessThan(BOUND_MS)
    expect((await sessionOnB())?.organization).toMatchObject({ id: otherId, role: "member" })
    expect(await tables.adapter.getMember!(otherId, erinId)).toMatchObject({ role: "member" })
  })
})
