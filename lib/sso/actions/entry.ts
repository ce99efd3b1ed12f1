/**
 * `GET sso`: "Sign in with SSO" (issue #28). One field (a work address or an organization's
 * identifier, prefilled from `login_hint`), "Continue" (a POST to `sso` with the CSRF token and the
 * callback URL from the query: lib/sso/start.ts), a link back to the sign-in page keeping both, and
 * the line for an `error` value (only ever a text of the catalogs, never the value itself).
 * Nothing is looked up here: the page is the same for any address.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import { pageUrl } from "../../core/pages-url.js"
import { queryParam } from "../../core/request.js"
import { signinErrorText } from "../../pages/messages.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import { LOGIN_HINT, readIdentifier } from "../../pages/signin-identifier.js"
import { ENTRY_PAGE } from "../pages.js"

export async function ssoEntryPage(ctx: RequestContext): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl"))
  ctx.callbackUrl = callbackUrl
  const chosen = pageLocale(ctx)
  const t = chosen.locale.messages
  const value = readIdentifier(queryParam(ctx.request, LOGIN_HINT))
  const error = queryParam(ctx.request, "error")
  const back = new URLSearchParams({ callbackUrl, ...(value && { [LOGIN_HINT]: value }) })
  const model = {
    action: `${ctx.baseUrl}/sso`,
    csrfToken: ensureCsrfToken(ctx),
    callbackUrl,
    value,
    error: error ? signinErrorText(t, error) : undefined,
    signInUrl: pageUrl(ctx, "signIn", back),
  }
  return pageResponse(ctx, ENTRY_PAGE, t["sso.heading"], model, 200, chosen)
}
