/**
 * `POST api-keys/<create|revoke>` (CSRF-protected, issue #31), for the account and organization
 * pages' forms and for apps that draw their own. `create` (`name`, `scopes`, `expiresIn` or
 * `expires`, `organizationId` for an organization's key) needs a recent sign-in and is refused
 * while an admin impersonates the user (lib/session/assurance.ts); its answer holds the key, once:
 * JSON `{ key, apiKey }`, or for a form a page that shows it (never in a URL). `revoke` (`keyId`)
 * needs a session. Forms go back where they came from (`callbackUrl`, else the account page) with
 * `?saved=` or `?error=`.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { json, redirect } from "../../core/response.js"
import { AuthError, UnknownAction } from "../../errors.js"
import { requireHolder } from "../../session/assurance.js"
import { createApiKey, revokeApiKey, settingsOf } from "../manage.js"
import { createdKeyPage } from "./page.js"
import { backTo, field, withQuery } from "./common.js"

/** Refusals a page explains in place (anything else takes its usual outcome). */
const EXPLAINED = new Set(["InvalidRequest", "InsufficientScope", "ApiKeyNotFound", "PermissionDenied", "OrganizationNotFound"])

export async function apiKeysPost(ctx: RequestContext): Promise<ResponseInternal> {
  settingsOf(ctx.config)
  const action = ctx.request.providerId ?? ""
  if (action !== "create" && action !== "revoke") throw new UnknownAction(`No action at api-keys/${action}`)
  const form = !ctx.wantsJson && !ctx.request.serverAction
  const back = await backTo(ctx)
  ctx.callbackUrl = back
  try {
    const holder = await requireHolder(ctx, action === "create" ? "recent" : "session", `api-keys/${action}`)
    const actor = { userId: holder.user.id }
    if (action === "create") {
      const created = await createApiKey(ctx.config, { name: field(ctx, "name"), scopes: field(ctx, "scopes"), expiresIn: field(ctx, "expiresIn"), expires: field(ctx, "expires"), organizationId: field(ctx, "organizationId") }, actor)
      if (!form) return json(created, 200, { "Cache-Control": "no-store" })
      return createdKeyPage(ctx, created, back)
    }
    const revoked = await revokeApiKey(ctx.config, field(ctx, "keyId"), actor)
    return form ? redirect(withQuery(back, { saved: "api-key-revoked" })) : json({ revoked: true, apiKey: revoked })
  } catch (error) {
    if (form && error instanceof AuthError && EXPLAINED.has(error.type)) return redirect(withQuery(back, { error: error.type }))
    throw error
  }
}
