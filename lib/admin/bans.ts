/**
 * Bans (issue #30). Banning ends every session of the user on every process (within the
 * revocation channel's second) and refuses every later sign-in, whatever the method (password,
 * magic link, passkey, OAuth, SSO, credentials): `UserBanned`, checked where every sign-in ends
 * (lib/actions/callback/login.ts) after the method proved who it is, so the refusal tells nothing
 * to someone who does not hold the account. A ban with an expiry ends by itself. Sign-in is the
 * only place a ban is read: sessions need no per-request check, the ban ended them all.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { RequestContext } from "../core/context.js"
import { InvalidRequest } from "../errors.js"
import { endUserSessions } from "../devices/revoke-user.js"
import type { AdapterUserBan } from "./adapter.js"
import { adminStorageOf } from "./access.js"
import { UserBanned } from "./errors.js"
import { adminChanged, type Actor } from "./changes.js"

const MAX_REASON = 500

/** The user's ban when it is in force (not expired), else null. */
export async function activeBan(config: ResolvedConfig, userId: string, now = Date.now()): Promise<AdapterUserBan | null> {
  const ban = await adminStorageOf(config).getUserBan(userId)
  return ban && (ban.expires === null || ban.expires.getTime() > now) ? ban : null
}

/** At the end of every sign-in: `UserBanned` for a user under a ban (no-op without the admin tools). */
export async function refuseBanned(ctx: RequestContext, userId: string | undefined): Promise<void> {
  const config = ctx.config
  if (!config.admin || !userId) return
  if (await activeBan(config, userId)) throw new UserBanned("This account is banned")
}

function reasonOf(value: unknown): string | null {
  if (value === undefined || value === null || value === "") return null
  if (typeof value !== "string" || value.length > MAX_REASON) throw new InvalidRequest(`A ban's reason must be text of at most ${MAX_REASON} characters`)
  return value.trim() || null
}

/** `expires`: a Date, an ISO 8601 time, or a number of seconds from now; absent or empty: until lifted. */
function expiryOf(value: unknown, now: number): Date | null {
  if (value === undefined || value === null || value === "") return null
  const date = value instanceof Date ? value : typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value)) ? new Date(now + Number(value) * 1000) : typeof value === "string" ? new Date(value) : new Date(Number.NaN)
  if (Number.isNaN(date.getTime()) || date.getTime() <= now) throw new InvalidRequest("A ban's expiry must be a time in the future (ISO 8601) or a number of seconds")
  return date
}

export async function banUser(config: ResolvedConfig, userId: string, input: { reason?: unknown; expires?: unknown }, actor: Actor): Promise<AdapterUserBan> {
  const now = Date.now()
  const ban: AdapterUserBan = { userId, reason: reasonOf(input.reason), expires: expiryOf(input.expires, now), createdAt: new Date(now), bannedBy: actor?.userId ?? null }
  await adminStorageOf(config).putUserBan(ban)
  // Every session of the user ends everywhere (database rows deleted, cookie sessions refused).
  await endUserSessions(config, userId)
  await adminChanged(config, { type: "admin.user_banned", adminId: actor?.userId ?? null, userId, reason: ban.reason, expires: ban.expires?.toISOString() ?? null })
  return ban
}

export async function unbanUser(config: ResolvedConfig, userId: string, actor: Actor): Promise<boolean> {
  const lifted = await adminStorageOf(config).deleteUserBan(userId)
  if (lifted) await adminChanged(config, { type: "admin.user_unbanned", adminId: actor?.userId ?? null, userId })
  return lifted
}
