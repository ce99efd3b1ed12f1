/**
 * The MongoDB adapter's password methods (password accounts): one document per user in
 * `passwords`, `_id` the user id, replaced whole (upsert) when the password changes. A user's
 * outstanding links (verification tokens of one identifier) are removed together.
 */
import type { ClientSession } from "mongodb"
import type { Adapter } from "../../lib/adapters.js"
import type { Handles } from "./collections.js"
import { key } from "./convert.js"

type PasswordMethods = Required<Pick<Adapter, "getPasswordHash" | "setPasswordHash" | "deleteVerificationTokens">>

export function passwordMethods(handles: () => Promise<Handles>, opts: { session?: ClientSession }): PasswordMethods {
  return {
    async getPasswordHash(userId) {
      const found = await (await handles()).passwords.findOne({ _id: userId as never }, opts)
      return found ? String(found.hash) : null
    },
    async setPasswordHash(userId, hash) {
      await (await handles()).passwords.replaceOne({ _id: userId as never }, { hash, updatedAt: new Date() }, { ...opts, upsert: true })
    },
    async deleteVerificationTokens(identifier) {
      const { deletedCount } = await (await handles()).verificationTokens.deleteMany({ identifier: key(identifier, "identifier") }, opts)
      return deletedCount
    },
  }
}
