/**
 * Issue #31's table on a live database: a database as the previous release left it (up to
 * 0010_admin), with a user owning an organization, is upgraded in place by `migrate()` (0011 adds
 * api_keys; nothing else changes; 0012_identity_provider follows). The old user and organization then get keys; the hash is
 * unique; removing the user's row removes the user's key but not the organization key they made,
 * and removing the organization's row removes its key (the foreign keys cascade; `created_by` has
 * none). Undoing 0011 removes the table and keeps the user; `dropTables` removes it too. On
 * SQLite, PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { randomBytes, randomUUID } from "node:crypto"
import { sql } from "kysely"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import { migrateTo } from "../../adapters/sql/schema.js"
import { tableNames } from "../../adapters/sql/tables.js"
import type { AdapterApiKey } from "../../lib/api-keys/adapter.js"
import { DATABASES, uniquePrefix } from "../helpers/databases.js"

describe.each(["sqlite", "postgres", "mariadb"] as const)("upgrading a %s database to 0011_api_keys", (name) => {
  const tablePrefix = uniquePrefix(`mig11_${name.slice(0, 2)}`)
  const now = new Date(Math.floor(Date.now() / 1000) * 1000)
  const ada = { id: `user-old-${randomUUID()}`, name: "Ada Old", email: `old-${randomUUID()}@example.com`, emailVerified: null, image: null }
  const bob = { id: `user-old-${randomUUID()}`, name: "Bob Old", email: `old-${randomUUID()}@example.com`, emailVerified: null, image: null }
  const organization = { id: randomUUID(), slug: `old-${randomUUID()}`, name: "Old Timers", logo: null, metadata: null, roles: null, createdAt: now }
  const newKey = (owner: { userId: string } | { organizationId: string }, createdBy: string | null): AdapterApiKey => ({
    id: randomUUID(),
    keyHash: randomBytes(32).toString("base64url"),
    start: "gh_abcd",
    name: "CI deploys",
    userId: "userId" in owner ? owner.userId : null,
    organizationId: "organizationId" in owner ? owner.organizationId : null,
    createdBy,
    scopes: ["project:write", "project:read"],
    createdAt: now,
    expires: new Date(now.getTime() + 86_400_000),
    lastUsedAt: null,
  })
  let adapter: SqlAdapterInstance
  const exists = async (table: string) =>
    sql`select 1 from ${sql.table(`${tablePrefix}${table}`)}`.execute(adapter.db).then(
      () => true,
      () => false,
    )

  beforeAll(async () => {
    adapter = SqlAdapter(DATABASES[name], { tablePrefix })
    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0010_admin")
    for (const user of [ada, bob]) {
      await adapter.db.insertInto(`${tablePrefix}users`).values({ id: user.id, name: user.name, email: user.email, email_verified: null, image: null }).execute()
    }
    await adapter.createOrganization(organization, { organizationId: organization.id, userId: bob.id, role: "owner", createdAt: now })
  }, 30_000)

  afterAll(async () => {
    await dropTables(adapter.db, { tablePrefix })
    await adapter.close()
  })

  it("migrate() applies 0011 in place; the old user and organization get keys, each gone with its owner's row; undoing 0011 and dropTables remove the table", async () => {
    expect(await exists("api_keys")).toBe(false)
    expect(await migrate(adapter.db, { tablePrefix })).toEqual(["0011_api_keys", "0012_identity_provider"])
    expect(await migrate(adapter.db, { tablePrefix })).toEqual([])

    const adasKey = newKey({ userId: ada.id }, ada.id)
    const madeByAda = newKey({ organizationId: organization.id }, ada.id)
    await adapter.createApiKey(adasKey)
    await adapter.createApiKey(madeByAda)
    expect(await adapter.getApiKeyByHash(adasKey.keyHash)).toEqual(adasKey)
    expect(await adapter.listApiKeys({ organizationId: organization.id })).toEqual([madeByAda])
    // The unique constraint on the hash came with the table.
    await expect(adapter.createApiKey({ ...newKey({ userId: bob.id }, null), keyHash: adasKey.keyHash })).rejects.toThrow()

    // Straight to the tables, not through deleteUser or deleteOrganization: the foreign keys alone act.
    await adapter.db.deleteFrom(`${tablePrefix}users`).where("id", "=", ada.id).execute()
    expect(await adapter.getApiKey(adasKey.id)).toBeNull()
    expect(await adapter.getApiKey(madeByAda.id)).toEqual(madeByAda)
    await adapter.db.deleteFrom(`${tablePrefix}organizations`).where("id", "=", organization.id).execute()
    expect(await adapter.getApiKey(madeByAda.id)).toBeNull()

    await adapter.createApiKey(newKey({ userId: bob.id }, bob.id))
    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0010_admin")
    expect(await exists("api_keys")).toBe(false)
    expect(await adapter.getUser(bob.id)).toEqual(bob)

    expect(await migrate(adapter.db, { tablePrefix })).toEqual(["0011_api_keys", "0012_identity_provider"])
    expect(await adapter.listApiKeys({ userId: bob.id })).toEqual([])
    await dropTables(adapter.db, { tablePrefix })
    for (const table of ["api_keys", "users"]) expect(await exists(table)).toBe(false)
  })
})
