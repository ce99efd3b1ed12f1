/**
 * The SQL adapter's password methods (password accounts, `gatehouse/providers/password`): one
 * hash per user, in its own table (migration 0004_passwords), removed with the user. Replacing a
 * hash is a delete and an insert in one transaction, the same on every engine. A user's
 * outstanding links (verification tokens of one identifier) are removed together when the
 * password is reset or changed.
 */
import type { Adapter } from "../../lib/adapters.js"
import { columnTypes, str, type AnyDb, type Codec, type SqlKind } from "./codec.js"
import type { Migration } from "kysely"
import type { TableNames } from "./tables.js"

type PasswordMethods = Required<Pick<Adapter, "getPasswordHash" | "setPasswordHash" | "deleteVerificationTokens">>

export function passwordMethods(db: AnyDb, t: TableNames, codec: Codec, atomically: <T>(work: (trx: AnyDb) => Promise<T>) => Promise<T>): PasswordMethods {
  return {
    async getPasswordHash(userId) {
      const row = await db.selectFrom(t.passwords).select("hash").where("user_id", "=", userId).executeTakeFirst()
      return row ? str(row.hash) : null
    },
    async setPasswordHash(userId, hash) {
      await atomically(async (trx) => {
        await trx.deleteFrom(t.passwords).where("user_id", "=", userId).execute()
        await trx.insertInto(t.passwords).values({ user_id: userId, hash, updated_at: codec.instant(new Date()) }).execute()
      })
    },
    async deleteVerificationTokens(identifier) {
      const result = await db.deleteFrom(t.verificationTokens).where("identifier", "=", identifier).executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}

/** Migration 0004: the password hashes table (additive: nothing else changes). */
export function passwordsMigration(kind: SqlKind, t: TableNames): Migration {
  const type = columnTypes(kind)
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable(t.passwords)
        .addColumn("user_id", type.key, (c) => c.primaryKey().references(`${t.users}.id`).onDelete("cascade"))
        .addColumn("hash", type.text, (c) => c.notNull())
        .addColumn("updated_at", type.instant, (c) => c.notNull())
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable(t.passwords).ifExists().execute()
    },
  }
}
