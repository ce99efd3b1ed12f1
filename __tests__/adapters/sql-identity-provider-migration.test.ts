/**
 * Issue #32's table on a live database: a database as the previous release left it (up to
 * 0011_api_keys), with a user, is upgraded in place by `migrate()` (0012 adds oidc_records;
 * nothing else changes), and the migration is recorded. The table has its primary key and
 * indexes under the names the schema gives them; it takes the longest names (a 64-character
 * model, a 255-character id) and a 200 KiB payload; the old user's records go with the user.
 * Undoing 0012 removes the table and keeps the user; `dropTables` removes it too. On SQLite,
 * PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { randomBytes, randomUUID } from "node:crypto"
import { sql } from "kysely"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import { migrateTo } from "../../adapters/sql/schema.js"
import { tableNames } from "../../adapters/sql/tables.js"
import type { AdapterOidcRecord } from "../../lib/identity-provider/adapter.js"
import { DATABASES, uniquePrefix } from "../helpers/databases.js"

type Engine = "sqlite" | "postgres" | "mariadb"
type Db = SqlAdapterInstance["db"]

/** Each index of the table (the primary key's included) with its columns in order, read from the engine's catalog. */
async function indexesOf(engine: Engine, db: Db, table: string): Promise<Record<string, string[]>> {
  let rows: { name: string; column: string }[]
  if (engine === "sqlite") {
    const indexes = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(db)
    rows = []
    for (const { name } of indexes.rows) {
      const columns = await sql<{ name: string }>`select name from pragma_index_info(${name}) order by seqno`.execute(db)
      rows.push(...columns.rows.map((column) => ({ name, column: column.name })))
    }
  } else if (engine === "postgres") {
    const result = await sql<{ name: string; column: string }>`
      select i.relname as name, a.attname as column
      from pg_index x
      join pg_class t on t.oid = x.indrelid
      join pg_class i on i.oid = x.indexrelid
      join generate_subscripts(x.indkey, 1) as k(position) on true
      join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[k.position]
      where t.relname = ${table} and t.relnamespace = current_schema()::regnamespace
      order by i.relname, k.position`.execute(db)
    rows = result.rows
  } else {
    const result = await sql<{ name: string; column: string }>`
      select index_name as name, column_name as \`column\` from information_schema.statistics
      where table_schema = database() and table_name = ${table} order by index_name, seq_in_index`.execute(db)
    rows = result.rows
  }
  const indexes: Record<string, string[]> = {}
  for (const { name, column } of rows) (indexes[String(name)] ??= []).push(String(column))
  return indexes
}

describe.each(["sqlite", "postgres", "mariadb"] as const)("upgrading a %s database to 0012_identity_provider", (engine) => {
  const tablePrefix = uniquePrefix(`mig12_${engine.slice(0, 2)}`)
  const t = tableNames({ tablePrefix })
  const ada = { id: `user-old-${randomUUID()}`, name: "Ada Old", email: `old-${randomUUID()}@example.com`, emailVerified: null, image: null }
  const newRecord = (overrides: Partial<AdapterOidcRecord> = {}): AdapterOidcRecord => ({
    model: "Session",
    id: randomBytes(32).toString("base64url"),
    payload: JSON.stringify({ kind: "Session" }),
    grantId: null,
    userCode: null,
    uid: randomUUID(),
    accountId: ada.id,
    clientId: null,
    expiresAt: new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000),
    consumedAt: null,
    ...overrides,
  })
  let adapter: SqlAdapterInstance
  const exists = async (table: string) =>
    sql`select 1 from ${sql.table(`${tablePrefix}${table}`)}`.execute(adapter.db).then(
      () => true,
      () => false,
    )

  beforeAll(async () => {
    adapter = SqlAdapter(DATABASES[engine], { tablePrefix })
    await migrateTo(adapter.db, t, "0011_api_keys")
    await adapter.db.insertInto(t.users).values({ id: ada.id, name: ada.name, email: ada.email, email_verified: null, image: null }).execute()
  }, 30_000)

  afterAll(async () => {
    await dropTables(adapter.db, { tablePrefix })
    await adapter.close()
  })

  it("migrate() applies 0012 in place and records it; the table has its key and indexes and takes the longest names and a 200 KiB payload", async () => {
    expect(await exists("oidc_records")).toBe(false)
    expect(await migrate(adapter.db, { tablePrefix })).toEqual(["0012_identity_provider"])
    expect(await migrate(adapter.db, { tablePrefix })).toEqual([])
    const recorded = await adapter.db.selectFrom(t.migrations).select("name").execute()
    expect(recorded.map((row) => String(row.name))).toContain("0012_identity_provider")

    const primaryKey = { sqlite: `sqlite_autoindex_${t.oidcRecords}_1`, postgres: t.index.oidcRecordsPk, mariadb: "PRIMARY" }[engine]
    expect(await indexesOf(engine, adapter.db, t.oidcRecords)).toEqual({
      [primaryKey]: ["model", "id"],
      [t.index.oidcRecordsGrantId]: ["grant_id"],
      [t.index.oidcRecordsUid]: ["model", "uid"],
      [t.index.oidcRecordsUserCode]: ["model", "user_code"],
      [t.index.oidcRecordsAccountId]: ["account_id", "model"],
      [t.index.oidcRecordsClientId]: ["model", "client_id"],
      [t.index.oidcRecordsExpiresAt]: ["expires_at"],
      // The index MySQL/MariaDB's AUTO_INCREMENT insertion order needs.
      ...(engine === "mariadb" && { [t.index.oidcRecordsSeq]: ["seq"] }),
    })

    const longest = newRecord({ model: "M".repeat(64), id: "i".repeat(255), grantId: "g".repeat(255), clientId: "c".repeat(255), payload: JSON.stringify({ blob: randomBytes(150 * 1024).toString("base64") }) })
    await adapter.putOidcRecord(longest)
    expect(await adapter.getOidcRecord(longest.model, longest.id)).toEqual(longest)
  })

  it("the old user's records go with the user; undoing 0012 removes the table and keeps the users; dropTables removes it too", async () => {
    await migrate(adapter.db, { tablePrefix })
    const session = newRecord()
    const client = newRecord({ model: "Client", accountId: null, uid: null, expiresAt: null })
    await adapter.putOidcRecord(session)
    await adapter.putOidcRecord(client)
    expect(await adapter.listOidcRecords("Session", { accountId: ada.id })).toEqual([session])
    await adapter.deleteUser(ada.id)
    expect(await adapter.getOidcRecord("Session", session.id)).toBeNull()
    expect(await adapter.getOidcRecord("Client", client.id)).toEqual(client)

    const bob = { ...ada, id: `user-old-${randomUUID()}`, email: `old-${randomUUID()}@example.com` }
    await adapter.createUser(bob)
    await migrateTo(adapter.db, t, "0011_api_keys")
    expect(await exists("oidc_records")).toBe(false)
    expect(await adapter.getUser(bob.id)).toEqual(bob)

    expect(await migrate(adapter.db, { tablePrefix })).toEqual(["0012_identity_provider"])
    expect(await adapter.getOidcRecord("Client", client.id)).toBeNull()
    await dropTables(adapter.db, { tablePrefix })
    for (const table of ["oidc_records", "users"]) expect(await exists(table)).toBe(false)
  })
})
