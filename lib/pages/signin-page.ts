/** The built-in sign-in page as a response: from `GET signin`, or in place of a refused attempt. */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { ensureCsrfToken } from "../core/csrf.js"
import { bodyString, queryParam } from "../core/request.js"
import { pageLocale, pageResponse } from "./page.js"
import { signinModel } from "./signin.js"
import { LOGIN_HINT, readIdentifier, identifierField } from "./signin-identifier.js"
import { readLastUsed } from "./signin-last-used.js"

/**
 * What was typed as the identifier in the attempt this request made (a credentials form's
 * identifier field, an email form's address), so a refused attempt keeps it (issue #26). Never a
 * password: only the identifier field is read.
 */
export function attemptedIdentifier(ctx: RequestContext): string | undefined {
  const provider = ctx.request.providerId ? ctx.config.providers.byId.get(ctx.request.providerId) : undefined
  if (!provider || ctx.request.method !== "POST") return undefined
  if (provider.type === "email") return readIdentifier(bodyString(ctx.request, "email"))
  if (provider.type !== "credentials") return undefined
  const field = identifierField(provider)
  return field ? readIdentifier(bodyString(ctx.request, field.name)) : undefined
}

export function signinPageResponse(ctx: RequestContext, callbackUrl: string, error?: string, status = 200): ResponseInternal {
  const chosen = pageLocale(ctx)
  const model = signinModel({
    providers: ctx.config.providers.list,
    baseUrl: ctx.baseUrl,
    csrfToken: ensureCsrfToken(ctx),
    callbackUrl,
    error,
    t: chosen.locale.messages,
    loginHint: readIdentifier(queryParam(ctx.request, LOGIN_HINT)) ?? attemptedIdentifier(ctx),
    lastUsed: readLastUsed(ctx),
  })
  return pageResponse(ctx, "signin", "Sign in", model, status, chosen)
}
