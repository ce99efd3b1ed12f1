/**
 * Ending every session of a user, with no request needed (a ban, a password change, an account
 * takeover): `endUserSessions(resolved, userId)`, for code inside Gatehouse; apps call
 * `revokeUserSessions(userId, config)` (helpers.ts).
 *
 * Database strategy: the user's session records are deleted. Cookie strategy: the user's "not
 * before" time is set to now in the shared store, so every cookie of the user made before now
 * reads as signed out, including cookies made before session ids existed. Either way every
 * process drops what it cached (pub/sub), and the `revokeSession` event fires.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import { countRevocation } from "../telemetry/counts.js"
import { InvalidRequest } from "../errors.js"
import { sessionAdapter } from "./adapter.js"
import { longestSessionSeconds } from "./session-life.js"
import { failureOf } from "./revoke.js"
import { announce } from "./runtime.js"

export async function endUserSessions(config: ResolvedConfig, userId: string): Promise<void> {
  if (typeof userId !== "string" || !userId) throw new InvalidRequest("Revoking a user's sessions needs the user's id (a non-empty string)")
  if (config.session.strategy === "database") {
    await sessionAdapter(config, ["deleteSessionsByUserId"]).deleteSessionsByUserId(userId)
    await announce(config, { user: userId, notBefore: 0 })
  } else {
    const now = Date.now()
    const store = config.store
    // Announced in this process even when the shared store did not take it (then kept and
    // retried there, and the call rejects with RevocationPending: not confirmed).
    const failure = await failureOf(store.revokeUser?.(userId, now, longestSessionSeconds(config, now)))
    await announce(config, { user: userId, notBefore: now })
    const listed = (await store.listSessions?.(userId)) ?? []
    if (listed.length) await store.removeSessions?.(userId, listed.map((record) => record.sid))
    if (failure) throw failure
  }
  countRevocation(config, "user")
  await fireEvent(config, "revokeSession", { userId, scope: "user" })
}
