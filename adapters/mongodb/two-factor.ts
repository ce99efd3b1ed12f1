/**
 * The MongoDB adapter's two-factor methods (issue #16): one document per enrolled user in
 * `two_factor` (`_id` is the user id; the secret arrives sealed by the core) and one per recovery
 * code hash in `recovery_codes`. Using a code is one `updateOne` of an unused code: of concurrent
 * callers exactly one changes it.
 */
import type { ClientSession } from "mongodb"
import type { Adapter } from "../../lib/adapters.js"
import type { Handles } from "./collections.js"

type TwoFactorMethods = Required<Pick<Adapter, "getTwoFactor" | "enableTwoFactor" | "replaceRecoveryCodes" | "useRecoveryCode" | "countRecoveryCodes" | "disableTwoFactor">>
type Atomically = <T>(work: (options: { session?: ClientSession }) => Promise<T>) => Promise<T>

export function twoFactorMethods(handles: () => Promise<Handles>, opts: { session?: ClientSession }, atomically: Atomically): TwoFactorMethods {
  const replace = async (userId: string, hashes: string[], options: { session?: ClientSession }) => {
    const { recoveryCodes } = await handles()
    await recoveryCodes.deleteMany({ userId }, options)
    if (hashes.length) await recoveryCodes.insertMany(hashes.map((hash) => ({ userId, hash, usedAt: null })), options)
  }
  return {
    async getTwoFactor(userId) {
      const found = await (await handles()).twoFactor.findOne({ _id: userId as never }, opts)
      return found ? { userId, secret: String(found.secret), enabledAt: new Date(found.enabledAt as Date) } : null
    },
    async enableTwoFactor(record, hashes) {
      const { twoFactor } = await handles()
      await atomically(async (options) => {
        await twoFactor.replaceOne({ _id: record.userId as never }, { secret: record.secret, enabledAt: record.enabledAt }, { ...options, upsert: true })
        await replace(record.userId, hashes, options)
      })
    },
    async replaceRecoveryCodes(userId, hashes) {
      await atomically((options) => replace(userId, hashes, options))
    },
    async useRecoveryCode(userId, hash) {
      const { recoveryCodes } = await handles()
      const result = await recoveryCodes.updateOne({ userId, hash, usedAt: null }, { $set: { usedAt: new Date() } }, opts)
      if (result.modifiedCount === 1) return "accepted"
      return (await recoveryCodes.findOne({ userId, hash }, opts)) ? "alreadyUsed" : "unknown"
    },
    async countRecoveryCodes(userId) {
      return (await handles()).recoveryCodes.countDocuments({ userId, usedAt: null }, opts)
    },
    async disableTwoFactor(userId) {
      const { twoFactor, recoveryCodes } = await handles()
      await atomically(async (options) => {
        await recoveryCodes.deleteMany({ userId }, options)
        await twoFactor.deleteOne({ _id: userId as never }, options)
      })
    },
  }
}
