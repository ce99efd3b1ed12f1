/**
 * The record of each cookie session in the shared store, so a user can list their sessions:
 * written when the session starts (or when a cookie made before session ids is upgraded on its
 * next refresh), its last-seen time moved on refresh (at most once per `updateAge`), removed when
 * the session is signed out or revoked. A failure here is logged and never fails the request:
 * the session itself lives in the cookie.
 */
import type { JWT } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { StoredSession } from "../shared-store/types.js"
import { newSessionId, type ClientInfo } from "./ids.js"
import { sessionCreatedAt, tokenIdentity } from "./check.js"

/** `token` with a session id: a new session's, or (`from`) the one it continues. */
export function withSessionId(token: JWT, from?: JWT, now = Date.now()): JWT {
  if (from && typeof from.sid === "string") return token.sid === from.sid ? token : { ...token, sid: from.sid }
  if (typeof token.sid === "string") return token
  return { ...token, sid: newSessionId(now) }
}

async function guarded(config: ResolvedConfig, work: () => Promise<unknown>): Promise<void> {
  try {
    await work()
  } catch (error) {
    config.logger.error(error as Error)
  }
}

/** Records a session that starts now (sign-in or upgrade). `expires` in ms. */
export function recordCookieSession(config: ResolvedConfig, token: JWT, expires: number, client: ClientInfo): Promise<void> {
  const { sid, userId } = tokenIdentity(token)
  const store = config.store
  if (!sid || !userId || !store.putSession) return Promise.resolve()
  const now = Date.now()
  const record: StoredSession = { sid, createdAt: sessionCreatedAt(token) || now, lastSeenAt: now, expires, ...client }
  return guarded(config, async () => store.putSession?.(userId, record, (expires - now) / 1000))
}

/** Moves a recorded session's last-seen time and expiry (a refresh); records it if the store lost it. */
export function touchCookieSession(config: ResolvedConfig, token: JWT, expires: number, client: () => ClientInfo): Promise<void> {
  const { sid, userId } = tokenIdentity(token)
  const store = config.store
  if (!sid || !userId || !store.listSessions || !store.putSession) return Promise.resolve()
  return guarded(config, async () => {
    const now = Date.now()
    const known = ((await store.listSessions?.(userId)) ?? []).find((record) => record.sid === sid)
    const record: StoredSession = known ? { ...known, lastSeenAt: now, expires } : { sid, createdAt: sessionCreatedAt(token) || now, lastSeenAt: now, expires, ...client() }
    await store.putSession?.(userId, record, (expires - now) / 1000)
  })
}
