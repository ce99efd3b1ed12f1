/**
 * The memory adapter's cookie-session records and revocations (Gatehouse extensions: cookie
 * sessions shared through the adapter when there is no `store`). Expired revocations are swept
 * when a new one is added.
 */
import type { Adapter, AdapterCookieSession, AdapterSessionRevocation } from "../../lib/adapters.js"

export interface CookieSessionMaps {
  /** sid -> record. */
  cookieSessions: Map<string, AdapterCookieSession>
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
    async putCookieSession(session) {
      put(maps.cookieSessions, session.sid, copySession(session))
    },
    async listCookieSessions(userId) {
      return [...maps.cookieSessions.values()].filter((session) => session.userId === userId).map(copySession)
    },
    async deleteCookieSessions(userId, sids) {
      for (const sid of sids) if (maps.cookieSessions.get(sid)?.userId === userId) remove(maps.cookieSessions, sid)
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
