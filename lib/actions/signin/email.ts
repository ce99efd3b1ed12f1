/**
 * `POST signin/<email provider>`: normalise the address, let the `signIn` callback decide (with
 * `email: { verificationRequest: true }`), store the token's hash, send the link, and go to the
 * verify-request page. The answer is the same whether or not the address has an account. If the
 * mail cannot be sent, the stored token is removed and the user lands on `error=EmailSignin`.
 * With codes on (the default), the mail also carries a one-time code, bound to this browser by
 * the code cookie set with the redirect (see lib/email-codes/pending.ts).
 */
import { randomUUID } from "node:crypto"
import { EmailSignInError } from "../../errors.js"
import type { Adapter } from "../../adapters.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { bodyString } from "../../core/request.js"
import { pageUrl } from "../../core/pages-url.js"
import { redirect } from "../../core/response.js"
import type { EmailProviderConfig } from "../../providers/types.js"
import { emailIdentifier } from "../../providers/email/identifier.js"
import { canonicalMailbox } from "../../providers/email/mailbox.js"
import { hashToken, newToken } from "../../providers/email/token.js"
import { codeSettings, hashCode, newCode } from "../../email-codes/code.js"
import { codeCookie } from "../../email-codes/pending.js"
import { sentCookie } from "../../providers/email/sent.js"
import { randomHex } from "../../crypto/random.js"
import { authorizeSignIn } from "../callback/login.js"
import { enforceRateLimit } from "../../rate-limit/limiter.js"
import { requireHuman } from "../../bot-protection/check.js"
import { traceMail } from "../../telemetry/mail.js"

const DAY = 24 * 60 * 60

export async function emailSignin(ctx: RequestContext, provider: EmailProviderConfig): Promise<ResponseInternal> {
  const adapter = ctx.config.adapter as Required<Pick<Adapter, "getUserByEmail" | "createVerificationToken" | "useVerificationToken">>
  const posted = bodyString(ctx.request, "email")
  if (posted === undefined) throw new EmailSignInError("No single email address was posted")
  const identifier = emailIdentifier(provider, posted)
  // Counted per inbox: sub-addresses and dotted Gmail spellings of one mailbox share a limit.
  await enforceRateLimit(ctx.config, "email", ctx.request.clientAddress, canonicalMailbox(identifier))
  // Bot protection (issue #33): no mail to a stranger for a request that fails the challenge.
  await requireHuman(ctx, "emailSignIn")

  const user = (await adapter.getUserByEmail(identifier)) ?? { id: randomUUID(), email: identifier, emailVerified: null }
  const account = { providerAccountId: identifier, userId: user.id, type: "email" as const, provider: provider.id }
  const elsewhere = await authorizeSignIn(ctx, { user, account, extra: { email: { verificationRequest: true } } })
  if (elsewhere) return redirect(elsewhere)

  const token = await newToken(provider)
  const hashed = hashToken(token, provider, ctx.config)
  const expires = new Date(Date.now() + (provider.maxAge ?? DAY) * 1000)
  await adapter.createVerificationToken({ identifier, token: hashed, expires })
  const query = new URLSearchParams({ callbackUrl: ctx.callbackUrl ?? ctx.request.origin, token, email: identifier })
  const url = `${ctx.baseUrl}/callback/${provider.id}?${query}`
  const settings = codeSettings(provider)
  const code = settings && newCode(settings)
  const codeExpires = settings && new Date(Math.min(expires.getTime(), Date.now() + settings.maxAge * 1000))
  try {
    const send = provider.sendVerificationRequest
    if (!send) throw new Error("the provider has no sendVerificationRequest")
    await traceMail(ctx.config, provider.id, identifier, async () => send({ identifier, url, expires, provider, token, code, codeExpires, theme: ctx.config.theme, request: ctx.request.webRequest() }))
  } catch (error) {
    // No orphan token: the link was never delivered.
    await Promise.resolve(adapter.useVerificationToken({ identifier, token: hashed })).catch(() => undefined)
    throw new EmailSignInError(`The sign-in email for provider "${provider.id}" could not be sent`, { cause: { err: error } })
  }
  if (code && codeExpires) {
    const salt = randomHex(16)
    const pending = { provider: provider.id, identifier, link: hashed, hash: hashCode(code, salt), salt, callbackUrl: ctx.callbackUrl ?? ctx.request.origin }
    ctx.outCookies.push(codeCookie(ctx, pending, Math.max(1, Math.round((codeExpires.getTime() - Date.now()) / 1000))))
  }
  // The verify-request page names the address and can send the mail again (issue #26).
  ctx.outCookies.push(sentCookie(ctx, { provider: provider.id, identifier, callbackUrl: ctx.callbackUrl ?? ctx.request.origin }))
  return redirect(pageUrl(ctx, "verifyRequest", new URLSearchParams({ provider: provider.id, type: "email" })))
}
