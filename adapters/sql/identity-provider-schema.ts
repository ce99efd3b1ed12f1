/** The SQL adapter's migration 0012 (issue #32): the identity provider's records table. */
import { sql, type Migration, type RawBuilder } from "kysely"
import { columnTypes, type AnyDb, type SqlKind } from "./codec.js"
import type { TableNames } from "./tables.js"

/**
 * A name of at most `length` characters, compared exactly: VARBINARY on MySQL/MariaDB (their
 * default collation ignores case and trailing spaces), VARCHAR on PostgreSQL (so every engine
 * refuses a longer one); SQLite has no lengths.
 */
function name(kind: SqlKind, length: 64 | 255): RawBuilder<unknown> {
  if (kind === "mysql") return sql`varbinary(${sql.raw(String(length))})`
  if (kind === "postgres") return sql`varchar(${sql.raw(String(length))})`
  return sql`text`
}

/**
 * Migration 0012: `oidc_records`, one row per record `oidc-provider` stores, named by (model, id)
 * (additive: nothing else changes). `payload` is the model's JSON (MEDIUMTEXT on MySQL/MariaDB:
 * TEXT holds only 64 KiB). `account_id` has no foreign key: `deleteUser` deletes the user's records
 * itself (index.ts). The insertion order that `listOidcRecords` keeps is `seq` (an identity column
 * on PostgreSQL, AUTO_INCREMENT on MySQL/MariaDB) or SQLite's own rowid; `expires_at` is indexed
 * for the sweep of expired records.
 */
export function identityProviderMigration(kind: SqlKind, t: TableNames): Migration {
  const type = columnTypes(kind)
  return {
    async up(db: AnyDb) {
      let table = db.schema
        .createTable(t.oidcRecords)
        .addColumn("model", name(kind, 64), (c) => c.notNull())
        .addColumn("id", name(kind, 255), (c) => c.notNull())
        .addColumn("payload", kind === "mysql" ? sql`mediumtext` : type.text, (c) => c.notNull())
        .addColumn("grant_id", name(kind, 255))
        .addColumn("user_code", name(kind, 255))
        .addColumn("uid", name(kind, 255))
        .addColumn("account_id", name(kind, 255))
        .addColumn("client_id", name(kind, 255))
        .addColumn("expires_at", type.instant)
        .addColumn("consumed_at", type.instant)
      if (kind === "postgres") table = table.addColumn("seq", "bigint", (c) => c.notNull().generatedAlwaysAsIdentity())
      // AUTO_INCREMENT needs an index on the column, added below with the others.
      if (kind === "mysql") table = table.addColumn("seq", "bigint", (c) => c.notNull())
      await table.addPrimaryKeyConstraint(t.index.oidcRecordsPk, ["model", "id"]).execute()
      if (kind === "mysql") {
        await db.schema.createIndex(t.index.oidcRecordsSeq).on(t.oidcRecords).column("seq").execute()
        await db.schema.alterTable(t.oidcRecords).modifyColumn("seq", "bigint", (c) => c.notNull().autoIncrement()).execute()
      }
      // Revoking a grant deletes its codes and tokens of every model.
      await db.schema.createIndex(t.index.oidcRecordsGrantId).on(t.oidcRecords).column("grant_id").execute()
      // A Session by its uid, a DeviceCode by its user code; a user's or a client's records listed.
      await db.schema.createIndex(t.index.oidcRecordsUid).on(t.oidcRecords).columns(["model", "uid"]).execute()
      await db.schema.createIndex(t.index.oidcRecordsUserCode).on(t.oidcRecords).columns(["model", "user_code"]).execute()
      // The account first: it also serves deleteUser, which deletes the user's records of every model.
      await db.schema.createIndex(t.index.oidcRecordsAccountId).on(t.oidcRecords).columns(["account_id", "model"]).execute()
      await db.schema.createIndex(t.index.oidcRecordsClientId).on(t.oidcRecords).columns(["model", "client_id"]).execute()
      await db.schema.createIndex(t.index.oidcRecordsExpiresAt).on(t.oidcRecords).column("expires_at").execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable(t.oidcRecords).ifExists().execute()
    },
  }
}
