/**
 * Issue #26: a `tablePrefix` that `migrate` accepts works on every engine. The limit comes from
 * the longest name the schema creates (an index of session_revocations) and PostgreSQL's 63
 * characters (MariaDB's 64 is one more): on MariaDB the longest prefix allowed migrates and
 * serves, one character more is refused by SqlAdapter(), migrate() and the CLI with InvalidOption
 * naming the limit, before any connection is made and without a table created.
 */
import { randomUUID } from "node:crypto"
import { sql } from "kysely"
import { InvalidOption } from "../../lib/errors.js"
import { MAX_TABLE_PREFIX_LENGTH, SqlAdapter, dropTables, migrate } from "../../adapters/sql/index.js"
import { MAX_IDENTIFIER_LENGTH, schemaIdentifiers, tableNames } from "../../adapters/sql/tables.js"
import { main } from "../../adapters/sql/cli.js"
import { DATABASES, openTestDatabase } from "../helpers/databases.js"

/** A prefix of exactly `length` characters, unique to this run. */
function prefixOf(length: number): string {
  const tag = `p${randomUUID().replace(/-/g, "").slice(0, 8)}_`
  return (tag + "x".repeat(length)).slice(0, length - 1) + "_"
}

/** A database nobody listens on: reaching it would fail, so a refusal here came first. */
const NOWHERE = "mysql://root@127.0.0.1:9/nowhere"

async function tablesStartingWith(prefix: string): Promise<string[]> {
  const adapter = SqlAdapter(DATABASES.mariadb)
  try {
    const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = database() and table_name like ${`${prefix}%`}`.execute(adapter.db)
    return rows.map((row) => row.name)
  } finally {
    await adapter.close()
  }
}

describe("the longest table prefix", () => {
  it("is 63 characters minus the longest name the schema creates, and every name at that length fits", () => {
    const longest = Math.max(...schemaIdentifiers(tableNames()).map((name) => name.length))
    expect(MAX_TABLE_PREFIX_LENGTH).toBe(MAX_IDENTIFIER_LENGTH - longest)
    const names = schemaIdentifiers(tableNames({ tablePrefix: "p".repeat(MAX_TABLE_PREFIX_LENGTH) }))
    expect(Math.max(...names.map((name) => name.length))).toBe(63)
  })

  it("on MariaDB: the longest allowed prefix migrates, and the adapter stores and reads a user in its tables", async () => {
    const prefix = prefixOf(MAX_TABLE_PREFIX_LENGTH)
    const adapter = await openTestDatabase("mariadb", prefix)
    try {
      const user = await adapter.createUser({ id: randomUUID(), email: `${randomUUID().slice(0, 8)}@example.com`, emailVerified: null })
      expect(await adapter.getUser(user.id)).toMatchObject({ id: user.id })
      const created = await tablesStartingWith(prefix)
      expect(created).toEqual(expect.arrayContaining([`${prefix}users`, `${prefix}session_revocations`, `${prefix}gatehouse_migration_lock`]))
      // Every index MariaDB holds for these tables has the name the schema gave it, in full.
      const { rows } = await sql<{ name: string }>`select distinct index_name as name from information_schema.statistics where table_schema = database() and table_name like ${`${prefix}%`}`.execute(adapter.db)
      const named = rows.map((row) => row.name).filter((name) => name.startsWith(prefix))
      expect(named).toContain(`${prefix}session_revocations_created_at_index`)
      for (const name of named) expect(schemaIdentifiers(tableNames({ tablePrefix: prefix }))).toContain(name)
    } finally {
      await dropTables(adapter.db, { tablePrefix: prefix })
      await adapter.close()
    }
  })

  it.each(["postgres", "sqlite"] as const)("on %s too, the longest allowed prefix migrates and serves", async (engine) => {
    const prefix = prefixOf(MAX_TABLE_PREFIX_LENGTH)
    const adapter = await openTestDatabase(engine, prefix)
    try {
      const user = await adapter.createUser({ id: randomUUID(), email: `${randomUUID().slice(0, 8)}@example.com`, emailVerified: null })
      expect(await adapter.getUser(user.id)).toMatchObject({ id: user.id })
      expect(await migrate(adapter.db, { tablePrefix: prefix })).toEqual([])
    } finally {
      await dropTables(adapter.db, { tablePrefix: prefix })
      await adapter.close()
    }
  })

  it("one character more is refused by SqlAdapter(), migrate() and the CLI, with the limit named, and nothing is created", async () => {
    const prefix = prefixOf(MAX_TABLE_PREFIX_LENGTH + 1)
    const refusal = expect.objectContaining({
      type: "InvalidOption",
      message: expect.stringMatching(new RegExp(`tablePrefix must be at most ${MAX_TABLE_PREFIX_LENGTH} characters \\(got ${MAX_TABLE_PREFIX_LENGTH + 1},.*63-character identifier limit`)),
    })
    expect(() => SqlAdapter(NOWHERE, { tablePrefix: prefix })).toThrow(InvalidOption)
    expect(() => SqlAdapter(NOWHERE, { tablePrefix: prefix })).toThrow(refusal)
    await expect(migrate(NOWHERE, { tablePrefix: prefix })).rejects.toEqual(refusal)
    await expect(migrate(DATABASES.mariadb, { tablePrefix: prefix })).rejects.toEqual(refusal)

    const printed: string[] = []
    const error = console.error
    console.error = (line: string) => void printed.push(line)
    try {
      expect(await main(["migrate", DATABASES.mariadb, "--table-prefix", prefix])).toBe(1)
    } finally {
      console.error = error
    }
    expect(printed.join("\n")).toContain(`tablePrefix must be at most ${MAX_TABLE_PREFIX_LENGTH} characters`)
    expect(await tablesStartingWith(prefix)).toEqual([])
  })

  it("a prefix with other characters than letters, digits and '_' is refused the same way", () => {
    expect(() => SqlAdapter(NOWHERE, { tablePrefix: "app-" })).toThrow(expect.objectContaining({ type: "InvalidOption", message: expect.stringContaining("letters, digits or '_'") }))
  })
})
