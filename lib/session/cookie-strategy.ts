/**
 * The `cookie` (alias `jwt`) strategy: the session is an encrypted JWT in the session cookie.
 *
 * A read opens the cookie with the cached keys, runs the `jwt` and `session` callbacks only when
 * the app supplied them, and writes a new cookie only when something requires it: the expiry is
 * due to move (`updateAge`), the `jwt` callback changed the token, the token was sealed with an
 * older secret (rotation), or the request is an update. Anything wrong with the cookie reads as
 * signed out and the cookie is cleared; it is never an error page.
 */
import { JWTSessionError } from "../errors.js"
import type { Cookie, CookiesOptions, JWT, Session } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { CLOCK_TOLERANCE, nowSeconds, sealToken } from "../jwt/codec.js"
import { openSessionValue, ownClaims, type OpenedSession } from "./opened-cache.js"
import { clearChunked, presentNames, readChunked, writeChunked, type CookieJar } from "./chunks.js"
import { isoSeconds, isPastAbsoluteEnd, nextExpiry, refreshDue, tokenLifetime } from "./expiry.js"
import { presentSession, type SessionUpdate } from "./session-callback.js"
import { cookieSessionRevoked, sessionCreatedAt } from "../devices/check.js"
import { recordCookieSession, touchCookieSession, withSessionId } from "../devices/registry.js"
import type { ClientInfo } from "../devices/ids.js"
import { keepTokenClaims, REFRESH_TOKEN_ERROR } from "../tokens/provider-tokens.js"
import { keepReservedFacts, snapshotFacts, TOKEN_FACTS } from "./reserved-facts.js"
import { claimsImpersonation, impersonatedBy } from "../admin/impersonation/facts.js"

export interface SessionResult {
  session: Session | null
  /** The token after the `jwt` callback (cookie strategy). */
  token: JWT | null
  /** Whose session it is and which one (for listing and revoking sessions); absent when signed out. */
  identity?: SessionIdentity
  /** Cookies to set: a refreshed session, or clearing a bad one. */
  cookies: Cookie[]
}

export interface SessionIdentity {
  userId?: string
  /** The session id: the cookie's `sid` (absent in cookies made before sids), or a database session's id. */
  sid?: string
  /** The database session's token (never shown; to keep this session when revoking the others). */
  sessionToken?: string
  /** When the session started (ms), for cookie sessions. */
  createdAt?: number
  /** When the user signed in (epoch seconds, issue #16's `authTime`), when the session records it. */
  authTime?: number
  /** When the cookie session ends (ms). */
  expires?: number
}

/** `cookies` of a read that sets none: one frozen list for all of them (read, never changed). */
const NO_COOKIES = Object.freeze([]) as unknown as Cookie[]

/** The client's user agent and address, asked for only when a session record is written. */
export type ClientSource = () => ClientInfo

const NO_CLIENT: ClientSource = () => ({ userAgent: null, ip: null })

/** `secret` as the user's seal/unseal functions expect it: a string, or the list. */
function secretParam(config: ResolvedConfig): string | string[] {
  return config.secrets.length === 1 ? (config.secrets[0] as string) : [...config.secrets]
}

async function unseal(config: ResolvedConfig, value: string, salt: string, now: number): Promise<OpenedSession | null> {
  const custom = config.session.unseal
  if (!custom) return openSessionValue(config, value, salt, now)
  let payload: JWT | null
  try {
    payload = await custom({ token: value, secret: secretParam(config), salt })
  } catch {
    return null
  }
  if (!payload || typeof payload !== "object") return null
  if (typeof payload.exp === "number" && payload.exp <= now - CLOCK_TOLERANCE) return null
  return { payload, secretIndex: 0, createdAt: sessionCreatedAt(payload) }
}

export async function sealSession(config: ResolvedConfig, token: JWT, salt: string, now = nowSeconds()): Promise<string> {
  const maxAge = tokenLifetime(config.session, now)
  const custom = config.session.seal
  if (custom) return custom({ token, secret: secretParam(config), salt, maxAge })
  return sealToken(token, config.secrets[0] as string, salt, maxAge, now)
}

/** Seals `token` into the session cookie(s), clearing chunks the new value does not use. */
export async function writeSessionCookies(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions, token: JWT, now = nowSeconds()): Promise<{ cookies: Cookie[]; expires: number }> {
  const sealed = await sealSession(config, token, set.sessionToken.name, now)
  const expires = nextExpiry(config.session, now)
  if (sealed.length > 4000) config.logger.debug(`The session cookie is ${sealed.length} characters; it is split into chunks`)
  return { cookies: writeChunked(set.sessionToken, sealed, jar, new Date(expires * 1000)), expires }
}

function signedOut(jar: CookieJar, set: CookiesOptions, clear: boolean): SessionResult {
  return { session: null, token: null, cookies: clear ? clearChunked(set.sessionToken, jar) : [] }
}

/**
 * The session token of the request, opened (null when absent or invalid). It decides nobody's
 * access (lib/session/signed-in.ts does): only sign-out (to end that session everywhere) and a
 * cookie rewrite after the signed-in check (getAccessToken's token home) use it.
 */
export async function openSessionToken(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions): Promise<JWT | null> {
  const value = readChunked(jar, set.sessionToken.name)
  if (value === undefined) return null
  const opened = await unseal(config, value, set.sessionToken.name, nowSeconds())
  return opened ? ownClaims(opened) : null
}

/**
 * Reads the cookie session. Synchronous (a plain result, no promise) on the common path: the
 * value opened with the built-in codec (or from the opened-token cache), the revocation check
 * answered from this process's cache, no `jwt`/`session` callback or `session` event, no refresh
 * due. Anything else continues asynchronously with the same rules.
 */
export function readCookieSession(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions, update?: SessionUpdate, client: ClientSource = NO_CLIENT): SessionResult | Promise<SessionResult> {
  const option = set.sessionToken
  const value = readChunked(jar, option.name)
  // No usable value: absent (nothing to do), or chunks that do not fit together (clear them).
  if (value === undefined) return signedOut(jar, set, presentNames(jar, option.name).length > 0)
  const now = nowSeconds()
  if (config.session.unseal) {
    return unseal(config, value, option.name, now).then((opened) => afterOpen(config, jar, set, update, client, opened, now))
  }
  return afterOpen(config, jar, set, update, client, openSessionValue(config, value, option.name, now), now)
}

function afterOpen(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions, update: SessionUpdate | undefined, client: ClientSource, opened: OpenedSession | null, now: number): SessionResult | Promise<SessionResult> {
  if (!opened || isPastAbsoluteEnd(config.session, now)) {
    config.logger.debug("JWTSessionError: the session cookie is invalid or expired (tampered, truncated, another secret, or past exp); treated as signed out")
    return signedOut(jar, set, true)
  }
  // An admin's impersonation (issue #30) ends at its own time, whatever the session's expiry.
  const impersonationEnds = opened.payload.impersonationEnds
  if (impersonationEnds !== undefined && !(typeof impersonationEnds === "number" && impersonationEnds > now)) {
    config.logger.debug("The impersonation has ended; the session is treated as signed out")
    return signedOut(jar, set, true)
  }
  const revoked = cookieSessionRevoked(config, opened.payload, opened.createdAt)
  if (revoked === false) return afterRevocationCheck(config, jar, set, update, client, opened, now)
  if (revoked === true) return revokedSession(config, jar, set)
  return revoked.then((yes) => (yes ? revokedSession(config, jar, set) : afterRevocationCheck(config, jar, set, update, client, opened, now)))
}

function revokedSession(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions): SessionResult {
  config.logger.debug("The session cookie's session was signed out or revoked; treated as signed out")
  return signedOut(jar, set, true)
}

function afterRevocationCheck(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions, update: SessionUpdate | undefined, client: ClientSource, opened: OpenedSession, now: number): SessionResult | Promise<SessionResult> {
  const claims = opened.payload
  const quiet = !config.custom.jwt && !update && opened.secretIndex === 0 && !refreshDue(config.session, claims.iat, now)
  if (!quiet) return rewriteAndPresent(config, jar, set, update, client, opened, now)
  let expires = typeof claims.exp === "number" ? claims.exp : nextExpiry(config.session, now)
  if (config.session.absoluteExpires) expires = Math.min(expires, nextExpiry(config.session, now))
  // Nothing to ask the app: the session as read, without a promise.
  if (!config.custom.session && !config.events.session && !config.events.audit) {
    const session = baseSession(claims, expires, expiresText(opened, expires))
    // The claims may be shared by every read of this cookie: the session gets its own amr list.
    if (session.amr) session.amr = [...session.amr]
    return { session, token: claims, cookies: NO_COOKIES, identity: identityOf(claims, expires, opened.createdAt) }
  }
  // The app's callback or event sees the token: an object of its own.
  const token = ownClaims(opened)
  return presentSession(config, baseSession(token, expires, expiresText(opened, expires)), { token }, update).then((session) => (session ? { session, token, cookies: [], identity: identityOf(token, expires) } : signedOut(jar, set, false)))
}

/** `Session.expires` (ISO 8601): one Date and string per opened cookie value, not one per read. */
function expiresText(opened: OpenedSession, expires: number): string {
  if (opened.expiresSeconds !== expires || opened.expiresText === undefined) {
    opened.expiresText = isoSeconds(expires)
    opened.expiresSeconds = expires
  }
  return opened.expiresText
}

function baseSession(token: JWT, expires: number, expiresIso = isoSeconds(expires)): Session {
  const session: Session = {
    user: { name: token.name, email: token.email, image: token.picture as string | null | undefined },
    expires: expiresIso,
  }
  // A provider refused the refresh token (getAccessToken): the app sends the user to sign in.
  if (token.error === REFRESH_TOKEN_ERROR) session.error = REFRESH_TOKEN_ERROR
  // How and when the user signed in (issue #16), when the token has them.
  if (Array.isArray(token.amr)) session.amr = token.amr as string[]
  if (typeof token.authTime === "number") session.authTime = token.authTime
  if (token.impersonatedBy !== undefined) {
    const impersonation = claimsImpersonation(token)
    if (impersonation) session.impersonatedBy = impersonatedBy(impersonation.by, impersonation.ends)
  }
  return session
}

function identityOf(token: JWT, expires: number, createdAt = sessionCreatedAt(token)): SessionIdentity {
  const identity: SessionIdentity = { userId: token.sub, sid: token.sid as string | undefined, createdAt, expires: expires * 1000 }
  if (typeof token.authTime === "number") identity.authTime = token.authTime
  return identity
}

/** The path with callbacks, a refresh, a rotation or an update: may write a new cookie. */
async function rewriteAndPresent(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions, update: SessionUpdate | undefined, client: ClientSource, opened: OpenedSession, now: number): Promise<SessionResult> {
  // The app's callbacks may change the claims: they get an object of their own, never the cached one.
  const sealed = ownClaims(opened)
  let token: JWT | null = sealed
  const before = config.custom.jwt ? (opened.plaintext ?? JSON.stringify(sealed)) : undefined
  if (config.custom.jwt || update) {
    // Gatehouse's facts as recorded, before the app's code sees the token (it may change it in place).
    const recorded = snapshotFacts(sealed, TOKEN_FACTS)
    try {
      token = await config.callbacks.jwt(update ? { token: sealed, trigger: "update", session: update.data } : { token: sealed })
    } catch (error) {
      config.logger.error(new JWTSessionError("The jwt callback threw while reading a session; this request is treated as signed out", { cause: { err: error } }))
      return signedOut(jar, set, false)
    }
    if (!token) return signedOut(jar, set, true)
    // The session keeps its id, how and when the user signed in, and its pending state, whatever
    // the callback returned (issue #24: an update merged into the token changes none of them)...
    token = keepReservedFacts(token, recorded, TOKEN_FACTS)
    // ...and its provider tokens (getAccessToken), unless the callback set them itself.
    token = keepTokenClaims(token, sealed)
  }

  const changed = before !== undefined && JSON.stringify(token) !== before
  const cookies: Cookie[] = []
  let expires = typeof sealed.exp === "number" ? sealed.exp : nextExpiry(config.session, now)
  const due = refreshDue(config.session, sealed.iat, now)
  if (update || changed || opened.secretIndex > 0 || due) {
    // A cookie made before session ids gets one now (and is recorded, so it can be listed).
    const upgraded = typeof token.sid !== "string"
    if (upgraded) token = withSessionId(token)
    const written = await writeSessionCookies(config, jar, set, token, now)
    cookies.push(...written.cookies)
    expires = written.expires
    // The record's last-seen time moves at most once per updateAge (not on every callback change).
    if (upgraded) await recordCookieSession(config, token, expires * 1000, client())
    else if (due) await touchCookieSession(config, token, expires * 1000, client)
  }
  if (config.session.absoluteExpires) expires = Math.min(expires, nextExpiry(config.session, now))

  const session = await presentSession(config, baseSession(token, expires), { token }, update)
  if (!session) return signedOut(jar, set, false)
  return { session, token, cookies, identity: identityOf(token, expires) }
}
