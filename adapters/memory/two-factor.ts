/**
 * The memory adapter's two-factor methods (issue #16): the TOTP record per user, and recovery
 * code hashes keyed by (user, hash), so using one is a single check-and-set (single use).
 */
import type { Adapter, AdapterTwoFactor } from "../../lib/adapters.js"

export interface TwoFactorMaps {
  twoFactor: Map<string, AdapterTwoFactor>
  /** `[userId, hash]` as JSON -> the code's owner and when it was used. */
  recoveryCodes: Map<string, { userId: string; usedAt: Date | null }>
}

type Put = <V>(map: Map<string, V>, key: string, value: V) => void
type Remove = <V>(map: Map<string, V>, key: string) => void
type TwoFactorMethods = Required<Pick<Adapter, "getTwoFactor" | "enableTwoFactor" | "replaceRecoveryCodes" | "useRecoveryCode" | "countRecoveryCodes" | "disableTwoFactor">>

const codeKey = (userId: string, hash: string) => JSON.stringify([userId, hash])

/** Removes every trace of the user's two-factor sign-in (also used by deleteUser). */
export function forgetTwoFactor(maps: TwoFactorMaps, remove: Remove, userId: string): void {
  remove(maps.twoFactor, userId)
  for (const [key, code] of maps.recoveryCodes) if (code.userId === userId) remove(maps.recoveryCodes, key)
}

export function twoFactorMethods(maps: TwoFactorMaps, put: Put, remove: Remove): TwoFactorMethods {
  const replace = (userId: string, hashes: string[]) => {
    for (const [key, code] of maps.recoveryCodes) if (code.userId === userId) remove(maps.recoveryCodes, key)
    for (const hash of hashes) put(maps.recoveryCodes, codeKey(userId, hash), { userId, usedAt: null })
  }
  return {
    async getTwoFactor(userId) {
      const record = maps.twoFactor.get(userId)
      return record ? { ...record, enabledAt: new Date(record.enabledAt.getTime()) } : null
    },
    async enableTwoFactor(record, hashes) {
      put(maps.twoFactor, record.userId, { userId: record.userId, secret: record.secret, enabledAt: new Date(record.enabledAt.getTime()) })
      replace(record.userId, hashes)
    },
    async replaceRecoveryCodes(userId, hashes) {
      replace(userId, hashes)
    },
    async useRecoveryCode(userId, hash) {
      const key = codeKey(userId, hash)
      const code = maps.recoveryCodes.get(key)
      if (!code) return "unknown"
      if (code.usedAt) return "alreadyUsed"
      put(maps.recoveryCodes, key, { userId, usedAt: new Date() })
      return "accepted"
    },
    async countRecoveryCodes(userId) {
      return [...maps.recoveryCodes.values()].filter((code) => code.userId === userId && !code.usedAt).length
    },
    async disableTwoFactor(userId) {
      forgetTwoFactor(maps, remove, userId)
    },
  }
}
