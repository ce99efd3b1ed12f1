/**
 * Issue #14, cookie sessions shared through the adapter (no `store`): two app instances, each
 * with its own configuration object (so its own caches, as two processes have), sharing only
 * the database: one MemoryAdapter, two SqlAdapter instances on one SQLite file, and on
 * PostgreSQL and MariaDB. Revoking one session, the others, a user, and signing out on A read as
 * signed out on B within one second (measured: a request sent more than a second after the
 * revoking response must not be answered as signed in); sessions made on either are listed on
 * both. Then what the feed promises: one poll for many concurrent reads, the database down reads
 * as what the process knows (never a 500), and the start-up rules for adapters without the methods.
 */
import { afterAll, describe, expect, it, jest } from "@jest/globals"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { SqlAdapter, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import { revokeUserSessions } from "../../lib/devices/helpers.js"
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { MissingAdapterMethods } from "../../lib/errors.js"
import { MemoryStore } from "../../lib/shared-store/memory.js"
import { AdapterRevocationFeed } from "../../lib/shared-store/revocation-feed.js"
import { makeApp, testConfig } from "../helpers/app.js"
import { agentFor } from "../database/engines.js"
import { closeTestDatabase, DATABASES, openTestDatabase, uniquePrefix } from "../helpers/databases.js"
import { signedInAlice } from "./setups.js"

type Agent = ReturnType<typeof agentFor>
const BOUND_MS = 1000
const closers: Array<() => Promise<void>> = []
const measured: Array<Record<string, string>> = []
afterAll(async () => {
  for (const close of closers.splice(0)) await close()
  console.info(`Issue #14, cookie sessions shared through the adapter (no store): ms from the revoking response until B reads signed out\n${measured.map((row) => JSON.stringify(row)).join("\n")}`)
})

/** Two adapters over one database (two instances' connections), or one shared MemoryAdapter. */
async function sharedDatabase(name: "memory" | "sqlite-file" | "postgres" | "mariadb"): Promise<[Adapter, Adapter]> {
  if (name === "memory") {
    const adapter = MemoryAdapter()
    return [adapter, adapter]
  }
  if (name === "sqlite-file") {
    const dir = mkdtempSync(join(tmpdir(), "gh14-feed-"))
    const url = `sqlite:${join(dir, "shared.db")}`
    const first = SqlAdapter(url)
    const { migrate } = await import("../../adapters/sql/index.js")
    await migrate(first.db)
    const second = SqlAdapter(url)
    closers.push(async () => {
      await first.close()
      await second.close()
      rmSync(dir, { recursive: true, force: true })
    })
    return [first, second]
  }
  const tablePrefix = uniquePrefix(`feed_${name.slice(0, 2)}`)
  const first: SqlAdapterInstance = await openTestDatabase(name, tablePrefix)
  const second = SqlAdapter(DATABASES[name], { tablePrefix })
  closers.push(async () => {
    await second.close()
    await closeTestDatabase(first, tablePrefix)
  })
  return [first, second]
}

const me = (app: Express, cookie: string) => agentFor(app).get("/api/me").set("Accept", "application/json").set("Cookie", cookie)


async function sessionsOf(agent: Agent): Promise<Array<{ id: string; current: boolean }>> {
  return (await agent.get("/auth/sessions").set("Accept", "application/json").expect(200)).body
}

async function revoke(agent: Agent, fields: Record<string, string>): Promise<void> {
  const csrfToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
  await agent.post("/auth/sessions/revoke").set("Accept", "application/json").type("form").send({ csrfToken, ...fields }).expect(200)
}

/**
 * Milliseconds from now until `app` reads `cookie` as signed out. Fails if a request sent more than
 * the bound after `since` is still answered as signed in.
 */
async function untilSignedOut(app: Express, cookie: string, since = performance.now()): Promise<number> {
  for (;;) {
    const sent = performance.now()
    const status = (await me(app, cookie)).status
    if (status === 401) return performance.now() - since
    expect(status).toBe(200)
    if (sent - since > BOUND_MS) throw new Error(`still signed in ${(sent - since).toFixed(0)} ms after the revocation`)
    await new Promise((resume) => setTimeout(resume, 5))
  }
}

describe.each(["memory", "sqlite-file", "postgres", "mariadb"] as const)("two app instances sharing a %s database, no store", (name) => {
  let A: Express
  let B: Express
  let configB: AuthConfig
  let shared: Adapter
  const row = (check: string, ms: number) => measured.push({ database: name, check, ms: ms.toFixed(1) })

  it("start: each instance keeps cookie-session revocations in the database", async () => {
    const [first, second] = await sharedDatabase(name)
    shared = first
    const configA = testConfig({ adapter: first, session: { strategy: "cookie" } })
    configB = testConfig({ adapter: second, session: { strategy: "cookie" } })
    ;[A, B] = [makeApp(configA), makeApp(configB)]
    expect(resolveConfig(configA).store.revocationFeed).toBeDefined()
  })

  it("a session revoked on A reads as signed out on B within one second; the other session stays", async () => {
    const laptop = await signedInAlice(A)
    const phone = await signedInAlice(B)
    expect((await me(B, phone.cookie)).status).toBe(200)
    // Listed on A although it started on B: the records are in the database.
    const listed = await sessionsOf(laptop.agent)
    expect(listed).toHaveLength(2)
    const phoneId = listed.find((entry) => !entry.current)!.id
    await revoke(laptop.agent, { id: phoneId })
    row("revoke one session on A, read on B", await untilSignedOut(B, phone.cookie))
    expect((await me(B, laptop.cookie)).status).toBe(200)
    expect((await me(A, phone.cookie)).status).toBe(401)
  })

  it("revoking the others on A signs the other sessions out on B, not this one", async () => {
    const keep = await signedInAlice(A)
    const other = await signedInAlice(B)
    expect((await me(B, other.cookie)).status).toBe(200)
    await revoke(keep.agent, { others: "1" })
    row("revoke others on A, read on B", await untilSignedOut(B, other.cookie))
    expect((await me(B, keep.cookie)).status).toBe(200)
  })

  it("revokeUserSessions on B signs the user out on A", async () => {
    const first = await signedInAlice(A)
    const second = await signedInAlice(A)
    for (const session of [first, second]) expect((await me(A, session.cookie)).status).toBe(200)
    const since = performance.now()
    // Credentials users are stored in the adapter when there is one (with an id of its own).
    const userId = (await shared.getUserByEmail?.("alice@example.com"))?.id ?? "user-alice"
    await revokeUserSessions(userId, configB)
    row("revokeUserSessions on B, read on A", Math.max(await untilSignedOut(A, first.cookie, since), await untilSignedOut(A, second.cookie, since)))
  })

  it("sign-out on A: the cookie copied before, replayed on B, reads as signed out", async () => {
    const { agent, cookie } = await signedInAlice(A)
    expect((await me(B, cookie)).status).toBe(200)
    const csrfToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
    await agent.post("/auth/signout").type("form").send({ csrfToken }).expect(302)
    row("sign out on A, replay on B", await untilSignedOut(B, cookie))
  })
})

/** A MemoryAdapter whose revocation reads can be counted, slowed or made to fail. */
function instrumented() {
  const inner = MemoryAdapter()
  const control = { polls: 0, inFlight: 0, fail: false, failWrites: false, delayMs: 0, hang: false, release: () => undefined as void }
  const adapter: Adapter = {
    ...inner,
    async addSessionRevocation(revocation) {
      if (control.failWrites) throw new Error("connection refused")
      return inner.addSessionRevocation(revocation)
    },
    async listCookieSessions(userId) {
      if (control.failWrites) throw new Error("connection refused")
      return inner.listCookieSessions(userId)
    },
    async listSessionRevocations(filter) {
      control.polls++
      control.inFlight++
      try {
        if (control.delayMs) await new Promise((resume) => setTimeout(resume, control.delayMs))
        // A database that does not answer until the test lets it.
        if (control.hang) await new Promise<void>((resume) => (control.release = resume))
        if (control.fail) throw new Error("connection refused")
        return await inner.listSessionRevocations(filter)
      } finally {
        control.inFlight--
      }
    },
  }
  return { adapter, control }
}

describe("the revocation feed", () => {
  it("many concurrent reads on a stale feed share one poll; reads within the next half second make none", async () => {
    const { adapter, control } = instrumented()
    const app = makeApp(testConfig({ adapter, session: { strategy: "cookie" } }))
    const { cookie } = await signedInAlice(app)
    await new Promise((resume) => setTimeout(resume, BOUND_MS + 50))
    control.polls = 0
    control.delayMs = 50
    const started = Date.now()
    const statuses = await Promise.all(Array.from({ length: 30 }, () => me(app, cookie).then((response) => response.status)))
    expect(statuses).toEqual(Array(30).fill(200))
    control.delayMs = 0
    for (let i = 0; i < 10; i++) expect((await me(app, cookie)).status).toBe(200)
    // One poll for all 40 reads. A feed older than half a second is refreshed in the background,
    // so on a machine too loaded to serve them within that, one more poll per half second is due.
    expect(control.polls).toBeGreaterThanOrEqual(1)
    expect(control.polls).toBeLessThanOrEqual(1 + Math.floor((Date.now() - started) / 500))
  })

  it("the database down: reads answer from what this process knows (signed in, or revoked here), never a 500; the failure is logged", async () => {
    const { adapter, control } = instrumented()
    const errors: unknown[] = []
    const logger = { error: (error: unknown) => errors.push(error), warn: () => undefined, debug: () => undefined }
    const config = testConfig({ adapter, logger, logLevel: "error", session: { strategy: "cookie" } })
    const app = makeApp(config)
    const kept = await signedInAlice(app)
    const ended = await signedInAlice(app)
    control.fail = true
    await new Promise((resume) => setTimeout(resume, BOUND_MS + 50))
    expect((await me(app, kept.cookie)).status).toBe(200)
    await revoke(kept.agent, { id: (await sessionsOf(ended.agent)).find((entry) => entry.current)!.id })
    const polls = control.polls
    const started = Date.now()
    for (let i = 0; i < 20; i++) {
      expect((await me(app, kept.cookie)).status).toBe(200)
      expect((await me(app, ended.cookie)).status).toBe(401)
    }
    // The failed database is not asked again on every read: at most one poll per retry interval (2 s).
    expect(control.polls - polls).toBeLessThanOrEqual(1 + Math.ceil((Date.now() - started) / 2000))
    expect(errors.map((error) => String((error as Error).message))).toContainEqual(expect.stringContaining("Reading session revocations from the database failed"))
    control.fail = false
  })

  it("the database refusing writes: revoking answers 503 AdapterError (nothing recorded); sign-out still signs out, on this process", async () => {
    const { adapter, control } = instrumented()
    const app = makeApp(testConfig({ adapter, session: { strategy: "cookie" } }))
    const { agent, cookie } = await signedInAlice(app)
    control.failWrites = true
    const csrfToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
    const refused = await agent.post("/auth/sessions/revoke").set("Accept", "application/json").type("form").send({ csrfToken, others: "1" })
    expect(refused.status).toBe(503)
    expect(refused.body).toMatchObject({ error: { type: "AdapterError" } })
    expect((await me(app, cookie)).status).toBe(200)
    const signOutToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
    await agent.post("/auth/signout").type("form").send({ csrfToken: signOutToken }).expect(302)
    expect((await me(app, cookie)).status).toBe(401)
    control.failWrites = false
  })

  it("a poll that hangs does not hold a read (it gives up on it after one second)", async () => {
    const { adapter, control } = instrumented()
    const app = makeApp(testConfig({ adapter, session: { strategy: "cookie" } }))
    const { cookie } = await signedInAlice(app)
    await new Promise((resume) => setTimeout(resume, BOUND_MS + 50))
    control.hang = true
    // The read answers while the database still has not: the poll is still in flight.
    expect((await me(app, cookie)).status).toBe(200)
    expect(control.polls).toBeGreaterThanOrEqual(1)
    expect(control.inFlight).toBe(1)
    control.hang = false
    control.release()
  })
})

describe("adapters without the cookie-session methods", () => {
  it("an adapter with only some of them is refused at start-up with MissingAdapterMethods", () => {
    const { listSessionRevocations: _dropped, ...partial } = MemoryAdapter()
    expect(() => resolveConfig(testConfig({ adapter: partial, session: { strategy: "cookie" } }))).toThrow(MissingAdapterMethods)
  })

  it("an adapter with none of them (an Auth.js adapter): this process's memory keeps revocations, and production warns", () => {
    const { putCookieSession: _a, listCookieSessions: _b, deleteCookieSessions: _c, addSessionRevocation: _d, listSessionRevocations: _e, ...plain } = MemoryAdapter()
    const warn = jest.fn()
    const previous = process.env.NODE_ENV
    process.env.NODE_ENV = "production"
    try {
      const resolved = resolveConfig(testConfig({ adapter: plain, session: { strategy: "cookie" }, logger: { error: () => undefined, warn, debug: () => undefined }, logLevel: "warn", trustHost: true }))
      // This process's memory, not a feed polling the adapter.
      expect(resolved.store).toBeInstanceOf(MemoryStore)
      expect(resolved.store.revocationFeed).not.toBeInstanceOf(AdapterRevocationFeed)
      expect(typeof resolved.store.revokeSid).toBe("function")
    } finally {
      process.env.NODE_ENV = previous
    }
    expect(warn.mock.calls.map((call) => String(call[0]))).toContainEqual(expect.stringContaining("session-revocation-local"))
  })
})
