/**
 * `POST admin/<action>` (CSRF-protected; issue #30), for the admin page's forms and for back
 * offices that draw their own: create-user, update-user, ban, unban, revoke-sessions,
 * remove-two-factor, send-password-reset, delete-user, impersonate (each by an admin with a recent
 * sign-in: guard.ts), and stop-impersonating (by the browser that impersonates, whoever it shows).
 * API calls (Accept: application/json) get JSON, or the error's status; forms go back to the
 * user's page (`?saved=<action>`, or `?error=<type>` for a refusal the page explains).
 * With the identity provider on (issue #32), its clients too: create-oidc-client,
 * rotate-oidc-client-secret (both answer a page that shows the secret once; JSON
 * `{ client, clientSecret }`) and delete-oidc-client (lib/identity-provider/admin-section.ts).
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { json, redirect } from "../../core/response.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { AuthError, InvalidOption, InvalidRequest, UnknownAction } from "../../errors.js"
import { audit, reasonOf } from "../../audit/emit.js"
import { requireAdmin, type AdminHolder } from "../guard.js"
import { adminSettingsOf, targetUser } from "../access.js"
import { adminChanged } from "../changes.js"
import { banUser, unbanUser } from "../bans.js"
import { createUser, updateUser } from "../users.js"
import { deleteUserAsAdmin, removeTwoFactor, revokeUserSessionsAsAdmin, sendPasswordReset } from "../support.js"
import { startImpersonation } from "../impersonation/start.js"
import { stopImpersonation } from "../impersonation/stop.js"
import { adminPageUrl, field, userPageUrl } from "./common.js"
import { OIDC_CLIENT_ACTIONS, OIDC_CLIENT_ERRORS, oidcClientAction } from "../../identity-provider/admin-section.js"

/** Refusals the user page explains in place (anything else takes its usual outcome). */
const EXPLAINED = new Set(["EmailInUse", "InvalidRequest", "ImpersonationDenied", "LastOwner", "MissingAdapterMethods"])

/** The JSON answer; where a form goes next, or (`answer`) the page it gets instead. */
type Next = { json: Record<string, unknown>; page?: string; answer?: ResponseInternal }

/** The admin page's clients section (issue #32), where its forms come back to. */
const CLIENTS = "#oidc-clients"

/** What an admin may not do to themself here (their own account page deletes their account). */
const NOT_TO_ONESELF = new Set(["ban", "delete-user"])

async function perform(ctx: RequestContext, admin: AdminHolder, action: string, userId: unknown): Promise<Next> {
  const { config } = ctx
  const actor = { userId: admin.user.id }
  if (NOT_TO_ONESELF.has(action) && userId === admin.user.id) throw new InvalidRequest(`An admin cannot ${action === "ban" ? "ban" : "delete"} themself from the admin tools`)
  if (OIDC_CLIENT_ACTIONS.has(action)) {
    // A deleted client goes back to the list saying so; a new secret's page links back to the list.
    const back = `${adminPageUrl(ctx, action === "delete-oidc-client" ? { saved: action } : undefined)}${CLIENTS}`
    const done = await oidcClientAction(ctx, action, admin.user.id, back)
    return { json: done.json, page: done.back, answer: done.page }
  }
  const back = typeof userId === "string" && userId ? userPageUrl(ctx, userId, { saved: action }) : undefined
  switch (action) {
    case "create-user": {
      const user = await createUser(config, { email: field(ctx, "email"), name: field(ctx, "name"), emailVerified: field(ctx, "emailVerified") }, actor)
      return { json: { user }, page: userPageUrl(ctx, user.id, { saved: action }) }
    }
    case "update-user":
      return { json: { user: await updateUser(config, userId, { email: field(ctx, "email"), name: field(ctx, "name"), emailVerified: field(ctx, "emailVerified") }, actor) }, page: back }
    case "ban": {
      const user = await targetUser(config, userId)
      const ban = await banUser(config, user.id, { reason: field(ctx, "reason"), expires: field(ctx, "expires") }, actor)
      return { json: { banned: true, ban: { reason: ban.reason, expires: ban.expires?.toISOString() ?? null } }, page: back }
    }
    case "unban": {
      const user = await targetUser(config, userId)
      return { json: { unbanned: await unbanUser(config, user.id, actor) }, page: back }
    }
    case "revoke-sessions":
      await revokeUserSessionsAsAdmin(config, userId, actor)
      return { json: { revoked: true }, page: back }
    case "remove-two-factor":
      return { json: { removed: await removeTwoFactor(config, userId, actor) }, page: back }
    case "send-password-reset":
      await sendPasswordReset(ctx, userId, actor)
      return { json: { sent: true }, page: back }
    case "delete-user":
      await deleteUserAsAdmin(config, userId, actor)
      return { json: { deleted: true }, page: adminPageUrl(ctx, { saved: action }) }
    case "impersonate": {
      const user = await targetUser(config, userId)
      const impersonatedBy = await startImpersonation(ctx, admin, user)
      await adminChanged(config, { type: "admin.impersonation_started", adminId: admin.user.id, userId: user.id, expires: impersonatedBy.ends })
      const next = field(ctx, "callbackUrl")
      return { json: { impersonating: user.id, impersonatedBy }, page: typeof next === "string" && next ? await resolveCallbackUrl(ctx, next) : ctx.request.origin }
    }
    default:
      throw new UnknownAction(`No action at admin/${action}`)
  }
}

async function stop(ctx: RequestContext): Promise<ResponseInternal> {
  const stopped = await stopImpersonation(ctx)
  if (stopped.userId) await adminChanged(ctx.config, { type: "admin.impersonation_stopped", adminId: stopped.adminId, userId: stopped.userId })
  if (ctx.wantsJson || ctx.request.serverAction) return json({ stopped: true, userId: stopped.userId })
  return redirect(stopped.userId ? userPageUrl(ctx, stopped.userId, { saved: "stop-impersonating" }) : adminPageUrl(ctx))
}

export async function adminPost(ctx: RequestContext): Promise<ResponseInternal> {
  adminSettingsOf(ctx.config)
  const action = ctx.request.providerId ?? ""
  if (action === "stop-impersonating") return stop(ctx)
  const userId = field(ctx, "userId")
  const clients = OIDC_CLIENT_ACTIONS.has(action)
  const page = typeof userId === "string" && userId && action !== "create-user" && !clients ? userPageUrl(ctx, userId) : adminPageUrl(ctx)
  // A stale sign-in: the sign-in page, then back to the page the form was on.
  ctx.callbackUrl = page
  let next: Next
  try {
    const admin = await requireAdmin(ctx, `admin/${action}`)
    next = await perform(ctx, admin, action, userId)
  } catch (error) {
    if (error instanceof AuthError) audit(ctx.config, { type: "admin.refused", outcome: "failure", reason: reasonOf(error), action, ...(typeof userId === "string" && { targetId: userId }) })
    const explained = error instanceof AuthError && (EXPLAINED.has(error.type) || (clients && OIDC_CLIENT_ERRORS.has(error.type)))
    if (error instanceof AuthError && explained && !ctx.wantsJson && !ctx.request.serverAction) {
      ctx.config.logger.debug(`admin/${action} refused: ${error.type}`)
      return redirect(`${page}${page.includes("?") ? "&" : "?"}${new URLSearchParams({ error: error.type })}${clients ? CLIENTS : ""}`)
    }
    // A client's bad input is the request's fault (400), not the configuration's.
    if (clients && error instanceof InvalidOption) throw new InvalidRequest(error.message)
    throw error
  }
  // A client's secret is in the answer: never cached.
  if (ctx.wantsJson || ctx.request.serverAction) return json(next.json, 200, clients ? { "Cache-Control": "no-store" } : undefined)
  if (next.answer) return next.answer
  return redirect(next.page ?? page)
}
