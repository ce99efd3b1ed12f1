/**
 * A Kysely instance from a connection URL: `postgres://` / `postgresql://` (pg), `mysql://` /
 * `mariadb://` (mysql2), `sqlite:<file>` or `sqlite::memory:` (better-sqlite3). The driver is a
 * dependency of your app: install the one you use. Loaded on demand, synchronously (all three
 * are CommonJS), so `SqlAdapter(url)` needs no await.
 */
import { createRequire } from "node:module"
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from "kysely"
import type * as Pg from "pg"
import type * as Mysql2 from "mysql2"
import type BetterSqlite3 from "better-sqlite3"
import type { AnyDb } from "./codec.js"

const require = createRequire(import.meta.url)

function load<T>(name: string, url: string): T {
  try {
    return require(name) as T
  } catch (error) {
    throw new Error(`gatehouse: ${url.split(":")[0]} URLs need the "${name}" package: npm install ${name}`, { cause: error })
  }
}

/** SQL text → statement name, per database opened here: queries run as named prepared statements. */
const preparedNames = new WeakMap<AnyDb, Map<string, string>>()

/**
 * Runs `sqlText` as a named prepared statement on `db`'s connections (PostgreSQL opened from a URL
 * here; elsewhere nothing changes): parsed and planned once per connection, not on every call.
 */
export function prepareStatement(db: AnyDb, sqlText: string): void {
  const names = preparedNames.get(db)
  if (names && !names.has(sqlText)) names.set(sqlText, `gatehouse_${names.size + 1}`)
}

function openPostgres(url: string): AnyDb {
  const pg = load<typeof Pg>("pg", url)
  // Bounded waits: a database that does not answer at all (a network partition, not a refused
  // connection) must end as an AdapterError, not a request that hangs.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000, query_timeout: 15_000 })
  // An idle connection the server drops (restart, failover, pg_terminate_backend) is emitted as a
  // pool "error"; with no listener that would throw and end the process. pg has already removed
  // the connection, and the next query opens a new one (or fails as an AdapterError).
  pool.on("error", () => undefined)
  const names = new Map<string, string>()
  pool.on("connect", (client) => {
    // A connection cut while a query runs (checked out, so the pool's listener is not on it) is
    // emitted as "error" on the client as well as failing the query: without a listener the
    // process would end. The query's own rejection is the report (an AdapterError).
    client.on("error", () => undefined)
    const query = client.query.bind(client) as (...args: unknown[]) => unknown
    ;(client as unknown as { query: (...args: unknown[]) => unknown }).query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
      const name = typeof text === "string" && rest.length === 0 ? names.get(text) : undefined
      return name ? query({ name, text, values }) : query(text, values, ...rest)
    }
  })
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) }) as AnyDb
  preparedNames.set(db, names)
  return db
}

export function openDatabase(url: string): AnyDb {
  if (/^postgres(ql)?:\/\//i.test(url)) return openPostgres(url)
  if (/^(mysql|mariadb):\/\//i.test(url)) {
    const mysql = load<typeof Mysql2>("mysql2", url)
    return new Kysely({ dialect: new MysqlDialect({ pool: mysql.createPool({ uri: url.replace(/^mariadb:/i, "mysql:"), connectionLimit: 10 }) }) })
  }
  if (/^sqlite:/i.test(url)) {
    const Database = load<typeof BetterSqlite3>("better-sqlite3", url)
    const file = url.slice("sqlite:".length).replace(/^\/\//, "")
    const database = new Database(file === ":memory:" || file === "" ? ":memory:" : file)
    database.pragma("foreign_keys = ON")
    if (file !== ":memory:" && file !== "") database.pragma("journal_mode = WAL")
    return new Kysely({ dialect: new SqliteDialect({ database }) })
  }
  throw new TypeError(`SqlAdapter: unsupported database URL ${JSON.stringify(url.replace(/\/\/[^@/]*@/, "//…@"))}; use postgres://, mysql://, sqlite:<file> or sqlite::memory:`)
}
