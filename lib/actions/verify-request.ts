/**
 * `GET verify-request`: "check your email", after an email sign-in link was sent; in the browser
 * that asked, also the field for the mail's one-time code. Rate-limited per client address
 * (`rateLimit.emailCallback`).
 */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { customPageRedirect, pageLocale, pageResponse } from "../pages/page.js"
import { resendChallenge, verifyRequestModel } from "../pages/verify-request.js"
import { enforceRateLimit } from "../rate-limit/limiter.js"

export async function verifyRequestPage(ctx: RequestContext): Promise<ResponseInternal> {
  const custom = customPageRedirect(ctx, "verifyRequest")
  if (custom) return custom
  await enforceRateLimit(ctx.config, "emailCallback", ctx.request.clientAddress)
  const chosen = pageLocale(ctx)
  const model = verifyRequestModel(ctx, chosen.locale.messages)
  return pageResponse(ctx, "verify-request", "Check your email", model, 200, chosen, resendChallenge(ctx, model, chosen))
}
