/**
 * `GET signout`: a confirmation page (a GET never signs anyone out). `POST signout`: ends the
 * session (cookies cleared, `signOut` event) and redirects to the callback URL.
 */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { resolveCallbackUrl } from "../core/callback-url.js"
import { ensureCsrfToken, rotateCsrfToken } from "../core/csrf.js"
import { fireEvent } from "../core/events.js"
import { bodyString, queryParam } from "../core/request.js"
import { redirect } from "../core/response.js"
import { customPageRedirect, pageResponse } from "../pages/page.js"
import { clearChunked, presentNames } from "../session/chunks.js"
import { openSessionToken } from "../session/cookie-strategy.js"
import { deleteDatabaseSession } from "../session/database-strategy.js"
import { endSignedOutSession } from "../sessions/sign-out.js"

export async function signoutPage(ctx: RequestContext): Promise<ResponseInternal> {
  const custom = customPageRedirect(ctx, "signOut")
  if (custom) return custom
  const callbackUrl = await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl"))
  return pageResponse(ctx, "signout", "Sign out", { csrfToken: ensureCsrfToken(ctx), callbackUrl, action: `${ctx.baseUrl}/signout` })
}

export async function signOut(ctx: RequestContext): Promise<ResponseInternal> {
  const { config, request } = ctx
  const requested = bodyString(request, "callbackUrl") ?? bodyString(request, "redirectTo")
  const callbackUrl = await resolveCallbackUrl(ctx, requested)
  const option = ctx.cookies.sessionToken
  if (presentNames(request.cookies, option.name).length > 0) {
    if (config.session.strategy === "database") {
      const session = await deleteDatabaseSession(config, request.cookies, ctx.cookies)
      await fireEvent(config, "signOut", { session })
    } else {
      const token = await openSessionToken(config, request.cookies, ctx.cookies)
      // A copy of this cookie (stolen, or in another tab's jar) is dead too, on every process.
      if (token) await endSignedOutSession(config, token)
      await fireEvent(config, "signOut", { token })
    }
    ctx.outCookies.push(...clearChunked(option, request.cookies))
  }
  rotateCsrfToken(ctx)
  return redirect(callbackUrl)
}
