/**
 * `POST callback/<email provider>` with `code`: the one-time code typed on the verify-request
 * page. It works only with the code cookie this browser got when it asked for the mail (a code
 * phished from someone is useless elsewhere), until the code expires; it uses up the stored
 * verification token the link would use (so using one spends the other). Every try counts before
 * it is made, in the shared `store`; the fifth wrong one uses up the token too, so the code and
 * the link are dead and a new email is needed. Tries are also rate-limited per client address and
 * per inbox (`rateLimit.emailCallback`).
 */
import { EmailCodeExpired, EmailCodeInvalid, EmailCodeLocked, EmailCodeNotBound } from "./errors.js"
import type { Adapter } from "../adapters.js"
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { bodyString } from "../core/request.js"
import type { EmailProviderConfig } from "../providers/types.js"
import { MAX_CODE_ATTEMPTS, codeMatches, codeSettings, readTypedCode } from "./code.js"
import { canonicalMailbox } from "../providers/email/mailbox.js"
import { hasCodeCookie, readPendingCode, type PendingCode } from "./pending.js"
import { enforceRateLimit } from "../rate-limit/limiter.js"
import { finishEmailSignIn } from "../actions/callback/email-finish.js"

/** Uses up the stored token the code and the link share; the record when it was still there. */
function spend(ctx: RequestContext, pending: PendingCode) {
  const adapter = ctx.config.adapter as Required<Pick<Adapter, "useVerificationToken">>
  return adapter.useVerificationToken({ identifier: pending.identifier, token: pending.link })
}

export async function emailCodeCallback(ctx: RequestContext, provider: EmailProviderConfig): Promise<ResponseInternal> {
  const settings = codeSettings(provider)
  const pending = readPendingCode(ctx)
  await enforceRateLimit(ctx.config, "emailCallback", ctx.request.clientAddress, pending && canonicalMailbox(pending.identifier))
  if (!settings) throw new EmailCodeNotBound(`Provider "${provider.id}" sends no codes (code: false)`)
  if (!pending || pending.provider !== provider.id) {
    throw new EmailCodeNotBound(hasCodeCookie(ctx) ? "The code cookie is not one this server sealed, or is for another provider" : "No code was asked for in this browser")
  }
  ctx.callbackUrl = pending.callbackUrl
  if (Date.now() >= pending.expires) throw new EmailCodeExpired("The code has expired")

  const remaining = Math.max(1, Math.ceil((pending.expires - Date.now()) / 1000))
  const tries = `email-code:tries:${pending.salt}`
  const { count } = await ctx.config.store.hit(tries, remaining)
  if (count > MAX_CODE_ATTEMPTS) throw new EmailCodeLocked(`${MAX_CODE_ATTEMPTS} wrong codes were typed; the code and its link are dead`)
  if (!codeMatches(readTypedCode(bodyString(ctx.request, "code"), settings), pending.salt, pending.hash)) {
    if (count < MAX_CODE_ATTEMPTS) throw new EmailCodeInvalid(`Wrong code (${MAX_CODE_ATTEMPTS - count} tries left)`)
    await spend(ctx, pending)
    throw new EmailCodeLocked(`${MAX_CODE_ATTEMPTS} wrong codes were typed; the code and its link are dead`)
  }
  const invite = await spend(ctx, pending)
  if (!invite) throw new EmailCodeExpired("The code's sign-in already ended: its link or the code was used, or it was never stored")
  if (invite.expires.getTime() <= Date.now()) throw new EmailCodeExpired("The code's link has expired")
  await ctx.config.store.reset(tries)
  return finishEmailSignIn(ctx, provider, pending.identifier, pending.callbackUrl)
}
