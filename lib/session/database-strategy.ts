/**
 * The `database` strategy: the cookie holds only a random session token; the session record
 * (token, user id, expiry) lives in the adapter. One `getSessionAndUser` per read; the expiry is
 * pushed out (`updateSession`, new cookie) at most once per `updateAge`; a session found past its
 * expiry is deleted. The record's id never leaves the database. Only the lookup itself failing
 * fails the read (AdapterError); a failed extension or clean-up is logged and the read goes on
 * with what is known (the stored expiry; signed out).
 */
import type { AdapterSession } from "../adapters.js"
import type { Cookie, CookiesOptions, Session } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { SessionTokenError } from "../errors.js"
import { clearChunked, readChunked, writeChunked, type CookieJar } from "./chunks.js"
import type { SessionResult } from "./cookie-strategy.js"
import type { SessionUpdate } from "./session-callback.js"
import { presentSession } from "./session-callback.js"
import { recordSessionAmr, sessionAmr } from "../two-factor/facts.js"
import { impersonatedBy, storedImpersonation } from "../admin/impersonation/facts.js"
import { storesSessionFacts } from "../devices/adapter.js"
import { databaseSessionId, type ClientInfo } from "../devices/ids.js"
import { announce, runtimeOf } from "../devices/runtime.js"
import { REFRESH_TOKEN_ERROR } from "../tokens/provider-tokens.js"
import { keepRefused, refreshCanBeRefused, refusedProviders } from "../tokens/refused-mark.js"

/**
 * Tokens Gatehouse (or a sane `generateSessionToken`) makes are visible ASCII and short. Anything
 * else is not one of ours and is refused without a query (a NUL would even make PostgreSQL fail).
 */
const TOKEN = /^[\x21-\x7e]{1,512}$/

export function sessionTokenOf(jar: CookieJar, set: CookiesOptions): string | undefined {
  const value = readChunked(jar, set.sessionToken.name)
  return value !== undefined && TOKEN.test(value) ? value : undefined
}

function adapterOf(config: ResolvedConfig) {
  const adapter = config.adapter
  if (!adapter) throw new SessionTokenError("The database strategy needs an adapter")
  return adapter as Required<typeof adapter>
}

/** When a session created or refreshed now ends. */
function expiryFrom(config: ResolvedConfig, now: number): Date {
  return config.session.absoluteExpires ?? new Date(now + config.session.maxAge * 1000)
}

function tokenCookies(jar: CookieJar, set: CookiesOptions, sessionToken: string, expires: Date): Cookie[] {
  return writeChunked(set.sessionToken, sessionToken, jar, expires)
}

/** Creates the session record for a user who just signed in; returns the cookies to set. */
/** `ending`: an impersonation's session (issue #30), with its own token prefix and end. */
export async function createDatabaseSession(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions, userId: string, client?: ClientInfo, ending?: Date): Promise<Cookie[]> {
  const adapter = adapterOf(config)
  const sessionToken = ending ? `${IMPERSONATION_PREFIX}${config.session.generateSessionToken()}` : config.session.generateSessionToken()
  const now = new Date(Date.now())
  const expires = ending ?? expiryFrom(config, now.getTime())
  // Only adapters that store the session facts get them (an Auth.js adapter may refuse unknown fields).
  const facts = storesSessionFacts(config) ? { createdAt: now, lastSeenAt: now, userAgent: client?.userAgent ?? null, ip: client?.ip ?? null } : {}
  await adapter.createSession({ sessionToken, userId, expires, ...facts })
  return tokenCookies(jar, set, sessionToken, expires)
}

/** Deletes the session record of the request, if any; returns what the adapter returned. */
export async function deleteDatabaseSession(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions): Promise<AdapterSession | null | undefined> {
  const sessionToken = sessionTokenOf(jar, set)
  if (!sessionToken) return undefined
  const deleted = (await adapterOf(config).deleteSession(sessionToken)) ?? null
  // Every process drops the session from its cache at once.
  await announce(config, { sid: databaseSessionId(sessionToken) })
  return deleted
}

/** The session and its user: from this process's cache when fresh, else from the adapter (then cached). */
async function lookUp(config: ResolvedConfig, sessionToken: string, now: number) {
  const cache = runtimeOf(config).databaseSessions
  const cached = cache.get(sessionToken, now)
  if (cached) return cached
  const found = await adapterOf(config).getSessionAndUser(sessionToken)
  if (!found) return null
  const sid = databaseSessionId(sessionToken)
  const impersonating = sessionToken.startsWith(IMPERSONATION_PREFIX)
  // Read side by side: a provider's refused refresh (issue #17) costs no round trip more than `amr`.
  const [amr, refused, impersonation] = await Promise.all([sessionAmr(config, sid), refreshCanBeRefused(config) ? refusedProviders(config, found.user.id) : undefined, impersonating ? storedImpersonation(config, sid) : undefined])
  // An impersonation's session whose facts cannot be read is refused (never shown as the user's own).
  if (impersonating && !impersonation) return null
  const entry = { ...found, sid, amr, ...(refused?.length && { refused }), ...(impersonation && { impersonation }) }
  cache.set(sessionToken, entry, now)
  return entry
}

/**
 * The session token of an admin's impersonation (issue #30) starts with this: such a session is
 * never extended, and is refused when its impersonation facts cannot be read.
 */
export const IMPERSONATION_PREFIX = "imp_"

function refreshDue(config: ResolvedConfig, expires: Date, now: number, found?: { impersonation?: unknown }): boolean {
  const { maxAge, updateAge, absoluteExpires } = config.session
  if (absoluteExpires || found?.impersonation) return false
  return updateAge === 0 || expires.getTime() - maxAge * 1000 + updateAge * 1000 <= now
}

/**
 * Reads the database session. Without a promise on the common path, as lean as a cookie read: the
 * session found fresh in this process's cache, not past its expiry, no extension due, no `session`
 * callback or event to ask, no update. Anything else goes the whole way (readThrough).
 */
export function readDatabaseSession(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions, update?: SessionUpdate): SessionResult | Promise<SessionResult> {
  if (update || config.custom.session || config.events.session || config.events.audit) return readThrough(config, jar, set, update)
  const sessionToken = sessionTokenOf(jar, set)
  if (!sessionToken) return readThrough(config, jar, set, update)
  const now = Date.now()
  const found = runtimeOf(config).databaseSessions.get(sessionToken, now)
  if (!found) return readThrough(config, jar, set, update)
  const stored = found.session.expires
  const absolute = config.session.absoluteExpires
  const end = absolute && absolute < stored ? absolute : stored
  if (end.getTime() <= now || refreshDue(config, stored, now, found) || found.impersonation) return readThrough(config, jar, set, update)
  const started = found.session.createdAt
  const authTime = started instanceof Date && !Number.isNaN(started.getTime()) ? Math.floor(started.getTime() / 1000) : undefined
  const { user } = found
  const session: Session = { user: { name: user.name, email: user.email, image: user.image }, expires: end.toISOString() }
  if (authTime !== undefined) session.authTime = authTime
  if (found.amr) session.amr = [...found.amr]
  if (found.refused) session.error = REFRESH_TOKEN_ERROR
  const identity = authTime === undefined ? { userId: user.id, sid: found.sid, sessionToken } : { userId: user.id, sid: found.sid, sessionToken, authTime }
  return { session, token: null, cookies: NO_COOKIES, identity }
}

/** `cookies` of a read that sets none: one frozen list for all of them (read, never changed). */
const NO_COOKIES = Object.freeze([]) as unknown as Cookie[]

async function readThrough(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions, update?: SessionUpdate): Promise<SessionResult> {
  const signedOut = (clear: boolean): SessionResult => ({ session: null, token: null, cookies: clear ? clearChunked(set.sessionToken, jar) : [] })
  const sessionToken = sessionTokenOf(jar, set)
  if (!sessionToken) return signedOut(jar[set.sessionToken.name] !== undefined || jar[`${set.sessionToken.name}.0`] !== undefined)
  const adapter = adapterOf(config)
  const now = Date.now()
  const found = await lookUp(config, sessionToken, now)
  if (!found) return signedOut(true)

  const stored = found.session.expires
  const end = config.session.absoluteExpires && config.session.absoluteExpires < stored ? config.session.absoluteExpires : stored
  if (end.getTime() <= now) {
    // The spec: a session accessed after it expired is removed. Signed out even if that fails.
    runtimeOf(config).databaseSessions.delete(sessionToken)
    try {
      await adapter.deleteSession(sessionToken)
    } catch (error) {
      config.logger.error(error as Error)
    }
    return signedOut(true)
  }

  const cookies: Cookie[] = []
  let expires = end
  if (refreshDue(config, stored, now, found)) {
    const extended = expiryFrom(config, now)
    try {
      const lastSeen = storesSessionFacts(config) ? { lastSeenAt: new Date(now) } : {}
      await adapter.updateSession({ sessionToken, expires: extended, ...lastSeen })
      expires = extended
      runtimeOf(config).databaseSessions.set(sessionToken, { ...found, session: { ...found.session, expires: extended, ...lastSeen } }, now)
      cookies.push(...tokenCookies(jar, set, sessionToken, expires))
      // The sign-in facts live as long as the session they describe.
      const lifetime = (extended.getTime() - now) / 1000
      await Promise.all([found.amr && recordSessionAmr(config, found.sid, found.amr, lifetime), found.refused && keepRefused(config, found.user.id, lifetime)])
    } catch (error) {
      // The session is valid until its stored expiry; the next read tries the extension again.
      config.logger.error(error as Error)
    }
  }

  const { user } = found
  // When the session started is when the user signed in (issue #16: `auth.authTime`, epoch seconds).
  const started = found.session.createdAt
  const authTime = started instanceof Date && !Number.isNaN(started.getTime()) ? { authTime: Math.floor(started.getTime() / 1000) } : {}
  const facts = { ...authTime, ...(found.amr && { amr: found.amr }), ...(found.refused && ({ error: REFRESH_TOKEN_ERROR } as const)) }
  const base: Session = { user: { name: user.name, email: user.email, image: user.image }, expires: expires.toISOString(), ...facts }
  if (found.impersonation) base.impersonatedBy = impersonatedBy(found.impersonation.by, found.impersonation.ends)
  const session = await presentSession(config, base, { user }, update)
  return session ? { session, token: null, cookies, identity: { userId: user.id, sid: found.sid, sessionToken, ...authTime } } : signedOut(false)
}
