/**
 * Issue #24 (10): "sign out everywhere else" ends every other session of the user, listed or not.
 * A session can be missing from the list: the memory store and the memory adapter keep a user's
 * newest 100 records only, and a record can be lost (written while the store was down, or a
 * store restarted). Before the fix, only listed sessions and those started before the current
 * one ended, so a session started later but no longer listed (the thief's) stayed signed in.
 *
 * Cookie sessions on every store that keeps them: the memory store and the memory adapter (the
 * real 100-record cap), and RedisStore, SQLite, PostgreSQL and MariaDB (MongoDB when MONGODB_URI
 * is set) with the thief's record deleted behind Gatehouse's back. Each time the user's own
 * session stays signed in, also after a second "everywhere else" from a newer session (which
 * ends the first one) and after revokeUserSessions (which ends all).
 */
import { afterAll, describe, expect, it } from "@jest/globals"
import { randomUUID } from "node:crypto"
import type { Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { MAX_RECORDS_PER_USER } from "../../adapters/memory/cookie-sessions.js"
import type { Adapter } from "../../lib/adapters.js"
import { revokeUserSessions } from "../../lib/devices/helpers.js"
import { MAX_SESSIONS_PER_USER } from "../../lib/shared-store/memory-sessions.js"
import type { AuthConfig } from "../../lib/types.js"
import { makeApp, signInAs, testConfig } from "../helpers/app.js"
import { agentFor } from "../database/engines.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix } from "../helpers/databases.js"
import { redisStore, sessionCookieHeader } from "./setups.js"

type Agent = ReturnType<typeof agentFor>
const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers.splice(0)) await close()
})

const me = async (app: Express, cookie: string) => (await agentFor(app).get("/api/me").set("Accept", "application/json").set("Cookie", cookie)).status

async function signedIn(app: Express): Promise<{ agent: Agent; cookie: string }> {
  const agent = agentFor(app)
  const response = await signInAs(agent, "alice")
  expect(response.status).toBe(302)
  return { agent, cookie: sessionCookieHeader(response) }
}

async function sessionsOf(agent: Agent): Promise<Array<{ id: string; current: boolean }>> {
  return (await agent.get("/auth/sessions").set("Accept", "application/json").expect(200)).body
}

async function everywhereElse(agent: Agent): Promise<number> {
  const csrfToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
  const response = await agent.post("/auth/sessions/revoke").set("Accept", "application/json").type("form").send({ csrfToken, others: "1" })
  expect(response.status).toBe(200)
  return response.body.revoked as number
}

interface Case {
  name: string
  /** The configuration, and how to make the thief's session unlisted (sign in past the cap, or delete its record). */
  setup(): Promise<{ config: AuthConfig; unlist(app: Express, thiefId: string): Promise<void> }>
}

/** Signs alice in `count` more times (the newest records push the oldest out). */
const pastTheCap = (count: number) => async (app: Express) => {
  for (let i = 0; i < count; i += 10) await Promise.all(Array.from({ length: 10 }, () => signedIn(app)))
}

/** The id the adapter gave alice (credentials users are linked to an adapter user). */
async function adapterUserId(adapter: Adapter): Promise<string> {
  return (await adapter.getUserByAccount!({ provider: "credentials", providerAccountId: "user-alice" }))!.id
}

/** Cookie sessions recorded through `adapter` (no store); the thief's record deleted behind Gatehouse's back. */
function recordLost(adapter: Adapter) {
  return {
    config: testConfig({ adapter, session: { strategy: "cookie" } }),
    unlist: async (_app: Express, thiefId: string) => adapter.deleteCookieSessions!(await adapterUserId(adapter), [thiefId]),
  }
}

async function sqlSetup(name: "sqlite" | "postgres" | "mariadb") {
  const tablePrefix = uniquePrefix(`unl_${name.slice(0, 2)}`)
  const adapter = await openTestDatabase(name, tablePrefix)
  closers.push(() => closeTestDatabase(adapter, tablePrefix))
  return recordLost(adapter)
}

const CASES: Case[] = [
  { name: "memory store (100-record cap)", setup: async () => ({ config: testConfig(), unlist: pastTheCap(MAX_SESSIONS_PER_USER) }) },
  { name: "memory adapter (100-record cap)", setup: async () => ({ config: testConfig({ adapter: MemoryAdapter(), session: { strategy: "cookie" } }), unlist: pastTheCap(MAX_RECORDS_PER_USER) }) },
  {
    name: "RedisStore (record lost)",
    setup: async () => {
      const prefix = `gh24-unlisted:${randomUUID()}:`
      const redis = await redisStore(prefix)
      closers.push(redis.close)
      return { config: testConfig({ store: redis.store }), unlist: async (_app: Express, thiefId: string) => void (await redis.client.hDel(`${prefix}sessions:user-alice`, thiefId)) }
    },
  },
  { name: "SQLite (record lost)", setup: () => sqlSetup("sqlite") },
  { name: "PostgreSQL (record lost)", setup: () => sqlSetup("postgres") },
  { name: "MariaDB (record lost)", setup: () => sqlSetup("mariadb") },
]

if (process.env.MONGODB_URI) {
  CASES.push({
    name: "MongoDB (record lost)",
    setup: async () => {
      const { MongoClient } = await import("mongodb")
      const { MongoDBAdapter } = await import("../../adapters/mongodb/index.js")
      const client = await new MongoClient(process.env.MONGODB_URI as string).connect()
      const databaseName = `gh24_unlisted_${Date.now().toString(36)}`
      closers.push(async () => {
        await client.db(databaseName).dropDatabase()
        await client.close()
      })
      return recordLost(MongoDBAdapter(client, { databaseName }) as Adapter)
    },
  })
}

describe.each(CASES)('"sign out everywhere else" ends unlisted sessions: $name', ({ setup }) => {
  it("the thief's session, started after the user's and missing from the list, ends; the user's stays", async () => {
    const { config, unlist } = await setup()
    const app = makeApp(config)
    const laptop = await signedIn(app)
    const thief = await signedIn(app)
    const thiefId = (await sessionsOf(thief.agent)).find((session) => session.current)!.id
    await unlist(app, thiefId)
    expect((await sessionsOf(laptop.agent)).map((session) => session.id)).not.toContain(thiefId)
    expect(await me(app, thief.cookie)).toBe(200)

    await everywhereElse(laptop.agent)
    expect(await me(app, thief.cookie)).toBe(401)
    expect(await me(app, laptop.cookie)).toBe(200)
    expect((await sessionsOf(laptop.agent)).filter((session) => !session.current)).toEqual([])

    // A newer session's "everywhere else" ends the laptop's (spared only by its own request).
    const phone = await signedIn(app)
    expect(await me(app, phone.cookie)).toBe(200)
    await everywhereElse(phone.agent)
    expect(await me(app, laptop.cookie)).toBe(401)
    expect(await me(app, phone.cookie)).toBe(200)

    // revokeUserSessions ends every session, the spared one included.
    await revokeUserSessions(config.adapter ? await adapterUserId(config.adapter) : "user-alice", config)
    expect(await me(app, phone.cookie)).toBe(401)
  }, 60_000)
})
