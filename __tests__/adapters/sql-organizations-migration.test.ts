/**
 * Issue #27's tables on a live database: a database as the previous release left it (up to
 * 0006_cookie_sessions), with a user in it, is upgraded in place by `migrate()` (0007 adds
 * organizations, members and invitations; nothing else changes; 0008_sso, 0009_scim, 0010_admin and 0011_api_keys follow). The old user then owns an
 * organization. Undoing 0007 removes the three tables and keeps the user; `dropTables` removes
 * them too. On SQLite, PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { randomUUID } from "node:crypto"
import { sql } from "kysely"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import { migrateTo } from "../../adapters/sql/schema.js"
import { tableNames } from "../../adapters/sql/tables.js"
import { DATABASES, uniquePrefix } from "../helpers/databases.js"

describe.each(["sqlite", "postgres", "mariadb"] as const)("upgrading a %s database to 0007_organizations", (name) => {
  const tablePrefix = uniquePrefix(`mig07_${name.slice(0, 2)}`)
  const userId = `user-old-${randomUUID()}`
  let adapter: SqlAdapterInstance
  const exists = async (table: string) =>
    sql`select 1 from ${sql.table(`${tablePrefix}${table}`)}`.execute(adapter.db).then(
      () => true,
      () => false,
    )

  beforeAll(async () => {
    adapter = SqlAdapter(DATABASES[name], { tablePrefix })
    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0006_cookie_sessions")
    await adapter.db.insertInto(`${tablePrefix}users`).values({ id: userId, name: "Old Timer", email: `old-${userId}@example.com`, email_verified: null, image: null }).execute()
  }, 30_000)

  afterAll(async () => {
    await dropTables(adapter.db, { tablePrefix })
    await adapter.close()
  })

  it("migrate() applies 0007 in place; the old user owns a new organization; undoing 0007 and dropTables remove the new tables", async () => {
    expect(await exists("organizations")).toBe(false)
    expect(await migrate(adapter.db, { tablePrefix })).toEqual(["0007_organizations", "0008_sso", "0009_scim", "0010_admin", "0011_api_keys", "0012_identity_provider"])
    expect(await migrate(adapter.db, { tablePrefix })).toEqual([])

    const organization = { id: randomUUID(), slug: `old-${randomUUID()}`, name: "Old Timers", logo: null, metadata: null, roles: null, createdAt: new Date(Math.floor(Date.now() / 1000) * 1000) }
    expect(await adapter.createOrganization(organization, { organizationId: organization.id, userId, role: "owner", createdAt: organization.createdAt })).toEqual(organization)
    expect((await adapter.listMemberships(userId)).map((membership) => membership.organization.slug)).toEqual([organization.slug])

    // Undoes 0009, 0008, then 0007.
    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0006_cookie_sessions")
    for (const table of ["organizations", "members", "invitations"]) expect(await exists(table)).toBe(false)
    expect((await adapter.getUser(userId))?.name).toBe("Old Timer")

    expect(await migrate(adapter.db, { tablePrefix })).toEqual(["0007_organizations", "0008_sso", "0009_scim", "0010_admin", "0011_api_keys", "0012_identity_provider"])
    await dropTables(adapter.db, { tablePrefix })
    for (const table of ["organizations", "members", "invitations", "users"]) expect(await exists(table)).toBe(false)
  })
})
