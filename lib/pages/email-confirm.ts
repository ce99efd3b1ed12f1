/**
 * The page a magic link opens (scanner-safe links): "Sign in as a…@example.com" and one button,
 * a plain form (no JavaScript) that posts the link's token back with the CSRF token (the cookie
 * is set here when the browser has none). Rendering it changes nothing stored, so a mail scanner
 * may fetch it as often as it likes.
 */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { resolveCallbackUrl } from "../core/callback-url.js"
import { ensureCsrfToken } from "../core/csrf.js"
import { linkIdentifier, type LinkParams } from "../providers/email/link.js"
import { maskAddress } from "../providers/email/mask.js"
import type { EmailProviderConfig } from "../providers/types.js"
import { pageLocale, pageResponse } from "./page.js"
import { splitAt } from "./texts.js"

export async function confirmPageResponse(ctx: RequestContext, provider: EmailProviderConfig, params: LinkParams): Promise<ResponseInternal> {
  const { token, identifier } = linkIdentifier(provider, params)
  const callbackUrl = await resolveCallbackUrl(ctx, params.callbackUrl)
  const chosen = pageLocale(ctx)
  const [before, after, found] = splitAt(chosen.locale.messages["confirm.message"], "identifier")
  const model = {
    action: `${ctx.baseUrl}/callback/${provider.id}`,
    masked: maskAddress(identifier),
    message: { before, after, found },
    fields: { csrfToken: ensureCsrfToken(ctx), token, email: identifier, callbackUrl },
  }
  return pageResponse(ctx, "email-confirm", "Sign in", model, 200, chosen)
}
