/**
 * `GET passkey-setup[/<passkey provider>]?callbackUrl=<url>`: the page where a signed-in person
 * creates a passkey for their account (the WebAuthn registration ceremony, then back to
 * `callbackUrl`). The sign-in page's "create a passkey" path ends here after a magic link proved
 * the address (issue #12), so a first passkey is only ever made for an address its owner proved.
 * Signed-out visitors are sent to sign in first, and come back here.
 */
import { InvalidProvider } from "../../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import { queryParam } from "../../core/request.js"
import { WEBAUTHN_SCRIPT } from "../../pages/assets.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import { SETUP_PAGE } from "../pages.js"
import type { Provider, WebAuthnProviderConfig } from "../../providers/types.js"
import { holderOrSignIn, isHolder } from "../../session/assurance.js"

function passkeyProvider(ctx: RequestContext, named: Provider | undefined): WebAuthnProviderConfig {
  const provider = named ?? ctx.config.providers.list.find((candidate) => candidate.type === "webauthn")
  if (provider?.type !== "webauthn") throw new InvalidProvider("passkey-setup needs a passkey provider")
  return provider
}

export async function passkeySetupPage(ctx: RequestContext, named: Provider | undefined): Promise<ResponseInternal> {
  const provider = passkeyProvider(ctx, named)
  const callbackUrl = await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl"))
  // A new way in: a recent sign-in (issue #24); else sign in (again) and come back.
  const back = `${ctx.baseUrl}/passkey-setup/${provider.id}?${new URLSearchParams({ callbackUrl })}`
  const holder = await holderOrSignIn(ctx, "recent", "Adding a passkey", back)
  if (!isHolder(holder)) return holder
  const chosen = pageLocale(ctx)
  const model = {
    // Said only when it is true: this session signed in by a link from the mail (not after a password, say).
    emailConfirmed: holder.session.amr?.[0] === "email",
    csrfToken: ensureCsrfToken(ctx),
    callbackUrl,
    scriptUrl: `${ctx.baseUrl}/assets/${WEBAUTHN_SCRIPT}`,
    provider: {
      id: provider.id,
      action: `${ctx.baseUrl}/callback/${provider.id}`,
      optionsUrl: `${ctx.baseUrl}/webauthn-options/${provider.id}`,
      conditional: false,
    },
  }
  return pageResponse(ctx, SETUP_PAGE, chosen.locale.messages["passkey.setup.heading"], model, 200, chosen)
}
