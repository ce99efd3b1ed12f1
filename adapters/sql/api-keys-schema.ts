/** The SQL adapter's migration 0011 (issue #31): the API keys table. */
import type { Migration } from "kysely"
import { columnTypes, type AnyDb, type SqlKind } from "./codec.js"
import type { TableNames } from "./tables.js"

/**
 * Migration 0011: API keys, each of a user or of an organization and gone with its owner
 * (additive: nothing else changes). `created_by` has no foreign key: it is only a record of who
 * made the key, and an organization's key outlives that user. `scopes` is a JSON list.
 */
export function apiKeysMigration(kind: SqlKind, t: TableNames): Migration {
  const type = columnTypes(kind)
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable(t.apiKeys)
        .addColumn("id", type.key, (c) => c.primaryKey())
        .addColumn("key_hash", type.key, (c) => c.notNull())
        .addColumn("start", type.text, (c) => c.notNull())
        .addColumn("name", type.text, (c) => c.notNull())
        .addColumn("user_id", type.key, (c) => c.references(`${t.users}.id`).onDelete("cascade"))
        .addColumn("organization_id", type.key, (c) => c.references(`${t.organizations}.id`).onDelete("cascade"))
        .addColumn("created_by", type.key)
        .addColumn("scopes", type.text, (c) => c.notNull())
        .addColumn("created_at", type.instant, (c) => c.notNull())
        .addColumn("expires", type.instant)
        .addColumn("last_used_at", type.instant)
        .addUniqueConstraint(t.index.apiKeysHashUnique, ["key_hash"])
        .execute()
      // A user's keys and an organization's keys are listed, and deleted with their owner.
      await db.schema.createIndex(t.index.apiKeysUserId).on(t.apiKeys).column("user_id").execute()
      await db.schema.createIndex(t.index.apiKeysOrgId).on(t.apiKeys).column("organization_id").execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable(t.apiKeys).ifExists().execute()
    },
  }
}
