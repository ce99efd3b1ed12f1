/**
 * `migrate` on PostgreSQL succeeds while another client drops a table of the same database (another
 * app's migration, a test suite cleaning up its tables): the migrator's look at the catalog meets
 * a table that was there when the look began and is gone when it reads that table's columns.
 *
 * Made certain, not left to timing: a second connection drops an unrelated table and locks the
 * catalog of column comments inside an open transaction. The migrator's catalog query starts with
 * the table still there and, reading its first column comment, waits for that lock; the drop is
 * committed once PostgreSQL shows the migrator's own connection waiting, so the table is gone when
 * the query goes on to look it up by name.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import pg from "pg"
import { Kysely, PostgresDialect, sql } from "kysely"
import { migrate, dropTables, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import { DATABASES, closeTestDatabase, openTestDatabase, uniquePrefix } from "../helpers/databases.js"

const holderPrefix = uniquePrefix("dropholder")
const prefix = uniquePrefix("dropmigrate")
const victim = `${uniquePrefix("dropvictim")}table`
const victimSchema = `${uniquePrefix("dropschema")}s`
const schemaPrefix = uniquePrefix("dropmigrate2")
let adapter: SqlAdapterInstance
let other: pg.Client
// One connection, so its backend is the one to watch.
let migrator: Kysely<unknown>
let migratorPid: number

beforeAll(async () => {
  adapter = await openTestDatabase("postgres", holderPrefix)
  other = new pg.Client({ connectionString: DATABASES.postgres })
  await other.connect()
  migrator = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: DATABASES.postgres, max: 1 }) }) })
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(migrator)
  migratorPid = Number(rows[0]?.pid)
})
afterAll(async () => {
  await other.query("rollback").catch(() => undefined)
  await other.query(`drop table if exists ${victim}`).catch(() => undefined)
  await other.query(`drop schema if exists ${victimSchema} cascade`).catch(() => undefined)
  await other.end()
  await migrator.destroy()
  await dropTables(adapter.db, { tablePrefix: prefix })
  await dropTables(adapter.db, { tablePrefix: schemaPrefix })
  await closeTestDatabase(adapter, holderPrefix)
})

async function migratorWaitsOnLock(): Promise<boolean> {
  const { rows } = await other.query<{ waiting: string }>(
    `select count(*) as waiting from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`,
    [migratorPid],
  )
  return Number(rows[0]?.waiting) > 0
}

describe("migrate on PostgreSQL while another client drops a table", () => {
  it("applies every migration although a table vanished under the catalog query", async () => {
    await other.query(`create table ${victim} (id serial primary key, note text)`)
    await other.query("begin")
    await other.query(`drop table ${victim}`)
    await other.query("lock table pg_catalog.pg_description in access exclusive mode")

    const migrating = migrate(migrator, { tablePrefix: prefix })
    const outcome = migrating.then(
      (applied) => ({ applied }),
      (error: unknown) => ({ error }),
    )
    for (let tries = 0; !(await migratorWaitsOnLock()); tries++) {
      if (tries > 2000) throw new Error("the migrator never waited on the catalog lock")
      await new Promise((resume) => setTimeout(resume, 25))
    }
    await other.query("commit")

    const result = await outcome
    expect(result).not.toHaveProperty("error")
    expect((result as { applied: string[] }).applied).toContain("0001_initial")
    const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_name = ${`${prefix}users`}`.execute(adapter.db)
    expect(rows).toHaveLength(1)
  })
})

describe("migrate on PostgreSQL while another client drops a whole schema", () => {
  it("applies every migration although a schema vanished under the catalog query (another app's test clean-up)", async () => {
    await other.query(`create schema ${victimSchema}`)
    await other.query(`create table ${victimSchema}.notes (id serial primary key, note text)`)
    await other.query("begin")
    await other.query(`drop schema ${victimSchema} cascade`)
    await other.query("lock table pg_catalog.pg_description in access exclusive mode")

    const outcome = migrate(migrator, { tablePrefix: schemaPrefix }).then(
      (applied) => ({ applied }),
      (error: unknown) => ({ error }),
    )
    for (let tries = 0; !(await migratorWaitsOnLock()); tries++) {
      if (tries > 2000) throw new Error("the migrator never waited on the catalog lock")
      await new Promise((resume) => setTimeout(resume, 25))
    }
    await other.query("commit")

    const result = await outcome
    expect(result).not.toHaveProperty("error")
    expect((result as { applied: string[] }).applied).toContain("0001_initial")
  })
})
