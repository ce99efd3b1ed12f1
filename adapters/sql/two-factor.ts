/**
 * The SQL adapter's two-factor methods (issue #16): the TOTP record (its secret arrives sealed by
 * the core, stored as it is) and recovery codes (hashes only, with when each was used). `useRecoveryCode` is an UPDATE of an
 * unused row, so of concurrent callers exactly one uses a code.
 */
import type { Adapter } from "../../lib/adapters.js"
import { str, type AnyDb, type Codec } from "./codec.js"
import type { TableNames } from "./tables.js"

type TwoFactorMethods = Required<Pick<Adapter, "getTwoFactor" | "enableTwoFactor" | "replaceRecoveryCodes" | "useRecoveryCode" | "countRecoveryCodes" | "disableTwoFactor">>

export function twoFactorMethods(db: AnyDb, t: TableNames, codec: Codec, atomically: <T>(work: (trx: AnyDb) => Promise<T>) => Promise<T>): TwoFactorMethods {
  const insertCodes = async (trx: AnyDb, userId: string, hashes: string[]) => {
    if (hashes.length) await trx.insertInto(t.recoveryCodes).values(hashes.map((hash) => ({ user_id: userId, code_hash: hash }))).execute()
  }
  return {
    async getTwoFactor(userId) {
      const row = await db.selectFrom(t.twoFactor).selectAll().where("user_id", "=", userId).executeTakeFirst()
      return row ? { userId: str(row.user_id), secret: str(row.secret), enabledAt: codec.toDate(row.enabled_at) } : null
    },
    async enableTwoFactor(record, hashes) {
      await atomically(async (trx) => {
        await trx.deleteFrom(t.recoveryCodes).where("user_id", "=", record.userId).execute()
        await trx.deleteFrom(t.twoFactor).where("user_id", "=", record.userId).execute()
        await trx.insertInto(t.twoFactor).values({ user_id: record.userId, secret: record.secret, enabled_at: codec.instant(record.enabledAt) }).execute()
        await insertCodes(trx, record.userId, hashes)
      })
    },
    async replaceRecoveryCodes(userId, hashes) {
      await atomically(async (trx) => {
        await trx.deleteFrom(t.recoveryCodes).where("user_id", "=", userId).execute()
        await insertCodes(trx, userId, hashes)
      })
    },
    async useRecoveryCode(userId, hash) {
      const mine = <Q extends { where: (column: string, op: "=", value: string) => Q }>(query: Q) => query.where("user_id", "=", userId).where("code_hash", "=", hash)
      const result = await mine(db.updateTable(t.recoveryCodes).set({ used_at: codec.instant(new Date()) })).where("used_at", "is", null).executeTakeFirst()
      if (Number(result.numUpdatedRows) === 1) return "accepted"
      return (await mine(db.selectFrom(t.recoveryCodes).select("user_id")).executeTakeFirst()) ? "alreadyUsed" : "unknown"
    },
    async countRecoveryCodes(userId) {
      const row = await db.selectFrom(t.recoveryCodes).select((eb) => eb.fn.countAll().as("n")).where("user_id", "=", userId).where("used_at", "is", null).executeTakeFirst()
      return Number(row?.n ?? 0)
    },
    async disableTwoFactor(userId) {
      await atomically(async (trx) => {
        await trx.deleteFrom(t.recoveryCodes).where("user_id", "=", userId).execute()
        await trx.deleteFrom(t.twoFactor).where("user_id", "=", userId).execute()
      })
    },
  }
}
