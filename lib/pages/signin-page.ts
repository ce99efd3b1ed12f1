/** The built-in sign-in page as a response: from `GET signin`, or in place of a refused attempt. */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { ensureCsrfToken } from "../core/csrf.js"
import { pageLocale, pageResponse } from "./page.js"
import { signinModel } from "./signin.js"

export function signinPageResponse(ctx: RequestContext, callbackUrl: string, error?: string, status = 200): ResponseInternal {
  const chosen = pageLocale(ctx)
  const model = signinModel({
    providers: ctx.config.providers.list,
    baseUrl: ctx.baseUrl,
    csrfToken: ensureCsrfToken(ctx),
    callbackUrl,
    error,
    t: chosen.locale.messages,
  })
  return pageResponse(ctx, "signin", "Sign in", model, status, chosen)
}
