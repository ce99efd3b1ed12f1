/**
 * The memory adapter's password-account methods: the password hash per user, and ending every
 * verification token of an identifier at once (a user's outstanding reset links, issue #24).
 */
import type { Adapter, AdapterUser, VerificationToken } from "../../lib/adapters.js"

export interface PasswordMaps {
  users: Map<string, AdapterUser>
  tokens: Map<string, VerificationToken>
  /** userId -> password hash. */
  passwords: Map<string, string>
}

type Put = <V>(map: Map<string, V>, key: string, value: V) => void
type Remove = <V>(map: Map<string, V>, key: string) => void
type PasswordMethods = Required<Pick<Adapter, "getPasswordHash" | "setPasswordHash" | "deleteVerificationTokens">>

export function passwordMethods(maps: PasswordMaps, put: Put, remove: Remove): PasswordMethods {
  return {
    async getPasswordHash(userId) {
      return maps.passwords.get(userId) ?? null
    },
    async setPasswordHash(userId, hash) {
      if (!maps.users.has(userId)) throw new Error(`no user with id ${userId}`)
      put(maps.passwords, userId, hash)
    },
    async deleteVerificationTokens(identifier) {
      let removed = 0
      for (const [key, token] of maps.tokens) {
        if (token.identifier !== identifier) continue
        remove(maps.tokens, key)
        removed++
      }
      return removed
    },
  }
}
