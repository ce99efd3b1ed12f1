/** The SQL adapter's migration 0009 (issue #29): the SCIM tokens, provisioned users and groups tables. */
import type { Migration } from "kysely"
import { columnTypes, type AnyDb, type SqlKind } from "./codec.js"
import type { TableNames } from "./tables.js"

/** Migration 0009: SCIM tokens, provisioned users and groups (additive: nothing else changes). */
export function scimMigration(kind: SqlKind, t: TableNames): Migration {
  const type = columnTypes(kind)
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable(t.scimTokens)
        .addColumn("id", type.key, (c) => c.primaryKey())
        .addColumn("organization_id", type.key, (c) => c.notNull().references(`${t.organizations}.id`).onDelete("cascade"))
        .addColumn("name", type.text, (c) => c.notNull())
        .addColumn("token_hash", type.key, (c) => c.notNull())
        .addColumn("created_at", type.instant, (c) => c.notNull())
        .addColumn("last_used_at", type.instant)
        .addUniqueConstraint(t.index.scimTokensHashUnique, ["token_hash"])
        .execute()
      await db.schema.createIndex(t.index.scimTokensOrgId).on(t.scimTokens).column("organization_id").execute()
      await db.schema
        .createTable(t.scimUsers)
        // The primary key (organization_id first) is also the index listing an organization's users.
        .addColumn("organization_id", type.key, (c) => c.notNull().references(`${t.organizations}.id`).onDelete("cascade"))
        .addColumn("user_id", type.key, (c) => c.notNull().references(`${t.users}.id`).onDelete("cascade"))
        .addColumn("user_name", type.text, (c) => c.notNull())
        // `email`: the longer of the exact (VARBINARY on MySQL) types; userNames are often addresses.
        .addColumn("user_name_key", type.email, (c) => c.notNull())
        .addColumn("external_id", type.key)
        .addColumn("active", type.boolean, (c) => c.notNull())
        .addColumn("suspended_role", type.key)
        .addColumn("attributes", type.text, (c) => c.notNull())
        .addColumn("created_at", type.instant, (c) => c.notNull())
        .addColumn("updated_at", type.instant, (c) => c.notNull())
        .addPrimaryKeyConstraint(t.index.scimUsersPk, ["organization_id", "user_id"])
        .addUniqueConstraint(t.index.scimUsersNameKeyUnique, ["organization_id", "user_name_key"])
        .addUniqueConstraint(t.index.scimUsersExternalIdUnique, ["organization_id", "external_id"])
        .execute()
      await db.schema.createIndex(t.index.scimUsersUserId).on(t.scimUsers).column("user_id").execute()
      await db.schema
        .createTable(t.scimGroups)
        .addColumn("id", type.key, (c) => c.primaryKey())
        .addColumn("organization_id", type.key, (c) => c.notNull().references(`${t.organizations}.id`).onDelete("cascade"))
        .addColumn("display_name", type.text, (c) => c.notNull())
        .addColumn("display_name_key", type.email, (c) => c.notNull())
        .addColumn("external_id", type.key)
        .addColumn("members", type.text, (c) => c.notNull())
        .addColumn("role", type.key)
        .addColumn("created_at", type.instant, (c) => c.notNull())
        .addColumn("updated_at", type.instant, (c) => c.notNull())
        // Also the index listing an organization's groups (organization_id comes first).
        .addUniqueConstraint(t.index.scimGroupsNameKeyUnique, ["organization_id", "display_name_key"])
        .execute()
    },
    async down(db: AnyDb) {
      for (const table of [t.scimGroups, t.scimUsers, t.scimTokens]) await db.schema.dropTable(table).ifExists().execute()
    },
  }
}
