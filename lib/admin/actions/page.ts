/**
 * The admin pages (issue #30), for an admin with a recent sign-in (actions/get.ts checked): the
 * user list (search, the next page, the form to create a user) and one user's page (what an admin
 * sees of them, and a form per support action). Every change is a POST form with the CSRF token
 * (actions/post.ts), which comes back here with `?saved=` or `?error=`; nothing changes on a GET.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import type { AdminHolder } from "../guard.js"
import type { UserPage } from "../users.js"
import type { AdminUserDetails } from "../support.js"
import { listModel, userModel } from "../page-model.js"
import { ADMIN_LIST_PAGE, ADMIN_USER_PAGE } from "../pages.js"

export interface PageStatus {
  saved?: string
  error?: string
  search?: string
}

export async function adminListPage(ctx: RequestContext, _admin: AdminHolder, page: UserPage, status: PageStatus): Promise<ResponseInternal> {
  const chosen = pageLocale(ctx)
  const { messages: t, tag } = chosen.locale
  const model = await listModel(ctx, page, { csrfToken: ensureCsrfToken(ctx), t, tag, ...status })
  return pageResponse(ctx, ADMIN_LIST_PAGE, t["admin.page.title"], model, 200, chosen)
}

export async function adminUserPage(ctx: RequestContext, admin: AdminHolder, details: AdminUserDetails, status: PageStatus): Promise<ResponseInternal> {
  const chosen = pageLocale(ctx)
  const { messages: t, tag } = chosen.locale
  const model = await userModel(ctx, admin, details, { csrfToken: ensureCsrfToken(ctx), t, tag, saved: status.saved, error: status.error })
  return pageResponse(ctx, ADMIN_USER_PAGE, details.user.name || details.user.email, model, 200, chosen)
}
