/**
 * `callback/<oauth provider>` (GET, or POST for form_post): completes the provider's flow, lets
 * the `signIn` callback decide (it sees the stored user when the account is known), then finds,
 * links or creates the stored user (with an adapter) and starts the session.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { redirect } from "../../core/response.js"
import { proxiedCallback } from "../../providers/oauth/authorization.js"
import { completeAuthorization, responseParams } from "../../providers/oauth/callback.js"
import type { OAuthProviderConfig } from "../../providers/types.js"
import { authorizeSignIn, completeSignIn, type SignInResult } from "./login.js"
import { oauthUser } from "./users.js"

export async function oauthCallback(ctx: RequestContext, provider: OAuthProviderConfig): Promise<ResponseInternal> {
  const params = responseParams(ctx)
  // Behind a redirect proxy, a callback for another deployment goes on to it (its state is sealed).
  const elsewhere = proxiedCallback(ctx, provider, params.getAll("state").length === 1 ? (params.get("state") as string) : undefined)
  if (elsewhere) return redirect(`${elsewhere}?${params}`)

  ctx.callbackUrl = await resolveCallbackUrl(ctx, undefined)
  const found = await completeAuthorization(ctx, provider)
  const adapter = ctx.config.adapter
  const known = adapter?.getUserByAccount ? await adapter.getUserByAccount(found.account) : null
  const result: SignInResult = { user: known ?? found.user, account: found.account, profile: found.profile }
  const refusedTo = await authorizeSignIn(ctx, result)
  if (refusedTo) return redirect(refusedTo)
  if (adapter) {
    const stored = await oauthUser(ctx, found, provider)
    result.user = stored.user
    result.account = { ...found.account, userId: stored.user.id }
    result.isNewUser = stored.isNewUser
    if (stored.reclaimed) result.notice = "AccountReclaimed"
  }
  return completeSignIn(ctx, result, ctx.callbackUrl)
}
