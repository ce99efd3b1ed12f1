/**
 * Issue #28's tables on a live database: a database as the previous release left it (up to
 * 0007_organizations), with a user owning an organization, is upgraded in place by `migrate()`
 * (0008 adds sso_connections and sso_domains; nothing else changes; 0009_scim, 0010_admin, 0011_api_keys and 0012_identity_provider follow). The old organization then
 * gets a connection and a verified domain. Undoing 0009 and 0008 removes the new tables and keeps the
 * organization; `dropTables` removes them too. On SQLite, PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { randomUUID } from "node:crypto"
import { sql } from "kysely"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import { migrateTo } from "../../adapters/sql/schema.js"
import { tableNames } from "../../adapters/sql/tables.js"
import { DATABASES, uniquePrefix } from "../helpers/databases.js"

describe.each(["sqlite", "postgres", "mariadb"] as const)("upgrading a %s database to 0008_sso", (name) => {
  const tablePrefix = uniquePrefix(`mig08_${name.slice(0, 2)}`)
  const userId = `user-old-${randomUUID()}`
  const now = new Date(Math.floor(Date.now() / 1000) * 1000)
  const organization = { id: randomUUID(), slug: `old-${randomUUID()}`, name: "Old Timers", logo: null, metadata: null, roles: null, createdAt: now }
  let adapter: SqlAdapterInstance
  const exists = async (table: string) =>
    sql`select 1 from ${sql.table(`${tablePrefix}${table}`)}`.execute(adapter.db).then(
      () => true,
      () => false,
    )

  beforeAll(async () => {
    adapter = SqlAdapter(DATABASES[name], { tablePrefix })
    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0007_organizations")
    await adapter.db.insertInto(`${tablePrefix}users`).values({ id: userId, name: "Old Timer", email: `old-${userId}@example.com`, email_verified: null, image: null }).execute()
    await adapter.createOrganization(organization, { organizationId: organization.id, userId, role: "owner", createdAt: now })
  }, 30_000)

  afterAll(async () => {
    await dropTables(adapter.db, { tablePrefix })
    await adapter.close()
  })

  it("migrate() applies 0008 in place; the old organization gets a connection and a verified domain; undoing 0008 and dropTables remove the new tables", async () => {
    expect(await exists("sso_connections")).toBe(false)
    expect(await migrate(adapter.db, { tablePrefix })).toEqual(["0008_sso", "0009_scim", "0010_admin", "0011_api_keys", "0012_identity_provider"])
    expect(await migrate(adapter.db, { tablePrefix })).toEqual([])

    const connection = {
      id: randomUUID(),
      organizationId: organization.id,
      type: "oidc" as const,
      name: "Okta",
      enabled: true,
      settings: { issuer: "https://idp.example.com", clientId: "client", clientSecret: "sealed" },
      mapping: { roles: { admins: "admin" } },
      createdAt: now,
      updatedAt: now,
    }
    expect(await adapter.createSsoConnection(connection)).toEqual(connection)
    const domain = { organizationId: organization.id, domain: `old-${randomUUID().slice(0, 8)}.example.com`, token: "token", verifiedAt: null, enforceSso: false, createdAt: now }
    expect(await adapter.createDomain(domain)).toEqual(domain)
    expect(await adapter.verifyDomain(organization.id, domain.domain, now)).toEqual({ ...domain, verifiedAt: now })
    expect(await adapter.getVerifiedDomain(domain.domain)).toEqual({ ...domain, verifiedAt: now })

    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0007_organizations")
    for (const table of ["sso_connections", "sso_domains"]) expect(await exists(table)).toBe(false)
    expect(await adapter.getOrganization(organization.id)).toEqual(organization)

    expect(await migrate(adapter.db, { tablePrefix })).toEqual(["0008_sso", "0009_scim", "0010_admin", "0011_api_keys", "0012_identity_provider"])
    await dropTables(adapter.db, { tablePrefix })
    for (const table of ["sso_connections", "sso_domains", "organizations", "users"]) expect(await exists(table)).toBe(false)
  })
})
