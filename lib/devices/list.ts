/**
 * The signed-in user's live sessions, newest first, as the user may see them: an id, whether it
 * is this one, when it started and was last seen, when it ends, and the client it started from.
 * Never a token. Cookie sessions come from the shared store's records; database sessions from
 * the adapter (`listSessionsByUserId`).
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { SessionIdentity } from "../session/cookie-strategy.js"
import { sessionAdapter } from "./adapter.js"
import { databaseSessionId } from "./ids.js"

export interface SessionInfo {
  /** The session id: what `revokeSession` and `POST sessions/revoke` take. */
  id: string
  /** The session of the request that asked. */
  current: boolean
  /** ISO 8601; null for a database session made before Gatehouse recorded it. */
  createdAt: string | null
  lastSeenAt: string | null
  expires: string
  userAgent: string | null
  ip: string | null
}

const iso = (value: Date | number | null | undefined) => (value === null || value === undefined ? null : new Date(value).toISOString())

function newestFirst(a: SessionInfo, b: SessionInfo): number {
  return (b.createdAt ?? "").localeCompare(a.createdAt ?? "") || b.expires.localeCompare(a.expires)
}

async function cookieSessions(config: ResolvedConfig, identity: SessionIdentity): Promise<SessionInfo[]> {
  const now = Date.now()
  const records = identity.userId ? ((await config.store.listSessions?.(identity.userId)) ?? []) : []
  const list = records
    .filter((record) => record.expires > now)
    .map((record) => ({ id: record.sid, current: record.sid === identity.sid, createdAt: iso(record.createdAt), lastSeenAt: iso(record.lastSeenAt), expires: iso(record.expires) as string, userAgent: record.userAgent, ip: record.ip }))
  // The current session is always listed, even if its record is gone (a store restarted).
  if (identity.sid && !list.some((info) => info.current)) {
    list.push({ id: identity.sid, current: true, createdAt: iso(identity.createdAt), lastSeenAt: null, expires: iso(identity.expires ?? now) as string, userAgent: null, ip: null })
  }
  return list
}

async function databaseSessions(config: ResolvedConfig, identity: SessionIdentity): Promise<SessionInfo[]> {
  if (!identity.userId) return []
  const now = Date.now()
  const sessions = await sessionAdapter(config, ["listSessionsByUserId"]).listSessionsByUserId(identity.userId)
  return sessions
    .filter((session) => session.expires.getTime() > now)
    .map((session) => ({
      id: databaseSessionId(session.sessionToken),
      current: session.sessionToken === identity.sessionToken,
      createdAt: iso(session.createdAt),
      lastSeenAt: iso(session.lastSeenAt ?? session.createdAt),
      expires: iso(session.expires) as string,
      userAgent: session.userAgent ?? null,
      ip: session.ip ?? null,
    }))
}

export async function listUserSessions(config: ResolvedConfig, identity: SessionIdentity): Promise<SessionInfo[]> {
  const list = config.session.strategy === "database" ? await databaseSessions(config, identity) : await cookieSessions(config, identity)
  return list.sort(newestFirst)
}
