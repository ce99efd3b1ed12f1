/**
 * Issue #29's tables on a live database: a database as the previous release left it (up to
 * 0008_sso), with a user owning an organization that has an SSO connection, is upgraded in place
 * by `migrate()` (0009 adds scim_tokens, scim_users and scim_groups; nothing else changes; 0010_admin, 0011_api_keys and 0012_identity_provider follow). The
 * old organization then gets a SCIM token, provisions its old owner and puts them in a group.
 * Undoing 0009 removes the three tables and keeps the organization and its connection;
 * `dropTables` removes them too. On SQLite, PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { randomUUID } from "node:crypto"
import { sql } from "kysely"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import { migrateTo } from "../../adapters/sql/schema.js"
import { tableNames } from "../../adapters/sql/tables.js"
import { DATABASES, uniquePrefix } from "../helpers/databases.js"

describe.each(["sqlite", "postgres", "mariadb"] as const)("upgrading a %s database to 0009_scim", (name) => {
  const tablePrefix = uniquePrefix(`mig09_${name.slice(0, 2)}`)
  const userId = `user-old-${randomUUID()}`
  const now = new Date(Math.floor(Date.now() / 1000) * 1000)
  const organization = { id: randomUUID(), slug: `old-${randomUUID()}`, name: "Old Timers", logo: null, metadata: null, roles: null, createdAt: now }
  const connection = {
    id: randomUUID(),
    organizationId: organization.id,
    type: "oidc" as const,
    name: "Okta",
    enabled: true,
    settings: { issuer: "https://idp.example.com", clientId: "client", clientSecret: "sealed" },
    mapping: null,
    createdAt: now,
    updatedAt: now,
  }
  let adapter: SqlAdapterInstance
  const exists = async (table: string) =>
    sql`select 1 from ${sql.table(`${tablePrefix}${table}`)}`.execute(adapter.db).then(
      () => true,
      () => false,
    )

  beforeAll(async () => {
    adapter = SqlAdapter(DATABASES[name], { tablePrefix })
    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0008_sso")
    await adapter.db.insertInto(`${tablePrefix}users`).values({ id: userId, name: "Old Timer", email: `old-${userId}@example.com`, email_verified: null, image: null }).execute()
    await adapter.createOrganization(organization, { organizationId: organization.id, userId, role: "owner", createdAt: now })
    await adapter.createSsoConnection(connection)
  }, 30_000)

  afterAll(async () => {
    await dropTables(adapter.db, { tablePrefix })
    await adapter.close()
  })

  it("migrate() applies 0009 in place; the old organization gets a token, a provisioned user and a group; undoing 0009 and dropTables remove the new tables", async () => {
    for (const table of ["scim_tokens", "scim_users", "scim_groups"]) expect(await exists(table)).toBe(false)
    expect(await migrate(adapter.db, { tablePrefix })).toEqual(["0009_scim", "0010_admin", "0011_api_keys", "0012_identity_provider"])
    expect(await migrate(adapter.db, { tablePrefix })).toEqual([])

    const token = { id: randomUUID(), organizationId: organization.id, name: "Okta", tokenHash: `hash-${randomUUID()}`, createdAt: now, lastUsedAt: null }
    expect(await adapter.createScimToken(token)).toEqual(token)
    expect(await adapter.getScimTokenByHash(token.tokenHash)).toEqual(token)
    const provisioned = {
      organizationId: organization.id,
      userId,
      userName: "Old.Timer@Example.com",
      userNameKey: "old.timer@example.com",
      externalId: "00u-old",
      active: true,
      suspendedRole: null,
      attributes: { name: { givenName: "Old", familyName: "Timer" }, emails: [{ value: "old@example.com", primary: true }] },
      createdAt: now,
      updatedAt: now,
    }
    expect(await adapter.createScimUser(provisioned)).toEqual(provisioned)
    const group = { id: randomUUID(), organizationId: organization.id, displayName: "Veterans", externalId: null, members: [userId], role: "admin", createdAt: now, updatedAt: now }
    expect(await adapter.createScimGroup(group)).toEqual(group)
    await adapter.touchScimToken(token.id, now)
    expect(await adapter.listScimTokens(organization.id)).toEqual([{ ...token, lastUsedAt: now }])

    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0008_sso")
    for (const table of ["scim_tokens", "scim_users", "scim_groups"]) expect(await exists(table)).toBe(false)
    expect(await adapter.getOrganization(organization.id)).toEqual(organization)
    expect(await adapter.getSsoConnection(connection.id)).toEqual(connection)

    expect(await migrate(adapter.db, { tablePrefix })).toEqual(["0009_scim", "0010_admin", "0011_api_keys", "0012_identity_provider"])
    await dropTables(adapter.db, { tablePrefix })
    for (const table of ["scim_tokens", "scim_users", "scim_groups", "sso_connections", "organizations", "users"]) expect(await exists(table)).toBe(false)
  })
})
