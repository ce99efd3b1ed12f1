/**
 * Session messages (sign-outs, revocations) between processes that share only a PostgreSQL
 * database (issue #36): NOTIFY through the adapter's pool, LISTEN on one connection of its own.
 * Only for a database `SqlAdapter` opened from a URL: it owns the connections, and knows the URL
 * to open the listening one with (a Kysely instance passed in gives neither).
 *
 * The listening connection is opened on the first subscribe and restored after it is lost (1 s,
 * then up to 5 s between tries). It never keeps the process alive, throws nothing from its event
 * handlers and logs nothing (Gatehouse's logger is not the adapter's): a first connection that
 * fails rejects the subscribe, whose caller logs it; the listeners stay, and the connection keeps
 * being tried. Messages sent while it is down are lost, which the caches' one-second bound covers.
 */
import { createRequire } from "node:module"
import { sql } from "kysely"
import type * as Pg from "pg"
import type { AnyDb } from "./codec.js"
import { MAX_IDENTIFIER_LENGTH } from "./tables.js"

const require = createRequire(import.meta.url)

const FIRST_RETRY_MS = 1000
const MAX_RETRY_MS = 5000
/**
 * How often an idle listening connection is checked (a LISTEN again, a no-op for the server): a
 * connection cut without a word (a network partition) ends no socket, and would listen to nothing
 * for good.
 */
const CHECK_EVERY_MS = 30_000
/** How long a connect or a check may take before the connection counts as lost. */
const TIMEOUT_MS = 10_000

export interface SessionMessages {
  publish(message: string): Promise<void>
  subscribe(listener: (message: string) => void): Promise<void>
  /** Ends the listening connection (and stops restoring it). */
  close(): Promise<void>
}

/**
 * The channel of the tables under `prefix`, so apps with different prefixes on one database do not
 * hear each other. Case is kept, as in the table names (quoted, so `App_` and `app_` are different
 * tables); the prefix is letters, digits and `_` (tables.ts), so the name needs no escaping, and
 * its length limit keeps it within PostgreSQL's 63 bytes.
 */
export function channelName(prefix: string): string {
  const channel = `${prefix}gatehouse_sessions`
  if (!/^[A-Za-z0-9_]+$/.test(channel) || channel.length > MAX_IDENTIFIER_LENGTH) throw new TypeError(`SqlAdapter: no valid channel name from the table prefix ${JSON.stringify(prefix)}`)
  return channel
}

type ListeningClient = Pg.Client & { ref(): void; unref(): void }

export function sessionMessages(db: AnyDb, url: string, prefix: string): SessionMessages {
  const channel = channelName(prefix)
  const listen = `LISTEN "${channel}"`
  const listeners = new Set<(message: string) => void>()
  let current: ListeningClient | undefined
  let listening = false
  let attempt: Promise<void> | undefined
  let retry: NodeJS.Timeout | undefined
  let check: NodeJS.Timeout | undefined
  let delay = FIRST_RETRY_MS
  let closed = false

  const deliver = (notification: Pg.Notification) => {
    if (notification.channel !== channel) return
    for (const listener of listeners) {
      try {
        listener(notification.payload ?? "")
      } catch {
        // A listener's failure is its own: the others still hear the message.
      }
    }
  }

  // Forgets `client` (when it is the current one), ends it quietly, and tries again later.
  const lost = (client: ListeningClient) => {
    client.end().catch(() => undefined)
    if (client !== current) return
    current = undefined
    listening = false
    schedule()
  }

  const schedule = () => {
    if (closed || retry || attempt) return
    retry = setTimeout(() => {
      retry = undefined
      connect(true).catch(() => undefined)
    }, delay)
    retry.unref()
    delay = Math.min(delay * 2, MAX_RETRY_MS)
  }

  // `background`: no caller waits for it (a restore), so not even the connecting keeps the process alive.
  const open = async (background: boolean) => {
    const pg = require("pg") as typeof Pg
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: TIMEOUT_MS, query_timeout: TIMEOUT_MS, keepAlive: true, fallback_application_name: "gatehouse-listen" }) as ListeningClient
    if (background) client.unref()
    client.on("error", () => lost(client))
    client.on("end", () => lost(client))
    client.on("notification", deliver)
    current = client
    try {
      await client.connect()
      await client.query(listen)
      if (closed || client !== current) throw new Error("SqlAdapter: the listening connection was closed or lost")
      // Listening never keeps the process alive (after connecting: TLS replaces the socket).
      client.unref()
    } catch (error) {
      lost(client)
      throw error
    }
    listening = true
    delay = FIRST_RETRY_MS
  }

  const connect = (background = false): Promise<void> => {
    clearTimeout(retry)
    retry = undefined
    // A subscriber waits on a restore under way: its connecting now keeps the process alive.
    if (!background) current?.ref()
    attempt ??= open(background).finally(() => {
      attempt = undefined
      if (!listening) schedule()
    })
    return attempt
  }

  return {
    async publish(message) {
      await sql`select pg_notify(${channel}, ${message})`.execute(db)
    },
    async subscribe(listener) {
      if (closed) throw new Error("SqlAdapter: closed")
      listeners.add(listener)
      check ??= setInterval(() => {
        const client = current
        if (listening && client) client.query(listen).catch(() => lost(client))
      }, CHECK_EVERY_MS).unref()
      if (!listening) await connect()
    },
    async close() {
      closed = true
      clearTimeout(retry)
      clearInterval(check)
      listeners.clear()
      const client = current
      current = undefined
      listening = false
      await attempt?.catch(() => undefined)
      // Bounded: on a connection cut without a word, ending waits for a reply that never comes.
      if (client) await Promise.race([client.end().catch(() => undefined), new Promise((resume) => setTimeout(resume, TIMEOUT_MS).unref())])
    },
  }
}
