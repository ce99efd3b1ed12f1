/**
 * The admin tools for the app's own code (issue #30), exported by `gatehouse`:
 * - `adminAction(req, res, config, action, fields)`: any `POST admin/<action>` as the signed-in
 *   admin, with the same rules (an admin, a recent sign-in; a refusal is thrown as its named
 *   error), for back offices that draw their own pages; impersonating sets its cookies on `res`;
 * - `isAdmin(req, config)`: whether the signed-in user is an admin now;
 * - server code, acting for no admin (scripts, a back office with its own checks): `listUsers`,
 *   `getUserDetails`, `createUser`, `updateUser`, `banUser`, `unbanUser`, `removeTwoFactor`,
 *   `deleteUser`. Each keeps every rule (a free address, the last owner stays) and fires the
 *   `admin` event (its audit record names no admin).
 * These resolve the app's configuration, so nothing inside Gatehouse imports this file.
 */
import type { AuthConfig, AuthConfigInput } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { resolveConfig } from "../core/config/resolve.js"
import { dispatch } from "../core/dispatch.js"
import { setCookieLines } from "../core/set-cookie.js"
import { resolveFor } from "../express/config.js"
import { toInternalRequest } from "../express/request.js"
import { appendSetCookie } from "../express/respond.js"
import type { GatehouseRequest, GatehouseResponse } from "../express/types.js"
import { getSession, requestIdentity } from "../express/session.js"
import type { AdapterUserBan } from "./adapter.js"
import { adminStorageOf, isAdminUser, targetUser } from "./access.js"
import * as bans from "./bans.js"
import * as users from "./users.js"
import * as support from "./support.js"

async function resolved(config: AuthConfigInput): Promise<ResolvedConfig> {
  return resolveConfig((typeof config === "function" ? await config() : config) as AuthConfig)
}

/** Runs `POST admin/<action>` as the signed-in admin; its JSON answer. Cookies it sets (impersonating) go on `res`. */
export async function adminAction(req: GatehouseRequest, res: GatehouseResponse, config: AuthConfigInput, action: string, fields: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const resolvedConfig = await resolveFor(req, config)
  const request = toInternalRequest(req, resolvedConfig, { action: "admin", providerId: action, method: "POST", basePath: resolvedConfig.basePath, body: fields, serverAction: true })
  const response = await dispatch(request, resolvedConfig, { throwErrors: true })
  appendSetCookie(res, setCookieLines(response.cookies))
  const body = response.body
  return (typeof body === "string" ? JSON.parse(body) : body) as Record<string, unknown>
}

/** Whether the signed-in user is an admin now (the session is read as `getSession` reads it); false signed out or while impersonating. */
export async function isAdmin(req: GatehouseRequest, config: AuthConfigInput): Promise<boolean> {
  const resolvedConfig = await resolveFor(req, config)
  if (!resolvedConfig.admin) return false
  const session = await getSession(req, config)
  if (!session || session.impersonatedBy) return false
  const identity = await requestIdentity(req, req.res, resolvedConfig)
  const user = identity?.userId ? await adminStorageOf(resolvedConfig).getUser(identity.userId) : null
  return user ? isAdminUser(resolvedConfig, user) : false
}

export async function listUsers(config: AuthConfigInput, query: { search?: string; cursor?: string; limit?: number } = {}): Promise<users.UserPage> {
  return users.listUsers(await resolved(config), query)
}

export async function getUserDetails(config: AuthConfigInput, userId: string): Promise<support.AdminUserDetails> {
  return support.userDetails(await resolved(config), userId)
}

export async function createUser(config: AuthConfigInput, input: { email: string; name?: string | null; emailVerified?: boolean }): Promise<users.AdminUserSummary> {
  return users.createUser(await resolved(config), input, null)
}

export async function updateUser(config: AuthConfigInput, userId: string, input: { email?: string; name?: string | null; emailVerified?: boolean }): Promise<users.AdminUserSummary> {
  return users.updateUser(await resolved(config), userId, input, null)
}

/** Bans the user (`expires`: a Date, or seconds from now; absent: until lifted); their sessions end everywhere. */
export async function banUser(config: AuthConfigInput, userId: string, options: { reason?: string; expires?: Date | number } = {}): Promise<AdapterUserBan> {
  const resolvedConfig = await resolved(config)
  const user = await targetUser(resolvedConfig, userId)
  return bans.banUser(resolvedConfig, user.id, options, null)
}

/** Lifts the user's ban; false when there was none. */
export async function unbanUser(config: AuthConfigInput, userId: string): Promise<boolean> {
  const resolvedConfig = await resolved(config)
  const user = await targetUser(resolvedConfig, userId)
  return bans.unbanUser(resolvedConfig, user.id, null)
}

export async function removeTwoFactor(config: AuthConfigInput, userId: string): Promise<boolean> {
  return support.removeTwoFactor(await resolved(config), userId, null)
}

export async function deleteUser(config: AuthConfigInput, userId: string): Promise<void> {
  return support.deleteUserAsAdmin(await resolved(config), userId, null)
}
