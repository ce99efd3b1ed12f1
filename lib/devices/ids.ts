/**
 * Session ids (`sid`). A cookie session's sid travels inside the encrypted cookie: the time the
 * session started (ms, base 36, 8 characters until 2059) then 96 random bits (16 characters), so
 * the cookie carries its creation time at no extra cost (a 10 kB cookie has no bytes to spare).
 * A database session's id is derived from its token (SHA-256, base64url): listing it reveals
 * nothing that opens the session, and sessions made before ids existed have one too.
 */
import { createHash, randomBytes } from "node:crypto"

/** What a session id looks like; anything else is refused before any lookup. */
export const SESSION_ID = /^[A-Za-z0-9_-]{16,64}$/

export function newSessionId(now = Date.now()): string {
  return `${now.toString(36).padStart(8, "0")}${randomBytes(12).toString("base64url")}`
}

/** When the cookie session with this sid started (ms); undefined for an id not made by `newSessionId`. */
export function sessionIdTime(sid: string): number | undefined {
  if (sid.length !== 24) return undefined
  const time = parseInt(sid.slice(0, 8), 36)
  return Number.isFinite(time) ? time : undefined
}

export function databaseSessionId(sessionToken: string): string {
  return createHash("sha256").update(sessionToken).digest("base64url").slice(0, 32)
}

/** Client facts recorded when a session starts. */
export interface ClientInfo {
  userAgent: string | null
  ip: string | null
}

const MAX_USER_AGENT = 512

export function clientInfo(userAgent: string | undefined, ip: string | undefined): ClientInfo {
  return { userAgent: userAgent ? userAgent.slice(0, MAX_USER_AGENT) : null, ip: ip ?? null }
}
