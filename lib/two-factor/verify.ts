/**
 * Checking a second factor for a user: a current TOTP code (within one step either side, each
 * step accepted once per user across processes, through the shared store) or one of the user's
 * unused recovery codes. Every attempt counts against the limits per client address and per user
 * before it is checked; a success forgets the user's count. Repeated wrong codes lock the user's
 * codes out, longer each time (lib/notices/two-factor-lockout.ts). The `twoFactorChallenge` event tells
 * the outcome of every attempt.
 */
import type { Adapter } from "../adapters.js"
import type { RequestContext } from "../core/context.js"
import { fireEvent } from "../core/events.js"
import { AuthError, RateLimited } from "../errors.js"
import { RecoveryCodeUsed, TwoFactorCodeInvalid, TwoFactorCodeReplayed } from "./errors.js"
import { enforceRateLimit, forgiveIdentifier } from "../rate-limit/limiter.js"
import { DEFAULT_RATE_LIMITS } from "../rate-limit/options.js"
import type { TwoFactorChallengeMessage } from "./events.js"
import { TOTP_PERIOD, TOTP_WINDOW } from "./options.js"
import { hashRecoveryCode, isRecoveryCodeShape } from "./recovery-codes.js"
import { openSecret } from "./secret-box.js"
import { matchingStep } from "./totp.js"
import { assertNotLockedOut, countWrongCode, forgetWrongCodes } from "../notices/two-factor-lockout.js"

export type SecondFactor = "totp" | "recovery"

type Storage = Required<Pick<Adapter, "getTwoFactor" | "useRecoveryCode">>

/** The rules for codes: the configured ones, else the defaults (codes are limited even when rate limiting is off). */
export function twoFactorRules(ctx: Pick<RequestContext, "config">) {
  return ctx.config.rateLimit ? ctx.config.rateLimit.twoFactor : DEFAULT_RATE_LIMITS.twoFactor
}

async function checkTotp(ctx: RequestContext, userId: string, secret: string, code: string): Promise<void> {
  const step = matchingStep(secret, code)
  if (step === null) throw new TwoFactorCodeInvalid("The code is not the current one")
  // Kept until the step can no longer be accepted (it stays valid up to TOTP_WINDOW steps later).
  const firstUse = await ctx.config.store.claim(`2fa:step:${userId}:${step}`, TOTP_PERIOD * (TOTP_WINDOW + 2))
  if (!firstUse) throw new TwoFactorCodeReplayed("This code was accepted already; wait for the next one")
}

async function checkRecoveryCode(ctx: RequestContext, storage: Storage, userId: string, code: string): Promise<void> {
  const use = await storage.useRecoveryCode(userId, hashRecoveryCode(code))
  if (use === "alreadyUsed") throw new RecoveryCodeUsed("This recovery code was used before")
  if (use !== "accepted") throw new TwoFactorCodeInvalid("The recovery code is not one of the user's")
}

/** What the person typed: a 6-digit code or a recovery code. Throws a named error when it is not accepted. */
export async function verifySecondFactor(ctx: RequestContext, userId: string, typed: string): Promise<SecondFactor> {
  const storage = ctx.config.adapter as Storage
  const code = typed.trim()
  const method: SecondFactor = isRecoveryCodeShape(code) ? "recovery" : "totp"
  const report = (outcome: TwoFactorChallengeMessage["outcome"]) => fireEvent(ctx.config, "twoFactorChallenge", { userId, method, outcome })
  const rules = twoFactorRules(ctx)
  try {
    await assertNotLockedOut(ctx, userId)
    await enforceRateLimit(ctx.config, "twoFactor", ctx.request.clientAddress, userId, rules)
    const record = await storage.getTwoFactor(userId)
    if (!record) throw new TwoFactorCodeInvalid("The user has no two-factor record")
    if (method === "recovery") await checkRecoveryCode(ctx, storage, userId, code)
    else await checkTotp(ctx, userId, await openSecret(ctx.config, record.secret), code.replace(/\s/g, ""))
    await forgiveIdentifier(ctx.config, "twoFactor", userId, rules)
    await forgetWrongCodes(ctx, userId)
  } catch (error) {
    const type = error instanceof AuthError ? error.type : undefined
    if (error instanceof RateLimited || type === "TwoFactorCodeInvalid" || type === "TwoFactorCodeReplayed" || type === "RecoveryCodeUsed") {
      await report(type as TwoFactorChallengeMessage["outcome"])
    }
    // Repeated wrong codes lock the user's codes out for longer each time (issue #24).
    if (type === "TwoFactorCodeInvalid" || type === "TwoFactorCodeReplayed" || type === "RecoveryCodeUsed") await countWrongCode(ctx, userId, rules)
    throw error
  }
  await report("success")
  return method
}
