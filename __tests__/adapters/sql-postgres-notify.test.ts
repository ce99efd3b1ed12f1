/**
 * Issue #36: processes that share only a PostgreSQL database tell each other of sign-outs and
 * revocations through it (LISTEN/NOTIFY, adapters/sql/notify.ts). Each SqlAdapter opened from the
 * URL stands for one process. Checked: who hears a message (same prefix: every adapter, the sender
 * too; another prefix: none), the listening connection restored after the server ends it, close()
 * ending it, and end to end: a database session cached on B refused on B as soon as A's sign-out
 * or revocation reaches it, the clock standing still (so the cache's one second never runs out).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { sql } from "kysely"
import { SqlAdapter, MAX_TABLE_PREFIX_LENGTH, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import { channelName } from "../../adapters/sql/notify.js"
import { revokeUserSessions } from "../../lib/index.js"
import { csrfToken, makeApp, signInAs, testConfig } from "../helpers/app.js"
import { DATABASES, closeTestDatabase, openTestDatabase, uniquePrefix } from "../helpers/databases.js"
import { SESSION, agentFor, get, sessionValue, spyAdapter } from "../database/engines.js"

const URL = DATABASES.postgres
const prefix = uniquePrefix("notify")
const otherPrefix = uniquePrefix("notify_other")
const channel = channelName(prefix)
const listenQuery = `LISTEN "${channel}"`

let A: SqlAdapterInstance
let B: SqlAdapterInstance
let C: SqlAdapterInstance
const heard: Record<"A" | "B" | "C", string[]> = { A: [], B: [], C: [] }

beforeAll(async () => {
  A = await openTestDatabase("postgres", prefix)
  B = SqlAdapter(URL, { tablePrefix: prefix })
  C = SqlAdapter(URL, { tablePrefix: otherPrefix })
}, 30_000)

afterAll(async () => {
  await B?.close()
  await C?.close()
  if (A) await closeTestDatabase(A, prefix)
})

afterEach(() => {
  jest.restoreAllMocks()
})

/** Polls `check` until it holds; fails with `what` after `ms` (a deadline, not an expected speed). */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = performance.now() + ms
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resume) => setTimeout(resume, 10))
  }
}

/** The server processes listening on this file's channel (one per listening adapter). */
async function listeners(query = listenQuery): Promise<number[]> {
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where query = ${query} and datname = current_database()`.execute(C.db)
  return rows.map((row) => row.pid).sort()
}

describe("SqlAdapter on PostgreSQL: session messages (LISTEN/NOTIFY)", () => {
  it("names the channel after the table prefix, case kept, within PostgreSQL's 63 bytes", () => {
    expect(channelName("")).toBe("gatehouse_sessions")
    expect(channelName("App_")).toBe("App_gatehouse_sessions")
    expect(channelName("app_")).not.toBe(channelName("App_"))
    expect(channelName("x".repeat(MAX_TABLE_PREFIX_LENGTH)).length).toBeLessThanOrEqual(63)
  })

  it("has the methods only when opened from a PostgreSQL URL", async () => {
    expect(typeof A.publishSessionMessage).toBe("function")
    expect(typeof A.subscribeSessionMessages).toBe("function")
    const sqlite = SqlAdapter("sqlite::memory:")
    expect(sqlite.publishSessionMessage).toBeUndefined()
    expect(sqlite.subscribeSessionMessages).toBeUndefined()
    await sqlite.close()
    // Over a Kysely instance passed in, the adapter owns no connection to listen with.
    const over = SqlAdapter(A.db, { tablePrefix: prefix })
    expect(over.publishSessionMessage).toBeUndefined()
    expect(over.subscribeSessionMessages).toBeUndefined()
  })

  it("a message published by one reaches every adapter of the prefix, its own included; another prefix hears nothing", async () => {
    await Promise.all([
      A.subscribeSessionMessages!((message) => heard.A.push(message)),
      B.subscribeSessionMessages!((message) => heard.B.push(message)),
      C.subscribeSessionMessages!((message) => heard.C.push(message)),
    ])
    expect(await listeners()).toHaveLength(2)

    await B.publishSessionMessage!('{"sid":"from-b"}')
    await until("B's message on A and B", () => heard.A.includes('{"sid":"from-b"}') && heard.B.includes('{"sid":"from-b"}'))
    // C's own message, sent after B's: were C on B's channel, B's would have come first.
    await C.publishSessionMessage!('{"sid":"from-c"}')
    await until("C's message on C", () => heard.C.includes('{"sid":"from-c"}'))
    expect(heard.C).toEqual(['{"sid":"from-c"}'])
    await A.publishSessionMessage!('{"sid":"from-a"}')
    await until("A's message on A and B", () => heard.A.includes('{"sid":"from-a"}') && heard.B.includes('{"sid":"from-a"}'))
    expect(heard.A).toEqual(['{"sid":"from-b"}', '{"sid":"from-a"}'])
    expect(heard.B).toEqual(['{"sid":"from-b"}', '{"sid":"from-a"}'])
  })

  it("a listener whose connection the server ends comes back and hears what is published after", async () => {
    const before = await listeners()
    expect(before).toHaveLength(2)
    const { rows } = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended from pg_stat_activity where query = ${listenQuery} and datname = current_database()`.execute(C.db)
    expect(rows.map((row) => row.ended)).toEqual([true, true])
    // Each adapter opens a new connection (after a second) and listens again.
    await until("two new listening connections", async () => {
      const now = await listeners()
      return now.length === 2 && now.every((pid) => !before.includes(pid))
    })
    await A.publishSessionMessage!('{"sid":"after-restore"}')
    await until("the message after the restore on A and B", () => heard.A.includes('{"sid":"after-restore"}') && heard.B.includes('{"sid":"after-restore"}'))
    // Nothing was heard twice (one listening connection per adapter).
    expect(heard.B.filter((message) => message === '{"sid":"after-restore"}')).toHaveLength(1)
  })

  it("the listening connection keeps no process alive, and close() ends it", async () => {
    const prefix3 = uniquePrefix("notify_close")
    const query = `LISTEN "${channelName(prefix3)}"`
    const D = SqlAdapter(URL, { tablePrefix: prefix3 })
    const held = (kind: string) => process.getActiveResourcesInfo().filter((resource) => resource === kind).length
    const sockets = held("TCPSocketWrap")
    const timers = held("Timeout")
    // D's pool is never used: its only connection is the listening one.
    await D.subscribeSessionMessages!(() => undefined)
    // Counted before anything else opens a connection (the pool of `listeners` below); at most as
    // many as before (an idle pooled connection of another adapter may close meanwhile).
    expect(held("TCPSocketWrap")).toBeLessThanOrEqual(sockets)
    expect(held("Timeout")).toBeLessThanOrEqual(timers)
    expect(await listeners(query)).toHaveLength(1)
    await D.close()
    await until("the listening connection ended", async () => (await listeners(query)).length === 0)
    await expect(D.subscribeSessionMessages!(() => undefined)).rejects.toThrow(/closed/)
  })
})

describe("SqlAdapter on an unreachable PostgreSQL", () => {
  it("the first subscribe rejects with the connection's error; close() stops the retries", async () => {
    const down = SqlAdapter("postgres://postgres@127.0.0.1:1/test", { tablePrefix: uniquePrefix("notify_down") })
    await expect(down.subscribeSessionMessages!(() => undefined)).rejects.toThrow(/ECONNREFUSED/)
    await down.close()
  })
})

describe("two Gatehouse configurations on one PostgreSQL database, database sessions, no store", () => {
  const strategy = { strategy: "database" as const }

  it("a session cached on B is refused on B once A's sign-out reaches it, then once A's revocation of the user does", async () => {
    const configA = testConfig({ adapter: A, session: strategy })
    const appA = makeApp(configA)
    // Spies on the methods every full adapter has; the message methods are B's own.
    const spied = Object.assign(spyAdapter(B), { publishSessionMessage: B.publishSessionMessage, subscribeSessionMessages: B.subscribeSessionMessages })
    const appB = makeApp(testConfig({ adapter: spied, session: strategy }))
    const onB: string[] = []
    const readOnB = async (token: string) => (await get(appB, "/api/me", `${SESSION}=${token}`)).status

    const agent = agentFor(appA)
    const token = sessionValue(await signInAs(agent, "alice", { callbackUrl: "/home" })) as string
    expect(token).toEqual(expect.any(String))
    // The clock stands still: B's cached entries never grow old, only a message can drop them.
    jest.spyOn(Date, "now").mockReturnValue(Date.now())

    expect(await readOnB(token)).toBe(200)
    // B's configuration subscribed on that first read; this resolves once B's connection listens.
    await B.subscribeSessionMessages!((message) => onB.push(message))
    spied.getSessionAndUser.mockClear()
    expect(await readOnB(token)).toBe(200)
    expect(spied.getSessionAndUser).not.toHaveBeenCalled()

    // Control: a row deleted without a word (no message) is still read from B's cache.
    const quiet = sessionValue(await signInAs(agentFor(appA), "alice")) as string
    expect(await readOnB(quiet)).toBe(200)
    await A.deleteSession(quiet)
    expect(await readOnB(quiet)).toBe(200)

    await agent.post("/auth/signout").type("form").send({ csrfToken: await csrfToken(agent) }).expect(302)
    await until("A's sign-out on B", () => onB.some((message) => message.includes('"sid"')))
    spied.getSessionAndUser.mockClear()
    expect(await readOnB(token)).toBe(401)
    expect(spied.getSessionAndUser).toHaveBeenCalledTimes(1)

    const again = sessionValue(await signInAs(agentFor(appA), "alice")) as string
    expect(await readOnB(again)).toBe(200)
    expect(await readOnB(again)).toBe(200)
    await revokeUserSessions("user-alice", configA)
    await until("A's revocation of the user on B", () => onB.some((message) => message.includes('"user":"user-alice"')))
    expect(await readOnB(again)).toBe(401)
  })
})
