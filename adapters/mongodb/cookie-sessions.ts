/**
 * The MongoDB adapter's cookie-session records and revocations (Gatehouse extensions: processes
 * that share only the database share cookie-session revocation). Records in `cookie_sessions`
 * (`_id` the session id, replaced whole); revocations in `session_revocations` (`_id` the
 * revocation id), read by `createdAt` (every process polls "since") and by `key`. A TTL index on
 * `expires` (setupIndexes) removes expired ones.
 */
import type { ClientSession } from "mongodb"
import type { Adapter, AdapterSessionRevocation } from "../../lib/adapters.js"
import type { Handles } from "./collections.js"

type CookieSessionMethods = Required<Pick<Adapter, "putCookieSession" | "listCookieSessions" | "deleteCookieSessions" | "addSessionRevocation" | "listSessionRevocations">>

const date = (value: unknown) => (value instanceof Date ? value : new Date(Number(value)))

export function cookieSessionMethods(handles: () => Promise<Handles>, opts: { session?: ClientSession }): CookieSessionMethods {
  return {
    async putCookieSession(session) {
      const { sid, ...rest } = session
      await (await handles()).cookieSessions.replaceOne({ _id: sid as never }, rest, { ...opts, upsert: true })
    },
    async listCookieSessions(userId) {
      const found = await (await handles()).cookieSessions.find({ userId }, opts).toArray()
      return found.map((doc) => ({
        sid: String(doc._id),
        userId: String(doc.userId),
        createdAt: date(doc.createdAt),
        lastSeenAt: date(doc.lastSeenAt),
        expires: date(doc.expires),
        userAgent: typeof doc.userAgent === "string" ? doc.userAgent : null,
        ip: typeof doc.ip === "string" ? doc.ip : null,
      }))
    },
    async deleteCookieSessions(userId, sids) {
      if (sids.length) await (await handles()).cookieSessions.deleteMany({ _id: { $in: sids as never[] }, userId }, opts)
    },
    async addSessionRevocation(revocation) {
      const { id, ...rest } = revocation
      await (await handles()).sessionRevocations.insertOne({ _id: id as never, ...rest }, opts)
    },
    async listSessionRevocations({ since, keys }) {
      if (keys && !keys.length) return []
      const filter: Record<string, unknown> = { expires: { $gt: new Date() } }
      if (since) filter.createdAt = { $gte: since }
      if (keys) filter.key = { $in: keys }
      const found = await (await handles()).sessionRevocations.find(filter, opts).toArray()
      return found.map(
        (doc): AdapterSessionRevocation => ({
          id: String(doc._id),
          kind: doc.kind === "user" ? "user" : "session",
          key: String(doc.key),
          notBefore: doc.notBefore ? date(doc.notBefore) : null,
          createdAt: date(doc.createdAt),
          expires: date(doc.expires),
        }),
      )
    },
  }
}
