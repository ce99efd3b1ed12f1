/**
 * Ending sessions of the signed-in user: one by id (only among their own: any other id, another
 * user's included, is `SessionNotFound`, the same answer whatever the reason), or all but the
 * current one. Every process sees it at once (pub/sub), and the `revokeSession` event fires.
 *
 * Cookie sessions, "everywhere else": the user's "not before" moves to now, sparing only the
 * current session, so every other session ends, listed or not (a record lost, or past the memory
 * store's 100 per user). A revocation the shared store did not take is applied in this process
 * and kept until written, and the action answers `RevocationPending` (503), never success.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import { countRevocation } from "../telemetry/counts.js"
import { InvalidRequest } from "../errors.js"
import { SessionNotFound } from "./errors.js"
import type { SessionIdentity } from "../session/cookie-strategy.js"
import { sessionAdapter } from "./adapter.js"
import { longestSessionSeconds } from "./session-life.js"
import { databaseSessionId, SESSION_ID } from "./ids.js"
import { announce } from "./runtime.js"
import { CLOCK_TOLERANCE } from "../jwt/codec.js"

function ownerOf(identity: SessionIdentity): string {
  if (!identity.userId) throw new SessionNotFound("This session has no user id, so its other sessions cannot be found")
  return identity.userId
}

/** The error of `work`, or undefined when it succeeded: a revocation is announced in this process even when the store did not take it. */
export async function failureOf(work: Promise<unknown> | undefined): Promise<unknown> {
  try {
    await work
    return undefined
  } catch (error) {
    return error ?? new Error("revocation failed")
  }
}

/** Ends a cookie session by sid: revoked until it would have expired, its record removed. */
async function endCookieSession(config: ResolvedConfig, userId: string, sid: string, expires: number | undefined): Promise<void> {
  const now = Date.now()
  const ttl = expires ? Math.max(1, Math.ceil((expires - now) / 1000) + CLOCK_TOLERANCE) : longestSessionSeconds(config, now)
  const failure = await failureOf(config.store.revokeSid?.(sid, ttl))
  await announce(config, { sid })
  await config.store.removeSessions?.(userId, [sid])
  if (failure) throw failure
}

export async function revokeOwnSession(config: ResolvedConfig, identity: SessionIdentity, id: unknown): Promise<void> {
  if (typeof id !== "string" || !SESSION_ID.test(id)) throw new InvalidRequest("The session id to revoke is missing or malformed")
  const userId = ownerOf(identity)
  const now = Date.now()
  if (config.session.strategy === "database") {
    const adapter = sessionAdapter(config, ["listSessionsByUserId", "deleteSession"])
    const found = (await adapter.listSessionsByUserId(userId)).find((session) => session.expires.getTime() > now && databaseSessionId(session.sessionToken) === id)
    if (!found) throw new SessionNotFound("No live session of the signed-in user has that id")
    await adapter.deleteSession(found.sessionToken)
    await announce(config, { sid: id })
  } else {
    const record = ((await config.store.listSessions?.(userId)) ?? []).find((candidate) => candidate.sid === id && candidate.expires > now)
    if (!record && id !== identity.sid) throw new SessionNotFound("No live session of the signed-in user has that id")
    await endCookieSession(config, userId, id, record?.expires ?? identity.expires)
  }
  countRevocation(config, "session")
  await fireEvent(config, "revokeSession", { userId, scope: "session", sessionId: id })
}

/** Ends every session of the user but the current one; returns how many were ended (cookie: those on record). */
export async function revokeOwnOtherSessions(config: ResolvedConfig, identity: SessionIdentity): Promise<number> {
  const userId = ownerOf(identity)
  let ended: number
  if (config.session.strategy === "database") {
    ended = await sessionAdapter(config, ["deleteSessionsByUserId"]).deleteSessionsByUserId(userId, { except: identity.sessionToken })
    await announce(config, { user: userId, notBefore: 0 })
  } else {
    const others = ((await config.store.listSessions?.(userId)) ?? []).filter((record) => record.sid !== identity.sid)
    ended = others.length
    const spare = identity.sid
    if (spare) {
      // Every session started before now, listed or not, but this one.
      const now = Date.now()
      const failure = await failureOf(config.store.revokeUser?.(userId, now, longestSessionSeconds(config, now), spare))
      await announce(config, { user: userId, notBefore: now, spare })
      if (others.length) await config.store.removeSessions?.(userId, others.map((record) => record.sid))
      if (failure) throw failure
    } else {
      // A current cookie made before session ids cannot be spared by name: the listed sessions
      // end one by one, and every session started before this one.
      for (const record of others) await endCookieSession(config, userId, record.sid, record.expires)
      const notBefore = identity.createdAt ?? 0
      if (notBefore > 0) {
        const failure = await failureOf(config.store.revokeUser?.(userId, notBefore, longestSessionSeconds(config)))
        await announce(config, { user: userId, notBefore })
        if (failure) throw failure
      }
    }
  }
  countRevocation(config, "others", ended)
  await fireEvent(config, "revokeSession", { userId, scope: "others" })
  return ended
}
