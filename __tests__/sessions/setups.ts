/**
 * The setups the sessions suites run on (not a test file): the cookie strategy with the memory
 * store and with RedisStore (real Redis, a key prefix of its own, a subscriber client), and the
 * database strategy on the memory adapter and the SQL adapter with SQLite, PostgreSQL and MariaDB.
 */
import { randomBytes } from "node:crypto"
import { expect } from "@jest/globals"
import type { Express } from "express"
import { createClient } from "redis"
import { RedisStore } from "../../lib/shared-store/redis.js"
import type { AuthConfig } from "../../lib/types.js"
import type { StateStore } from "../../lib/shared-store/types.js"
import { signInAs, testConfig } from "../helpers/app.js"
import { agentFor, engine, type Engine } from "../database/engines.js"

export const REDIS_URL = process.env.GATEHOUSE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379"

export type Client = ReturnType<typeof createClient>

export async function redisClient(): Promise<Client> {
  const client = createClient({ url: REDIS_URL })
  client.on("error", () => undefined)
  await client.connect()
  return client
}

export interface Setup {
  readonly name: string
  readonly strategy: "cookie" | "database"
  open(): Promise<void>
  close(): Promise<void>
  /** A new configuration (a fresh store or emptied tables): build apps from it. */
  config(overrides?: Partial<AuthConfig>): Promise<AuthConfig>
  /** For database setups: the engine (back door). */
  readonly engine?: Engine
}

export const SETUP_NAMES = ["cookie/memory", "cookie/redis", "database/memory", "database/sqlite", "database/postgres", "database/mariadb"] as const

/** A RedisStore with a prefix of its own and a subscriber; `close` ends both clients and removes its keys. */
export async function redisStore(prefix = `gh14:${randomBytes(4).toString("hex")}:`): Promise<{ store: StateStore; close: () => Promise<void>; client: Client }> {
  const client = await redisClient()
  const subscriber = client.duplicate()
  subscriber.on("error", () => undefined)
  await subscriber.connect()
  const store = RedisStore({ client, prefix, subscriber })
  return {
    store,
    client,
    close: async () => {
      const keys = await client.keys(`${prefix}*`)
      if (keys.length) await client.del(keys)
      subscriber.destroy()
      client.destroy()
    },
  }
}

export function setup(name: (typeof SETUP_NAMES)[number]): Setup {
  if (name === "cookie/memory") {
    return { name, strategy: "cookie", open: async () => undefined, close: async () => undefined, config: async (overrides = {}) => testConfig(overrides) }
  }
  if (name === "cookie/redis") {
    const opened: Array<() => Promise<void>> = []
    return {
      name,
      strategy: "cookie",
      open: async () => undefined,
      close: async () => {
        for (const close of opened.splice(0)) await close()
      },
      config: async (overrides = {}) => {
        const redis = await redisStore()
        opened.push(redis.close)
        return testConfig({ store: redis.store, ...overrides })
      },
    }
  }
  const db = engine(name === "database/memory" ? "memory" : (name.slice("database/".length) as "sqlite" | "postgres" | "mariadb"), "s14")
  return {
    name,
    strategy: "database",
    engine: db,
    open: () => db.open(),
    close: () => db.close(),
    config: async (overrides = {}) => {
      await db.reset()
      return testConfig({ adapter: db.adapter(), session: { strategy: "database" }, ...overrides })
    },
  }
}

/** The session cookie(s) a response set, as a Cookie header value ("" when none). */
export function sessionCookieHeader(response: { headers: Record<string, unknown> }): string {
  const raw = response.headers["set-cookie"]
  const lines = raw === undefined ? [] : Array.isArray(raw) ? (raw as string[]) : [String(raw)]
  return lines
    .map((line) => line.split(";")[0]!.trim())
    .filter((pair) => pair.startsWith("authjs.session-token") && !pair.endsWith("="))
    .join("; ")
}

/** Alice signed in on `app` with an agent of her own: the agent and her session's Cookie header. */
export async function signedInAlice(app: Express): Promise<{ agent: ReturnType<typeof agentFor>; cookie: string }> {
  const agent = agentFor(app)
  const response = await signInAs(agent, "alice")
  expect(response.status).toBe(302)
  const cookie = sessionCookieHeader(response)
  expect(cookie).not.toBe("")
  return { agent, cookie }
}
