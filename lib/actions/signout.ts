/**
 * `GET signout`: a confirmation page (a GET never signs anyone out), with "Cancel" back to the
 * app. `POST signout`: ends the session (cookies cleared, `signOut` event) and redirects to the
 * callback URL.
 */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { resolveCallbackUrl, runRedirectCallback } from "../core/callback-url.js"
import { ensureCsrfToken, rotateCsrfToken } from "../core/csrf.js"
import { fireEvent } from "../core/events.js"
import { bodyString, queryParam } from "../core/request.js"
import { redirect } from "../core/response.js"
import { customPageRedirect, pageResponse } from "../pages/page.js"
import { clearChunked, presentNames } from "../session/chunks.js"
import { openSessionToken } from "../session/cookie-strategy.js"
import { deleteDatabaseSession, sessionTokenOf } from "../session/database-strategy.js"
import { endSignedOutSession } from "../devices/sign-out.js"
import { federates, signOutAtProviders, type SignedOutSession } from "../federation/sign-out.js"
import { clearPending } from "../two-factor/pending.js"
import { clearEnrolment } from "../two-factor/enrolment.js"
import { clearSentEmail } from "../providers/email/sent.js"
import { organizationCookie } from "../organizations/session-fact.js"
import { clearStash, endStashedSession } from "../admin/impersonation/stash.js"

/**
 * Where "Cancel" goes: the callback URL the page was opened with, else the app's home page
 * (`pages.home`), else the callback URL the flow would use (the cookie's, or the site's root).
 */
async function cancelUrl(ctx: RequestContext, requested: string | undefined, callbackUrl: string): Promise<string> {
  const home = ctx.config.pages.home
  if (requested !== undefined || !home) return callbackUrl
  return runRedirectCallback(ctx, new URL(home, ctx.request.origin).href)
}

export async function signoutPage(ctx: RequestContext): Promise<ResponseInternal> {
  const custom = customPageRedirect(ctx, "signOut")
  if (custom) return custom
  const requested = queryParam(ctx.request, "callbackUrl")
  const callbackUrl = await resolveCallbackUrl(ctx, requested)
  const model = { csrfToken: ensureCsrfToken(ctx), callbackUrl, action: `${ctx.baseUrl}/signout`, cancelUrl: await cancelUrl(ctx, requested, callbackUrl) }
  return pageResponse(ctx, "signout", "Sign out", model)
}

export async function signOut(ctx: RequestContext): Promise<ResponseInternal> {
  const { config, request } = ctx
  const requested = bodyString(request, "callbackUrl") ?? bodyString(request, "redirectTo")
  const callbackUrl = await resolveCallbackUrl(ctx, requested)
  const option = ctx.cookies.sessionToken
  let signedOut: SignedOutSession | undefined
  if (presentNames(request.cookies, option.name).length > 0) {
    if (config.session.strategy === "database") {
      // Whose session it was, for the provider side (an adapter's deleteSession may return nothing).
      const sessionToken = federates(config) ? sessionTokenOf(request.cookies, ctx.cookies) : undefined
      const owner = sessionToken ? (await config.adapter?.getSessionAndUser?.(sessionToken))?.user.id : undefined
      const session = await deleteDatabaseSession(config, request.cookies, ctx.cookies)
      await fireEvent(config, "signOut", { session })
      const userId = session?.userId ?? owner
      if (userId) signedOut = { userId }
    } else {
      const token = await openSessionToken(config, request.cookies, ctx.cookies)
      // A copy of this cookie (stolen, or in another tab's jar) is dead too, on every process.
      if (token) await endSignedOutSession(config, token)
      await fireEvent(config, "signOut", { token })
      if (token) signedOut = { token }
    }
    ctx.outCookies.push(...clearChunked(option, request.cookies))
  }
  // A sign-in waiting for its second factor or its required enrolment ends too (issue #24).
  ctx.outCookies.push(...clearPending(ctx), ...clearEnrolment(ctx))
  // The address of the last sign-in email is not shown to the next person at this browser.
  clearSentEmail(ctx)
  rotateCsrfToken(ctx)
  // federatedSignOut / revokeTokensOnSignOut (issue #17): the provider's end-session URL, if any.
  const atProvider = signedOut ? await signOutAtProviders(config, signedOut, request.origin) : undefined
  // The organization this browser acted for is forgotten with the session (issue #27).
  if (config.organizations) ctx.outCookies.push(organizationCookie(ctx.cookies.sessionToken.options.secure === true, null))
  // Signing out while an admin impersonates someone (issue #30) signs the browser out of both.
  if (config.admin) {
    await endStashedSession(ctx)
    ctx.outCookies.push(...clearStash(ctx))
  }
  // Single logout at a SAML identity provider the user signed in through (issue #28).
  const userId = signedOut?.userId ?? (typeof signedOut?.token?.sub === "string" ? signedOut.token.sub : undefined)
  const atIdentityProvider = !atProvider && config.sso && userId ? await (await import("../sso/saml/logout-target.js")).samlLogoutTarget(ctx, userId).catch((error: unknown) => (config.logger.error(error as Error), null)) : null
  return redirect(atProvider ?? atIdentityProvider ?? callbackUrl)
}
