/**
 * `GET admin` and `GET admin/<userId>` (issue #30): the user list (search, pages) and one user's
 * view, for an admin with a recent sign-in (guard.ts). A browser gets the admin page (signed out or
 * stale: the sign-in page first, coming back here); an API call (Accept: application/json) gets
 * the same data as JSON: `{ users, next }` (with `oidcClients` when the identity provider is on,
 * issue #32), or the user's details. Nothing changes on a GET.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { json } from "../../core/response.js"
import { queryParam } from "../../core/request.js"
import { AuthError } from "../../errors.js"
import { audit, reasonOf } from "../../audit/emit.js"
import { adminOrSignIn } from "../guard.js"
import { adminSettingsOf } from "../access.js"
import { listUsers } from "../users.js"
import { userDetails } from "../support.js"
import { adminOidcClients } from "../../identity-provider/admin-section.js"
import { adminListPage, adminUserPage } from "./page.js"
import { adminPageUrl, userPageUrl } from "./common.js"

export async function adminGet(ctx: RequestContext): Promise<ResponseInternal> {
  adminSettingsOf(ctx.config)
  const userId = ctx.request.providerId
  const back = userId === undefined ? adminPageUrl(ctx) : userPageUrl(ctx, userId)
  let admin
  try {
    admin = await adminOrSignIn(ctx, "The admin page", back)
  } catch (error) {
    if (error instanceof AuthError) audit(ctx.config, { type: "admin.refused", outcome: "failure", reason: reasonOf(error), action: "view", ...(userId && { targetId: userId }) })
    throw error
  }
  if (!("identity" in admin)) return admin
  const status = { saved: queryParam(ctx.request, "saved"), error: queryParam(ctx.request, "error") }
  if (userId === undefined) {
    const search = queryParam(ctx.request, "search")
    const page = await listUsers(ctx.config, { search, cursor: queryParam(ctx.request, "cursor"), limit: queryParam(ctx.request, "limit") })
    return ctx.wantsJson ? json({ ...page, ...(await adminOidcClients(ctx)) }) : adminListPage(ctx, admin, page, { ...status, search })
  }
  const details = await userDetails(ctx.config, userId)
  return ctx.wantsJson ? json(details) : adminUserPage(ctx, admin, details, status)
}
