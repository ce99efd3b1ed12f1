/**
 * The server helpers for the signed-in user's own sessions, on the app's routes:
 *
 *   app.get("/account/devices", async (req, res) => res.json(await listSessions(req, config)))
 *   app.post("/account/devices/:id/end", async (req, res) => { await revokeSession(req, config, req.params.id); ... })
 *
 * Signed out (or revoked): `SessionRequired`. The session is read once per request, as
 * `getSession` does (a refreshed cookie goes on `req.res`). And with no request, every session of
 * any user (a ban, an account takeover): `revokeUserSessions(userId, config)`.
 *
 * These resolve the app's configuration, so nothing inside Gatehouse imports this file (the
 * resolver reads the capability list: no import cycles).
 */
import type { AuthConfig, AuthConfigInput } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { SessionRequired } from "../errors.js"
import { resolveConfig } from "../core/config/resolve.js"
import { resolveFor } from "../express/config.js"
import { requestIdentity } from "../express/session.js"
import type { GatehouseRequest } from "../express/types.js"
import type { SessionIdentity } from "../session/cookie-strategy.js"
import { listUserSessions, type SessionInfo } from "./list.js"
import { revokeOwnOtherSessions, revokeOwnSession } from "./revoke.js"
import { endUserSessions } from "./revoke-user.js"

export type { SessionInfo }

async function signedIn(req: GatehouseRequest, input: AuthConfigInput): Promise<{ config: ResolvedConfig; identity: SessionIdentity }> {
  const config = await resolveFor(req, input)
  const identity = await requestIdentity(req, req.res, config)
  if (!identity) throw new SessionRequired("Listing or revoking sessions needs a signed-in user")
  return { config, identity }
}

/** The signed-in user's live sessions, newest first (no tokens). */
export async function listSessions(req: GatehouseRequest, config: AuthConfigInput): Promise<SessionInfo[]> {
  const { config: resolved, identity } = await signedIn(req, config)
  return listUserSessions(resolved, identity)
}

/** Ends one of the signed-in user's sessions (`SessionNotFound` for any id not theirs). */
export async function revokeSession(req: GatehouseRequest, config: AuthConfigInput, id: string): Promise<void> {
  const { config: resolved, identity } = await signedIn(req, config)
  await revokeOwnSession(resolved, identity, id)
}

/** Ends every session of the signed-in user but this one ("sign out everywhere else"); returns how many on record ended. */
export async function revokeOtherSessions(req: GatehouseRequest, config: AuthConfigInput): Promise<number> {
  const { config: resolved, identity } = await signedIn(req, config)
  return revokeOwnOtherSessions(resolved, identity)
}

/** Ends every session of the user `userId`, on every process, for either session strategy. */
export async function revokeUserSessions(userId: string, config: AuthConfigInput): Promise<void> {
  const resolved = resolveConfig((typeof config === "function" ? await config() : config) as AuthConfig)
  await endUserSessions(resolved, userId)
}
