/**
 * The end of an email sign-in, once a link's token or a code has used up the stored verification
 * token: the `signIn` callback (without verificationRequest), the stored user (found and marked
 * verified, or created), the session, and the code cookie cleared.
 */
import { randomUUID } from "node:crypto"
import type { Adapter } from "../../adapters.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { redirect } from "../../core/response.js"
import type { EmailProviderConfig } from "../../providers/types.js"
import { clearCodeCookie } from "../../email-codes/pending.js"
import { authorizeSignIn, completeSignIn } from "./login.js"
import { emailUser } from "./users.js"

export async function finishEmailSignIn(ctx: RequestContext, provider: EmailProviderConfig, identifier: string, requestedCallbackUrl: string | undefined): Promise<ResponseInternal> {
  const adapter = ctx.config.adapter as Required<Pick<Adapter, "getUserByEmail">>
  clearCodeCookie(ctx)
  ctx.callbackUrl = await resolveCallbackUrl(ctx, requestedCallbackUrl)
  const stored = await adapter.getUserByEmail(identifier)
  const account = { providerAccountId: identifier, type: "email" as const, provider: provider.id }
  const candidate = stored ?? { id: randomUUID(), email: identifier, emailVerified: null }
  const elsewhere = await authorizeSignIn(ctx, { user: candidate, account: { ...account, userId: candidate.id } })
  if (elsewhere) return redirect(elsewhere)
  const { user, isNewUser, reclaimed } = await emailUser(ctx, identifier, stored, account)
  // The owner is told when the link took the address back from someone who never proved it.
  const notice = reclaimed ? ("AccountReclaimed" as const) : undefined
  return completeSignIn(ctx, { user, account: { ...account, userId: user.id }, isNewUser, notice }, ctx.callbackUrl)
}
