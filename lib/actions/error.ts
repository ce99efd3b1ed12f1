/** `GET error`: the error page, or the app's own (`pages.error`). */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { queryParam } from "../core/request.js"
import { pageUrl } from "../core/pages-url.js"
import { ERROR_PAGE_STATUS } from "../core/error-messages.js"
import { errorModel } from "../pages/error.js"
import { customPageRedirect, pageResponse } from "../pages/page.js"

export function errorPage(ctx: RequestContext): ResponseInternal {
  const custom = customPageRedirect(ctx, "error")
  if (custom) return custom
  // Every value the page explains, the capabilities' too; the page re-reads it in the request's language.
  const model = errorModel(queryParam(ctx.request, "error"), { signIn: pageUrl(ctx, "signIn"), home: ctx.request.origin }, ctx.config.i18n.fallback.messages, ERROR_PAGE_STATUS)
  return pageResponse(ctx, "error", model.heading, model, model.status)
}
