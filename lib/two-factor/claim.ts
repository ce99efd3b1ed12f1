/**
 * Claiming a pending sign-in once its second factor was accepted (a code on the two-factor page,
 * or a passkey of the same user): single use across processes (the pending id is claimed in the
 * shared store), the pending cookie cleared, `twoFactorChallenge` reported for a passkey. Returns
 * how the user signed in: the first factor's `amr` extended and `authTime` now; the caller starts
 * the session with them (`completePending`, lib/actions/callback/login.ts).
 */
import { TwoFactorExpired } from "./errors.js"
import type { RequestContext } from "../core/context.js"
import { fireEvent } from "../core/events.js"
import { PENDING_SECONDS } from "./options.js"
import { clearPending, type PendingSignIn } from "./pending.js"

/** The second factor as an `amr` value: a TOTP code, a recovery code, a passkey. */
export type SecondFactorAmr = "otp" | "recovery" | "hwk"

export async function claimPending(ctx: RequestContext, pending: PendingSignIn, factor: SecondFactorAmr): Promise<{ amr: string[]; authTime: number }> {
  if (!(await ctx.config.store.claim(`2fa:pending:${pending.id}`, 2 * PENDING_SECONDS))) {
    throw new TwoFactorExpired("This pending sign-in was completed already")
  }
  ctx.outCookies.push(...clearPending(ctx))
  if (factor === "hwk") await fireEvent(ctx.config, "twoFactorChallenge", { userId: pending.userId, method: "passkey", outcome: "success" })
  return { amr: [...pending.amr, factor], authTime: Math.floor(Date.now() / 1000) }
}
