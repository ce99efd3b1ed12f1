/**
 * What differs between PostgreSQL, MySQL/MariaDB and SQLite, in one place: the column types the
 * schema uses, and how values go in and out. PostgreSQL keeps native types (timestamptz,
 * boolean). MySQL/MariaDB and SQLite store instants as epoch milliseconds (no time-zone
 * surprises), and MySQL keeps identifiers and tokens in VARBINARY, so lookups are exact: a token
 * upper-cased or with a trailing space never matches (its default collation ignores both).
 */
import { MysqlAdapter, PostgresAdapter, SqliteAdapter, sql, type Kysely, type RawBuilder } from "kysely"

export type SqlKind = "postgres" | "mysql" | "sqlite"

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>

export function kindOf(db: AnyDb): SqlKind {
  const adapter = db.getExecutor().adapter
  if (adapter instanceof PostgresAdapter) return "postgres"
  if (adapter instanceof MysqlAdapter) return "mysql"
  if (adapter instanceof SqliteAdapter) return "sqlite"
  throw new TypeError("SqlAdapter supports Kysely's PostgreSQL, MySQL and SQLite dialects (and dialects built on their adapters)")
}

export interface ColumnTypes {
  /** Ids, tokens, provider ids: compared exactly. */
  key: RawBuilder<unknown>
  email: RawBuilder<unknown>
  text: RawBuilder<unknown>
  instant: RawBuilder<unknown>
  integer: RawBuilder<unknown>
  boolean: RawBuilder<unknown>
}

export function columnTypes(kind: SqlKind): ColumnTypes {
  switch (kind) {
    case "postgres":
      return { key: sql`text`, email: sql`text`, text: sql`text`, instant: sql`timestamptz`, integer: sql`bigint`, boolean: sql`boolean` }
    case "mysql":
      return { key: sql`varbinary(255)`, email: sql`varbinary(320)`, text: sql`text`, instant: sql`bigint`, integer: sql`bigint`, boolean: sql`boolean` }
    case "sqlite":
      return { key: sql`text`, email: sql`text`, text: sql`text`, instant: sql`integer`, integer: sql`integer`, boolean: sql`integer` }
  }
}

/** Converting values to and from the driver's representation. */
export interface Codec {
  instant(value: Date): unknown
  toDate(value: unknown): Date
  bool(value: boolean): unknown
}

export function codecFor(kind: SqlKind): Codec {
  return {
    instant: (value) => (kind === "postgres" ? value : value.getTime()),
    toDate: (value) => (value instanceof Date ? value : new Date(Number(value))),
    bool: (value) => (kind === "sqlite" ? (value ? 1 : 0) : value),
  }
}

/** A text column as a string (mysql2 returns VARBINARY as a Buffer). */
export function str(value: unknown): string {
  return Buffer.isBuffer(value) ? value.toString("utf8") : String(value)
}

export function optionalStr(value: unknown): string | null {
  return value === null || value === undefined ? null : str(value)
}

export function optionalNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value)
}
