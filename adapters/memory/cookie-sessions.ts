/**
 * The memory adapter's cookie-session records and revocations (Gatehouse extensions: cookie
 * sessions shared through the adapter when there is no `store`). Bounded like the memory store:
 * a user's newest `MAX_RECORDS_PER_USER` records are kept (older sessions stay valid, unlisted);
 * expired revocations are swept when a new one is added.
 */
import type { Adapter, AdapterCookieSession, AdapterSessionRevocation } from "../../lib/adapters.js"

/** The newest records kept per user (a script signing one user in over and over must not grow memory without bound). */
export const MAX_RECORDS_PER_USER = 100

export interface CookieSessionMaps {
  /** userId -> (sid -> record), oldest first. */
  cookieSessions: Map<string, Map<string, AdapterCookieSession>>
  /** id -> revocation. */
  sessionRevocations: Map<string, AdapterSessionRevocation>
}

type Put = <V>(map: Map<string, V>, key: string, value: V) => void
type Remove = <V>(map: Map<string, V>, key: string) => void
type CookieSessionMethods = Required<Pick<Adapter, "putCookieSession" | "listCookieSessions" | "deleteCookieSessions" | "addSessionRevocation" | "listSessionRevocations">>

const copySession = (session: AdapterCookieSession): AdapterCookieSession => ({
  ...session,
  createdAt: new Date(session.createdAt.getTime()),
  lastSeenAt: new Date(session.lastSeenAt.getTime()),
  expires: new Date(session.expires.getTime()),
})

const copyRevocation = (revocation: AdapterSessionRevocation): AdapterSessionRevocation => ({
  ...revocation,
  notBefore: revocation.notBefore ? new Date(revocation.notBefore.getTime()) : null,
  createdAt: new Date(revocation.createdAt.getTime()),
  expires: new Date(revocation.expires.getTime()),
})

export function cookieSessionMethods(maps: CookieSessionMaps, put: Put, remove: Remove): CookieSessionMethods {
  return {
    // Never written inside a transaction (sign-in writes them after it), so no undo log here.
    async putCookieSession(session) {
      let records = maps.cookieSessions.get(session.userId)
      if (!records) maps.cookieSessions.set(session.userId, (records = new Map()))
      if (!records.has(session.sid) && records.size >= MAX_RECORDS_PER_USER) records.delete(records.keys().next().value as string)
      records.set(session.sid, copySession(session))
    },
    async listCookieSessions(userId) {
      return [...(maps.cookieSessions.get(userId)?.values() ?? [])].map(copySession)
    },
    async deleteCookieSessions(userId, sids) {
      const records = maps.cookieSessions.get(userId)
      if (!records) return
      for (const sid of sids) records.delete(sid)
      if (!records.size) maps.cookieSessions.delete(userId)
    },
    async addSessionRevocation(revocation) {
      const now = Date.now()
      for (const [id, known] of maps.sessionRevocations) if (known.expires.getTime() <= now) remove(maps.sessionRevocations, id)
      put(maps.sessionRevocations, revocation.id, copyRevocation(revocation))
    },
    async listSessionRevocations({ since, keys }) {
      const now = Date.now()
      return [...maps.sessionRevocations.values()]
        .filter((revocation) => revocation.expires.getTime() > now)
        .filter((revocation) => !since || revocation.createdAt.getTime() >= since.getTime())
        .filter((revocation) => !keys || keys.includes(revocation.key))
        .map(copyRevocation)
    },
  }
}
