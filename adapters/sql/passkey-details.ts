/**
 * Passkey details in SQL (issue #15): a name, when the passkey was registered, when it last
 * signed in. Migration 0005 adds the three columns to `authenticators` in place (nullable:
 * passkeys registered before keep working, their details unknown); `updateAuthenticator` writes
 * them, and the counter with the last use in the same statement (never lowered).
 */
import { sql, type Migration } from "kysely"
import type { Adapter } from "../../lib/adapters.js"
import { columnTypes, type AnyDb, type Codec, type SqlKind } from "./codec.js"
import { toAuthenticator } from "./rows.js"
import type { TableNames } from "./tables.js"

type PasskeyDetailMethods = Required<Pick<Adapter, "updateAuthenticator">>

export function passkeyDetailMethods(db: AnyDb, t: TableNames, codec: Codec): PasskeyDetailMethods {
  return {
    async updateAuthenticator(credentialID, update) {
      const set: Record<string, unknown> = {}
      if (update.name !== undefined) set.name = update.name
      if (update.lastUsedAt !== undefined) set.last_used_at = update.lastUsedAt ? codec.instant(update.lastUsedAt) : null
      // Never lowered: a slower request with an older counter must not undo a newer one.
      if (update.counter !== undefined) set.counter = sql`case when counter < ${update.counter} then ${update.counter} else counter end`
      if (Object.keys(set).length) await db.updateTable(t.authenticators).set(set).where("credential_id", "=", credentialID).execute()
      const row = await db.selectFrom(t.authenticators).selectAll().where("credential_id", "=", credentialID).executeTakeFirst()
      return row ? toAuthenticator(row, codec) : null
    },
  }
}

const COLUMNS = ["name", "created_at", "last_used_at"] as const

/** Migration 0005: the details columns on `authenticators` (additive: every passkey is kept). */
export function passkeyDetailsMigration(kind: SqlKind, t: TableNames): Migration {
  const type = columnTypes(kind)
  const typeOf = { name: type.text, created_at: type.instant, last_used_at: type.instant }
  return {
    async up(db: AnyDb) {
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      for (const name of COLUMNS) await db.schema.alterTable(t.authenticators).addColumn(name, typeOf[name]).execute()
    },
    async down(db: AnyDb) {
      for (const name of COLUMNS) await db.schema.alterTable(t.authenticators).dropColumn(name).execute()
    },
  }
}
