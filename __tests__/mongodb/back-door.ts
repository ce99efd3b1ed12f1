/**
 * Reads MongoDB collections straight through the driver, not through the adapter or its
 * converters, for the adapter contract's `db` back door.
 */
import { ObjectId, type Db, type Document } from "mongodb"
import type { BackDoor } from "../../adapters/test-kit/index.js"

const hex = (value: unknown) => (value instanceof ObjectId ? value.toHexString() : String(value))

export function mongoBackDoor(db: Db): BackDoor {
  const one = (collection: string, filter: Document) => db.collection(collection).findOne(filter)
  return {
    async user(id) {
      if (!/^[0-9a-f]{24}$/.test(id)) return null
      const doc = await one("users", { _id: new ObjectId(id) })
      return doc ? { id: hex(doc._id), email: typeof doc.email === "string" ? doc.email : "", name: doc.name ?? null } : null
    },
    async account(provider, providerAccountId) {
      const doc = await one("accounts", { provider, providerAccountId })
      return doc ? { userId: hex(doc.userId), access_token: doc.access_token ?? undefined } : null
    },
    async session(sessionToken) {
      const doc = await one("sessions", { sessionToken })
      return doc ? { userId: hex(doc.userId), expires: doc.expires as Date } : null
    },
    async verificationToken(identifier, token) {
      const doc = await one("verification_tokens", { identifier, token })
      return doc ? { expires: doc.expires as Date } : null
    },
    async authenticator(credentialID) {
      const doc = await one("authenticators", { credentialID })
      return doc ? { userId: hex(doc.userId), counter: Number(doc.counter), name: doc.name ?? null, lastUsedAt: doc.lastUsedAt ?? null } : null
    },
  }
}
