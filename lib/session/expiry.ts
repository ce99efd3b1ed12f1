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

/** 1 Jan 10000 00:00:00 UTC, in seconds: from here on `toISOString` writes a six-digit year. */
const YEAR_10000 = 253_402_300_800

/**
 * `new Date(seconds * 1000).toISOString()`, without the Date: `Session.expires` is formatted on
 * every read of a cookie the opened-token cache does not hold. Whole seconds in years 1970 to
 * 9999 take the arithmetic path (Gregorian calendar from a day count: every 400 years repeat);
 * anything else (a fraction, before 1970, far future, not finite) goes to Date, which also throws
 * for what it cannot represent, as before.
 */
export function isoSeconds(seconds: number): string {
  if (!(Number.isInteger(seconds) && seconds >= 0 && seconds < YEAR_10000)) return new Date(seconds * 1000).toISOString()
  const days = Math.floor(seconds / 86_400)
  const inDay = seconds - days * 86_400
  // Days since 1 March 0000, so that the leap day ends the (March-based) year.
  const shifted = days + 719_468
  const era = Math.floor(shifted / 146_097)
  const dayOfEra = shifted - era * 146_097
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365)
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  const hours = Math.floor(inDay / 3600)
  const minutes = Math.floor((inDay - hours * 3600) / 60)
  const secs = inDay - hours * 3600 - minutes * 60
  return `${year}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(secs)}.000Z`
}

function two(value: number): string {
  return value < 10 ? `0${value}` : `${value}`
}
