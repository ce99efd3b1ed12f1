/**
 * When a session ends and when its expiry moves. Relative `maxAge`: expiry is now + maxAge,
 * pushed out at most once per `updateAge` (every access when 0). Absolute `maxAge` (a date):
 * every session ends then, whatever the activity.
 */
import type { ResolvedSession } from "../core/config/resolved.js"

/** Seconds since the epoch at which a session refreshed now would end. */
export function nextExpiry(session: ResolvedSession, now: number): number {
  return session.absoluteExpires ? Math.floor(session.absoluteExpires.getTime() / 1000) : now + session.maxAge
}

/** The token's `exp` for a session refreshed now (the deprecated jwt.maxAge may differ). */
export function tokenLifetime(session: ResolvedSession, now: number): number {
  return session.absoluteExpires ? nextExpiry(session, now) - now : session.tokenMaxAge
}

export function isPastAbsoluteEnd(session: ResolvedSession, now: number): boolean {
  return session.absoluteExpires !== undefined && session.absoluteExpires.getTime() <= now * 1000
}

/** A relative session whose last write (`iat`) is at least `updateAge` old is due a refresh. */
export function refreshDue(session: ResolvedSession, issuedAt: unknown, now: number): boolean {
  if (session.absoluteExpires) return false
  if (session.updateAge === 0 || typeof issuedAt !== "number") return true
  return now - issuedAt >= session.updateAge
}
