/**
 * `GET callback/<email provider>?token&email&callbackUrl`: the link from the mail. The token is
 * consumed exactly once (`useVerificationToken` with the identifier and the token's hash, both
 * must match) and must be unexpired; then the `signIn` callback (without verificationRequest),
 * the stored user (found and marked verified, or created), the session. Anything wrong with the
 * link is `Verification`, which signs no one in. Link scanners that only prefetch change nothing.
 */
import { randomUUID } from "node:crypto"
import { Verification } from "../../errors.js"
import type { Adapter } from "../../adapters.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { queryParam } from "../../core/request.js"
import { redirect } from "../../core/response.js"
import type { EmailProviderConfig } from "../../providers/types.js"
import { emailIdentifier } from "../../providers/email/identifier.js"
import { candidateHashes } from "../../providers/email/token.js"
import { authorizeSignIn, completeSignIn } from "./login.js"
import { emailUser } from "./users.js"

/** A prefetch (browsers, mail scanners) announces itself; it must not use up the link. */
function isPrefetch(ctx: RequestContext): boolean {
  const purpose = `${ctx.request.header("sec-purpose") ?? ""} ${ctx.request.header("purpose") ?? ""}`
  return /prefetch|prerender/i.test(purpose)
}

export async function emailCallback(ctx: RequestContext, provider: EmailProviderConfig): Promise<ResponseInternal> {
  if (isPrefetch(ctx)) return { status: 204 }
  const adapter = ctx.config.adapter as Required<Pick<Adapter, "useVerificationToken" | "getUserByEmail">>
  const token = queryParam(ctx.request, "token")
  const email = queryParam(ctx.request, "email")
  if (!token || !email) throw new Verification("The sign-in link is incomplete")
  let identifier: string
  try {
    identifier = emailIdentifier(provider, email)
  } catch (error) {
    throw new Verification("The sign-in link names an invalid address", { cause: { err: error } })
  }
  let invite: Awaited<ReturnType<typeof adapter.useVerificationToken>> = null
  for (const hashed of candidateHashes(token, provider, ctx.config)) {
    invite = await adapter.useVerificationToken({ identifier, token: hashed })
    if (invite) break
  }
  if (!invite) throw new Verification("The sign-in link was used already, or never issued for this address")
  if (invite.expires.getTime() <= Date.now()) throw new Verification("The sign-in link has expired")

  ctx.callbackUrl = await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl"))
  const stored = await adapter.getUserByEmail(identifier)
  const account = { providerAccountId: identifier, type: "email" as const, provider: provider.id }
  const candidate = stored ?? { id: randomUUID(), email: identifier, emailVerified: null }
  const elsewhere = await authorizeSignIn(ctx, { user: candidate, account: { ...account, userId: candidate.id } })
  if (elsewhere) return redirect(elsewhere)
  const { user, isNewUser } = await emailUser(ctx, identifier, stored, account)
  return completeSignIn(ctx, { user, account: { ...account, userId: user.id }, isNewUser }, ctx.callbackUrl)
}
