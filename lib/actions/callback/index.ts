/**
 * `callback/<provider>`: where a provider hands the user back. Routes by provider type; the work
 * lives in one module per type.
 */
import { InvalidProvider, MethodNotAllowed } from "../../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { bodyString } from "../../core/request.js"
import type { Provider } from "../../providers/types.js"
import { credentialsCallback } from "./credentials.js"
import { isPasswordProvider } from "../../password/actions/common.js"
import { passwordSignIn } from "../../password/actions/sign-in.js"
import { emailCallback } from "./email.js"
import { oauthCallback } from "./oauth.js"
import { webauthnCallback } from "./webauthn.js"

export async function callback(ctx: RequestContext, provider: Provider): Promise<ResponseInternal> {
  if (provider.type === "credentials") {
    if (ctx.request.method !== "POST") {
      throw new MethodNotAllowed("Credentials are posted to their callback; a GET never signs anyone in", { allow: "POST" })
    }
    ctx.callbackUrl = await resolveCallbackUrl(ctx, bodyString(ctx.request, "callbackUrl") ?? bodyString(ctx.request, "redirectTo"))
    if (isPasswordProvider(provider)) return passwordSignIn(ctx, provider, ctx.callbackUrl)
    return credentialsCallback(ctx, provider, ctx.callbackUrl)
  }
  if (provider.type === "oauth" || provider.type === "oidc") return oauthCallback(ctx, provider)
  if (provider.type === "webauthn") {
    if (ctx.request.method !== "POST") throw new MethodNotAllowed("Passkey responses are posted to their callback", { allow: "POST" })
    ctx.callbackUrl = await resolveCallbackUrl(ctx, bodyString(ctx.request, "callbackUrl") ?? bodyString(ctx.request, "redirectTo"))
    return webauthnCallback(ctx, provider)
  }
  // Email: GET is the link (its confirm page), POST the confirm button or a typed code.
  if (provider.type === "email") return emailCallback(ctx, provider)
  throw new InvalidProvider(`Callbacks for ${provider.type} providers ("${provider.id}") are not available in this version of Gatehouse`)
}
