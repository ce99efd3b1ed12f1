/**
 * `callback/<email provider>`: the link from the mail, and the code typed on the verify-request
 * page.
 *
 * - `GET ?token&email&callbackUrl` (the link) only shows a page with one button (scanner-safe
 *   links, the default): mail scanners (Safe Links, Proofpoint, Mimecast) open every link, with
 *   any method and headers, and must not use it up. With `confirm: false` the GET signs in at
 *   once, as Auth.js does, except for requests marked as prefetches.
 * - `POST` with `token`, `email` (from that page's form) uses the token: exactly once
 *   (`useVerificationToken` with the identifier and the token's hash, both must match), and only
 *   unexpired. Anything wrong with the link is `Verification`, which signs no one in.
 * - `POST` with `code`: see email-code.ts.
 *
 * The POST needs the CSRF double-submit token (dispatch.ts). The link's token is itself a
 * secret, but without the check another site could make a victim's browser post a token it got
 * for the attacker's own address (login CSRF: the victim then works in the attacker's account);
 * the confirm page sets the CSRF cookie when the browser has none (a phone's mail app opening a
 * fresh browser), so a person clicking its button always passes.
 */
import { Verification } from "../../errors.js"
import type { Adapter } from "../../adapters.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { bodyString, queryParam } from "../../core/request.js"
import type { EmailProviderConfig } from "../../providers/types.js"
import { linkIdentifier, type LinkParams } from "../../providers/email/link.js"
import { canonicalMailbox } from "../../providers/email/mailbox.js"
import { candidateHashes } from "../../providers/email/token.js"
import { confirmPageResponse } from "../../pages/email-confirm.js"
import { enforceRateLimit } from "../../rate-limit/limiter.js"
import { emailCodeCallback } from "../../email-codes/callback.js"
import { finishEmailSignIn } from "./email-finish.js"

/** A prefetch (browsers, mail scanners) announces itself; it must not use up the link. */
function isPrefetch(ctx: RequestContext): boolean {
  const purpose = `${ctx.request.header("sec-purpose") ?? ""} ${ctx.request.header("purpose") ?? ""}`
  return /prefetch|prerender/i.test(purpose)
}

async function linkSignIn(ctx: RequestContext, provider: EmailProviderConfig, params: LinkParams): Promise<ResponseInternal> {
  const { token, identifier } = linkIdentifier(provider, params)
  await enforceRateLimit(ctx.config, "emailCallback", ctx.request.clientAddress, canonicalMailbox(identifier))
  const adapter = ctx.config.adapter as Required<Pick<Adapter, "useVerificationToken">>
  let invite: Awaited<ReturnType<typeof adapter.useVerificationToken>> = null
  for (const hashed of candidateHashes(token, provider, ctx.config)) {
    invite = await adapter.useVerificationToken({ identifier, token: hashed })
    if (invite) break
  }
  if (!invite) throw new Verification("The sign-in link was used already (or its code was), or never issued for this address")
  if (invite.expires.getTime() <= Date.now()) throw new Verification("The sign-in link has expired")
  return finishEmailSignIn(ctx, provider, identifier, params.callbackUrl)
}

const fromQuery = (ctx: RequestContext): LinkParams => ({
  token: queryParam(ctx.request, "token"),
  email: queryParam(ctx.request, "email"),
  callbackUrl: queryParam(ctx.request, "callbackUrl"),
})

const fromBody = (ctx: RequestContext): LinkParams => ({
  token: bodyString(ctx.request, "token"),
  email: bodyString(ctx.request, "email"),
  callbackUrl: bodyString(ctx.request, "callbackUrl"),
})

export async function emailCallback(ctx: RequestContext, provider: EmailProviderConfig): Promise<ResponseInternal> {
  if (ctx.request.method === "POST") {
    if (bodyString(ctx.request, "code") !== undefined) return emailCodeCallback(ctx, provider)
    return linkSignIn(ctx, provider, fromBody(ctx))
  }
  if (provider.confirm === false) {
    if (isPrefetch(ctx)) return { status: 204 }
    return linkSignIn(ctx, provider, fromQuery(ctx))
  }
  await enforceRateLimit(ctx.config, "emailCallback", ctx.request.clientAddress)
  return confirmPageResponse(ctx, provider, fromQuery(ctx))
}
