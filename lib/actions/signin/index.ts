/**
 * `GET signin`: the sign-in page. `POST signin/<provider>`: starts that provider's flow. Routes
 * by provider type only; each type's work lives in its own module.
 */
import { InvalidProvider } from "../../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { bodyString, queryParam } from "../../core/request.js"
import { pageUrl } from "../../core/pages-url.js"
import { redirect } from "../../core/response.js"
import { customPageRedirect } from "../../pages/page.js"
import { signinPageForRequest } from "../../pages/signin-page.js"
import type { Provider } from "../../providers/types.js"
import { emailSignin } from "./email.js"
import { oauthSignin } from "./oauth.js"

export async function signinPage(ctx: RequestContext): Promise<ResponseInternal> {
  const custom = customPageRedirect(ctx, "signIn")
  if (custom) return custom
  const callbackUrl = await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl"))
  return signinPageForRequest(ctx, callbackUrl, queryParam(ctx.request, "error"))
}

export async function signinStart(ctx: RequestContext, provider: Provider): Promise<ResponseInternal> {
  ctx.callbackUrl = await resolveCallbackUrl(ctx, bodyString(ctx.request, "callbackUrl") ?? bodyString(ctx.request, "redirectTo"))
  switch (provider.type) {
    case "credentials":
      // Credentials are posted to the callback; starting them means showing the form.
      return redirect(pageUrl(ctx, "signIn", new URLSearchParams({ callbackUrl: ctx.callbackUrl })))
    case "oauth":
    case "oidc":
      return oauthSignin(ctx, provider)
    case "email":
      return emailSignin(ctx, provider)
    default:
      throw new InvalidProvider(`Sign-in with ${provider.type} providers ("${provider.id}") is not available in this version of Gatehouse`)
  }
}
