/**
 * Issue #30's table on a live database: a database as the previous release left it (up to
 * 0009_scim), with two users, is upgraded in place by `migrate()` (0010 adds user_bans; nothing
 * else changes; 0011_api_keys and 0012_identity_provider follow). The old users are then listed and searched, one is banned, and removing that
 * user's row removes its ban (the foreign key cascades). Undoing 0010 removes the table and
 * keeps the users; `dropTables` removes it too. On SQLite, PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { randomUUID } from "node:crypto"
import { sql } from "kysely"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import { migrateTo } from "../../adapters/sql/schema.js"
import { tableNames } from "../../adapters/sql/tables.js"
import { DATABASES, uniquePrefix } from "../helpers/databases.js"

describe.each(["sqlite", "postgres", "mariadb"] as const)("upgrading a %s database to 0010_admin", (name) => {
  const tablePrefix = uniquePrefix(`mig10_${name.slice(0, 2)}`)
  const now = new Date(Math.floor(Date.now() / 1000) * 1000)
  const marker = `old${randomUUID().slice(0, 8)}`
  const ada = { id: `user-old-${randomUUID()}`, name: "Ada Old", email: `${marker}-ada@example.com`, emailVerified: null, image: null }
  const bob = { id: `user-old-${randomUUID()}`, name: "Bob Old", email: `${marker}-bob@example.com`, emailVerified: null, image: null }
  let adapter: SqlAdapterInstance
  const exists = async (table: string) =>
    sql`select 1 from ${sql.table(`${tablePrefix}${table}`)}`.execute(adapter.db).then(
      () => true,
      () => false,
    )

  beforeAll(async () => {
    adapter = SqlAdapter(DATABASES[name], { tablePrefix })
    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0009_scim")
    for (const user of [bob, ada]) {
      await adapter.db.insertInto(`${tablePrefix}users`).values({ id: user.id, name: user.name, email: user.email, email_verified: null, image: null }).execute()
    }
  }, 30_000)

  afterAll(async () => {
    await dropTables(adapter.db, { tablePrefix })
    await adapter.close()
  })

  it("migrate() applies 0010 in place; the old users are listed and can be banned, the ban going with its user's row; undoing 0010 and dropTables remove the table", async () => {
    expect(await exists("user_bans")).toBe(false)
    expect(await migrate(adapter.db, { tablePrefix })).toEqual(["0010_admin", "0011_api_keys", "0012_identity_provider"])
    expect(await migrate(adapter.db, { tablePrefix })).toEqual([])

    expect(await adapter.listUsers({ search: marker.toUpperCase(), limit: 10 })).toEqual([ada, bob])
    const ban = { userId: ada.id, reason: "Old habits", expires: null, createdAt: now, bannedBy: bob.id }
    await adapter.putUserBan(ban)
    expect(await adapter.getUserBan(ada.id)).toEqual(ban)
    // Straight to the table, not through deleteUser: the foreign key alone removes the ban.
    await adapter.db.deleteFrom(`${tablePrefix}users`).where("id", "=", ada.id).execute()
    expect(await adapter.getUserBan(ada.id)).toBeNull()

    await adapter.putUserBan({ ...ban, userId: bob.id })
    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0009_scim")
    expect(await exists("user_bans")).toBe(false)
    expect(await adapter.getUser(bob.id)).toEqual(bob)

    expect(await migrate(adapter.db, { tablePrefix })).toEqual(["0010_admin", "0011_api_keys", "0012_identity_provider"])
    expect(await adapter.getUserBan(bob.id)).toBeNull()
    await dropTables(adapter.db, { tablePrefix })
    for (const table of ["user_bans", "users"]) expect(await exists(table)).toBe(false)
  })
})
