/**
 * The storage engines the database-session suites run against (not a test file): the memory
 * adapter and the SQL adapter on SQLite (in memory), PostgreSQL and MariaDB. Each engine has a
 * back door that reads and changes rows without the adapter's queries, plus small HTTP helpers
 * shared by the suites. Every agent sends `Host: app.test`, so the site's origin is fixed.
 */
import { jest } from "@jest/globals"
import { sql } from "kysely"
import type { Express } from "express"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import type { SqlAdapterInstance } from "../../adapters/sql/index.js"
import type { AnyDb } from "../../adapters/sql/codec.js"
import { adapterMethods, type AdapterMethod, type TransactionalAdapter } from "../../lib/core/adapter.js"
import { CAPABILITIES } from "../../lib/capabilities.js"
import type { Adapter } from "../../lib/adapters.js"
import { findCookie, request, type Agent } from "../helpers/app.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix, type DatabaseName } from "../helpers/databases.js"

/** Every adapter method Gatehouse calls, the core's and the capabilities'. */
const ADAPTER_METHODS = adapterMethods(CAPABILITIES)

export const HOST = "app.test"
export const ORIGIN = `http://${HOST}`
export const SESSION = "authjs.session-token"

export type EngineName = "memory" | DatabaseName

export interface SessionRow {
  /** The record id (SQL engines); the memory adapter keeps none. */
  id: string | null
  sessionToken: string
  userId: string
  expires: Date
}

export interface Counts {
  users: number
  accounts: number
  sessions: number
}

export interface Engine {
  readonly name: EngineName
  open(): Promise<void>
  close(): Promise<void>
  /** Empties every table (a new store for memory); build apps after it. */
  reset(): Promise<void>
  /** The adapter under test (the current one: memory gets a new one on each reset). */
  adapter(): TransactionalAdapter
  counts(): Promise<Counts>
  sessions(): Promise<SessionRow[]>
  session(token: string): Promise<SessionRow | null>
  accounts(): Promise<Array<{ userId: string; provider: string; providerAccountId: string; type: string }>>
  setExpires(token: string, expires: Date): Promise<void>
  /** Deletes the user row alone: its sessions stay behind (foreign keys bypassed). */
  deleteUserRowOnly(userId: string): Promise<void>
  /** The SQL adapter (PostgreSQL fault tests); throws for memory. */
  sql(): SqlAdapterInstance
  readonly prefix: string
}

const text = (value: unknown): string => (Buffer.isBuffer(value) ? value.toString("utf8") : String(value))
const instant = (value: unknown): Date => (value instanceof Date ? new Date(value.getTime()) : new Date(Number(value)))

function memoryEngine(): Engine {
  let current: MemoryAdapterInstance = MemoryAdapter()
  const toRow = (s: { sessionToken: string; userId: string; expires: Date }): SessionRow => ({ id: null, ...s, expires: new Date(s.expires.getTime()) })
  return {
    name: "memory",
    prefix: "",
    open: async () => undefined,
    close: async () => undefined,
    reset: async () => {
      current = MemoryAdapter()
    },
    adapter: () => current,
    counts: async () => ({ users: current.store.users.size, accounts: current.store.accounts.size, sessions: current.store.sessions.size }),
    sessions: async () => [...current.store.sessions.values()].map(toRow),
    session: async (token) => {
      const found = current.store.sessions.get(token)
      return found ? toRow(found) : null
    },
    accounts: async () => [...current.store.accounts.values()].map((a) => ({ userId: a.userId, provider: a.provider, providerAccountId: a.providerAccountId, type: a.type })),
    setExpires: async (token, expires) => {
      const found = current.store.sessions.get(token)
      if (!found) throw new Error(`no session ${token}`)
      found.expires = expires
    },
    deleteUserRowOnly: async (userId) => {
      current.store.users.delete(userId)
    },
    sql: () => {
      throw new Error("the memory engine has no SQL database")
    },
  }
}

function sqlEngine(name: DatabaseName, label: string): Engine {
  const prefix = uniquePrefix(`${label}_${name.slice(0, 2)}`)
  let adapter: SqlAdapterInstance | undefined
  const db = () => {
    if (!adapter) throw new Error(`${name} is not open`)
    return adapter.db
  }
  const table = (t: string) => `${prefix}${t}`
  const toRow = (row: Record<string, unknown>): SessionRow => ({
    id: text(row.id),
    sessionToken: text(row.session_token),
    userId: text(row.user_id),
    expires: instant(row.expires),
  })
  const count = async (t: string) => Number((await db().selectFrom(table(t)).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n)
  return {
    name,
    prefix,
    open: async () => {
      adapter = await openTestDatabase(name, prefix)
    },
    close: async () => {
      if (adapter) await closeTestDatabase(adapter, prefix)
      adapter = undefined
    },
    reset: async () => {
      for (const t of ["sessions", "accounts", "verification_tokens", "authenticators", "users"]) await db().deleteFrom(table(t)).execute()
    },
    adapter: () => {
      if (!adapter) throw new Error(`${name} is not open`)
      return adapter
    },
    counts: async () => ({ users: await count("users"), accounts: await count("accounts"), sessions: await count("sessions") }),
    sessions: async () => (await db().selectFrom(table("sessions")).selectAll().execute()).map(toRow),
    session: async (token) => {
      const row = await db().selectFrom(table("sessions")).selectAll().where("session_token", "=", token).executeTakeFirst()
      return row ? toRow(row) : null
    },
    accounts: async () =>
      (await db().selectFrom(table("accounts")).selectAll().execute()).map((a) => ({
        userId: text(a.user_id),
        provider: text(a.provider),
        providerAccountId: text(a.provider_account_id),
        type: text(a.type),
      })),
    setExpires: async (token, expires) => {
      const value = name === "postgres" ? expires : expires.getTime()
      await db().updateTable(table("sessions")).set({ expires: value }).where("session_token", "=", token).execute()
    },
    deleteUserRowOnly: async (userId) => {
      const remove = (d: AnyDb) => d.deleteFrom(table("users")).where("id", "=", userId).execute()
      if (name === "postgres") {
        await db().transaction().execute(async (trx) => {
          await sql`SET LOCAL session_replication_role = replica`.execute(trx)
          await remove(trx)
        })
      } else if (name === "mariadb") {
        await db().connection().execute(async (conn) => {
          await sql`SET FOREIGN_KEY_CHECKS = 0`.execute(conn)
          try {
            await remove(conn)
          } finally {
            await sql`SET FOREIGN_KEY_CHECKS = 1`.execute(conn)
          }
        })
      } else {
        await sql`PRAGMA foreign_keys = OFF`.execute(db())
        try {
          await remove(db())
        } finally {
          await sql`PRAGMA foreign_keys = ON`.execute(db())
        }
      }
    },
    sql: () => {
      if (!adapter) throw new Error(`${name} is not open`)
      return adapter
    },
  }
}

/** The engine of that name, with tables under a prefix of its own (label: the test file's). */
export function engine(name: EngineName, label: string): Engine {
  return name === "memory" ? memoryEngine() : sqlEngine(name, label)
}

export const ENGINE_NAMES: EngineName[] = ["memory", "sqlite", "postgres", "mariadb"]

export type SpiedAdapter = TransactionalAdapter & Record<AdapterMethod, jest.Mock<(...args: unknown[]) => Promise<unknown>>>

/**
 * A view of `adapter` whose methods are jest.fn spies that call through. `transaction` is passed
 * through unspied, so calls made inside a transaction reach the adapter the transaction binds.
 */
export function spyAdapter(adapter: TransactionalAdapter): SpiedAdapter {
  const out: Record<string, unknown> = {}
  for (const method of ADAPTER_METHODS) {
    const fn = adapter[method] as ((...args: unknown[]) => Promise<unknown>) | undefined
    if (typeof fn === "function") out[method] = jest.fn((...args: unknown[]) => fn.apply(adapter, args))
  }
  if (typeof adapter.transaction === "function") {
    out.transaction = <T>(work: (tx: Adapter) => Promise<T>) => (adapter.transaction as NonNullable<TransactionalAdapter["transaction"]>)(work)
  }
  return out as SpiedAdapter
}

/** A cookie-keeping agent whose requests all carry `Host: app.test`. */
export function agentFor(app: Express): Agent {
  return request.agent(app).set("Host", HOST) as Agent
}

/** The value of the session cookie a response set ("" when it cleared it, undefined when none). */
export function sessionValue(response: { headers: Record<string, unknown> }): string | undefined {
  return findCookie(response, SESSION)?.value
}

/** A plain request (no jar) with `Host: app.test` and the given Cookie header. */
export function get(app: Express, path: string, cookie?: string, accept = "application/json") {
  const test = request(app).get(path).set("Host", HOST).set("Accept", accept)
  return cookie === undefined ? test : test.set("Cookie", cookie)
}

/** GET /auth/csrf without a jar: the token and the cookie pair to send back. */
export async function csrfPair(app: Express): Promise<{ token: string; cookie: string }> {
  const response = await get(app, "/auth/csrf").expect(200)
  const cookie = findCookie(response, "authjs.csrf-token")
  if (!cookie) throw new Error("no csrf cookie")
  return { token: response.body.csrfToken as string, cookie: `authjs.csrf-token=${cookie.value}` }
}

/** A POST without a jar, with `Host: app.test` and the given Cookie header. */
export function post(app: Express, path: string, cookie?: string) {
  const test = request(app).post(path).set("Host", HOST)
  return cookie === undefined ? test : test.set("Cookie", cookie)
}
