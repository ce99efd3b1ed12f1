/** The SQL adapter's migration 0007 (issue #27): the organizations, members and invitations tables. */
import type { Migration } from "kysely"
import { columnTypes, type AnyDb, type SqlKind } from "./codec.js"
import type { TableNames } from "./tables.js"

/** Migration 0007: organizations, members and invitations (additive: nothing else changes). */
export function organizationsMigration(kind: SqlKind, t: TableNames): Migration {
  const type = columnTypes(kind)
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable(t.organizations)
        .addColumn("id", type.key, (c) => c.primaryKey())
        .addColumn("slug", type.key, (c) => c.notNull())
        .addColumn("name", type.text, (c) => c.notNull())
        .addColumn("logo", type.text)
        .addColumn("metadata", type.text)
        .addColumn("roles", type.text)
        .addColumn("created_at", type.instant, (c) => c.notNull())
        .addUniqueConstraint(t.index.organizationsSlugUnique, ["slug"])
        .execute()
      await db.schema
        .createTable(t.members)
        .addColumn("organization_id", type.key, (c) => c.notNull().references(`${t.organizations}.id`).onDelete("cascade"))
        .addColumn("user_id", type.key, (c) => c.notNull().references(`${t.users}.id`).onDelete("cascade"))
        .addColumn("role", type.key, (c) => c.notNull())
        .addColumn("created_at", type.instant, (c) => c.notNull())
        .addPrimaryKeyConstraint(t.index.membersPk, ["organization_id", "user_id"])
        .execute()
      await db.schema.createIndex(t.index.membersUserId).on(t.members).column("user_id").execute()
      await db.schema
        .createTable(t.invitations)
        .addColumn("id", type.key, (c) => c.primaryKey())
        .addColumn("organization_id", type.key, (c) => c.notNull().references(`${t.organizations}.id`).onDelete("cascade"))
        .addColumn("email", type.email, (c) => c.notNull())
        .addColumn("role", type.key, (c) => c.notNull())
        .addColumn("token_hash", type.key, (c) => c.notNull())
        // Not a foreign key: an invitation outlives the user who sent it.
        .addColumn("invited_by", type.key)
        .addColumn("created_at", type.instant, (c) => c.notNull())
        .addColumn("expires", type.instant, (c) => c.notNull())
        .addUniqueConstraint(t.index.invitationsTokenHashUnique, ["token_hash"])
        // Also the index listing an organization's invitations uses (organization_id comes first).
        .addUniqueConstraint(t.index.invitationsEmailUnique, ["organization_id", "email"])
        .execute()
    },
    async down(db: AnyDb) {
      for (const table of [t.invitations, t.members, t.organizations]) await db.schema.dropTable(table).ifExists().execute()
    },
  }
}
