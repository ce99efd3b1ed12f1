/**
 * The MongoDB adapter's cookie-session records and revocations (Gatehouse extensions: processes
 * that share only the database share cookie-session revocation). Records in `cookie_sessions`
 * (`_id` the pair user id and session id, replaced whole); revocations in `session_revocations` (`_id` the
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
      // Keyed by (userId, sid): one session may be recorded under several keys (back-channel logout).
      await (await handles()).cookieSessions.replaceOne({ _id: { u: session.userId, s: session.sid } as never }, { ...session, owner: session.owner ?? null }, { ...opts, upsert: true })
    },
    async listCookieSessions(userId) {
      const found = await (await handles()).cookieSessions.find({ userId }, opts).toArray()
      return found.map((doc) => ({
        sid: String(doc.sid),
        userId: String(doc.userId),
        createdAt: date(doc.createdAt),
        lastSeenAt: date(doc.lastSeenAt),
        expires: date(doc.expires),
        userAgent: typeof doc.userAgent === "string" ? doc.userAgent : null,
        ip: typeof doc.ip === "string" ? doc.ip : null,
        ...(typeof doc.owner === "string" && { owner: doc.owner }),
      }))
    },
    async deleteCookieSessions(userId, sids) {
      if (sids.length) await (await handles()).cookieSessions.deleteMany({ userId, sid: { $in: sids } }, opts)
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
          kind: doc.kind === "user" || doc.kind === "spare" ? doc.kind : "session",
          key: String(doc.key),
          notBefore: doc.notBefore ? date(doc.notBefore) : null,
          createdAt: date(doc.createdAt),
          expires: date(doc.expires),
        }),
      )
    },
  }
}
