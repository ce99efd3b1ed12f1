/** The SQL adapter's migration 0010 (issue #30): the user bans table. */
import type { Migration } from "kysely"
import { columnTypes, type AnyDb, type SqlKind } from "./codec.js"
import type { TableNames } from "./tables.js"

/** Migration 0010: one ban per user, gone with its user (additive: nothing else changes). */
export function adminMigration(kind: SqlKind, t: TableNames): Migration {
  const type = columnTypes(kind)
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable(t.userBans)
        .addColumn("user_id", type.key, (c) => c.primaryKey().references(`${t.users}.id`).onDelete("cascade"))
        .addColumn("reason", type.text)
        .addColumn("expires", type.instant)
        .addColumn("created_at", type.instant, (c) => c.notNull())
        .addColumn("banned_by", type.key)
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable(t.userBans).ifExists().execute()
    },
  }
}
