/**
 * Ending a pending sign-in once its second factor was accepted (a code on the two-factor page,
 * or a passkey of the same user): single use across processes (the pending id is claimed in the
 * shared store), the pending cookie cleared, `twoFactorChallenge` reported for a passkey, then the
 * real session starts with the first factor's user and account, `amr` extended and `authTime` now.
 */
import { TwoFactorExpired } from "../../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { fireEvent } from "../../core/events.js"
import { PENDING_SECONDS } from "../../two-factor/options.js"
import { clearPending, type PendingSignIn } from "../../two-factor/pending.js"
import { completeSignIn } from "../callback/login.js"

/** The second factor as an `amr` value: a TOTP code, a recovery code, a passkey. */
export type SecondFactorAmr = "otp" | "recovery" | "hwk"

export async function completePending(ctx: RequestContext, pending: PendingSignIn, factor: SecondFactorAmr): Promise<ResponseInternal> {
  if (!(await ctx.config.store.claim(`2fa:pending:${pending.id}`, 2 * PENDING_SECONDS))) {
    throw new TwoFactorExpired("This pending sign-in was completed already")
  }
  ctx.outCookies.push(...clearPending(ctx))
  if (factor === "hwk") await fireEvent(ctx.config, "twoFactorChallenge", { userId: pending.userId, method: "passkey", outcome: "success" })
  const { user, account, profile, isNewUser, notice } = pending
  const facts = { amr: [...pending.amr, factor], authTime: Math.floor(Date.now() / 1000) }
  return completeSignIn(ctx, { user, account, profile, isNewUser, notice }, pending.callbackUrl, facts)
}
