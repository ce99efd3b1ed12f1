/** `POST signin/<oauth provider>`: to the provider's authorization endpoint, with the check cookies. */
import { AuthError, OAuthSignInError } from "../../errors.js"
import { outboundFailure } from "../../outbound/failure.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { redirect } from "../../core/response.js"
import { startAuthorization } from "../../providers/oauth/authorization.js"
import type { OAuthProviderConfig } from "../../providers/types.js"
import { currentStoredUser } from "../callback/users.js"

export async function oauthSignin(ctx: RequestContext, provider: OAuthProviderConfig): Promise<ResponseInternal> {
  let start: Awaited<ReturnType<typeof startAuthorization>>
  try {
    // A signed-in user's new account may be linked to them: remember who starts the sign-in.
    const startedBy = ctx.config.adapter ? (await currentStoredUser(ctx))?.id : undefined
    start = await startAuthorization(ctx, provider, startedBy)
  } catch (error) {
    if (error instanceof AuthError) throw error
    const outbound = outboundFailure(error)
    if (outbound) throw outbound
    throw new OAuthSignInError(`The sign-in with provider "${provider.id}" could not start (discovery or configuration)`, { cause: { err: error } })
  }
  const cookies = [...start.cookies]
  // Where to return after the provider: re-checked by the redirect callback when it is read back.
  if (ctx.callbackUrl) cookies.push({ name: ctx.cookies.callbackUrl.name, value: ctx.callbackUrl, options: ctx.cookies.callbackUrl.options })
  // A form_post provider answers with a cross-site POST, which carries SameSite=Lax cookies only
  // if they are SameSite=None (possible over HTTPS only: browsers refuse it without Secure).
  const crossSite = start.formPost && ctx.request.secure
  ctx.outCookies.push(...cookies.map((cookie) => (crossSite ? { ...cookie, options: { ...cookie.options, sameSite: "none" as const, secure: true } } : cookie)))
  return redirect(start.url)
}
