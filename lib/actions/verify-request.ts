/** `GET verify-request`: "check your email", after an email sign-in link was sent. */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { customPageRedirect, pageResponse } from "../pages/page.js"

export function verifyRequestPage(ctx: RequestContext): ResponseInternal {
  return customPageRedirect(ctx, "verifyRequest") ?? pageResponse(ctx, "verify-request", "Check your email", { home: ctx.request.origin })
}
