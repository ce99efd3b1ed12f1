/**
 * Second-factor lock-outs that grow (issue #24). The rate limit on codes (5 tries per user per 15
 * minutes by default) alone let someone who holds the password guess for ever, 5 codes at a time.
 * Here every wrong code counts per user; the try that reaches the per-user limit starts a
 * lock-out, and each further lock-out lasts twice as long as the one before (15 min, 30 min,
 * 1 h, ... at most a day), remembered for 30 days in the shared store (`config.store`), so it holds
 * across processes. The first lock-out mails the user once (`twoFactorLocked`); a correct code
 * after a lock-out ends still works, and forgets the count. Nobody is locked out for more than a day.
 */
import type { RequestContext } from "../core/context.js"
import { sha256Hex } from "../crypto/hash.js"
import { RateLimited } from "../errors.js"
import type { ResolvedMethodLimits } from "../rate-limit/options.js"
import { sendSecurityNotice } from "./send.js"

/** The longest lock-out, in seconds. */
export const MAX_LOCKOUT = 24 * 60 * 60
/** How long lock-outs are remembered after the last one, in seconds. */
const MEMORY = 30 * 24 * 60 * 60

interface Lockouts {
  /** Lock-outs so far. */
  count: number
  /** Epoch ms when the current lock-out ends. */
  until: number
}

// `:id:` keys are counters per identifier: the memory store never evicts them for per-address ones.
const keys = (userId: string) => {
  const digest = sha256Hex(`2fa\n${userId}`).slice(0, 32)
  return { failures: `2fa:id:failures:${digest}`, lockouts: `2fa:id:lockouts:${digest}` }
}

async function lockouts(ctx: RequestContext, userId: string): Promise<Lockouts | null> {
  const raw = await ctx.config.store.getValue?.(keys(userId).lockouts)
  if (!raw) return null
  try {
    const parsed = JSON.parse(raw) as Partial<Lockouts>
    return typeof parsed.count === "number" && typeof parsed.until === "number" ? { count: parsed.count, until: parsed.until } : null
  } catch {
    return null
  }
}

/** Refuses (`RateLimited`, with the seconds left) while the user's codes are locked out. Counts nothing. */
export async function assertNotLockedOut(ctx: RequestContext, userId: string): Promise<void> {
  const current = await lockouts(ctx, userId)
  const left = current ? current.until - Date.now() : 0
  if (current && left > 0) {
    throw new RateLimited(`Second-factor codes of this user are locked after ${current.count} lock-out(s) for repeated wrong codes`, { retryAfter: left / 1000 })
  }
}

/** A wrong code: counted; the one that reaches the per-user limit starts a lock-out (longer each time). */
export async function countWrongCode(ctx: RequestContext, userId: string, rules: ResolvedMethodLimits | undefined): Promise<void> {
  const rule = rules?.identifier
  if (!rule) return
  const { store } = ctx.config
  const key = keys(userId)
  const { count } = await store.hit(key.failures, rule.window)
  if (count !== rule.limit) return
  const previous = await lockouts(ctx, userId)
  const next = (previous?.count ?? 0) + 1
  const seconds = Math.min(rule.window * 2 ** (next - 1), MAX_LOCKOUT)
  await store.putValue?.(key.lockouts, JSON.stringify({ count: next, until: Date.now() + seconds * 1000 }), MEMORY)
  await store.reset(key.failures)
  // Once: the first lock-out of a series (a correct code ends the series).
  if (!previous) sendSecurityNotice(ctx, userId, "twoFactorLocked")
}

/** A correct code: the wrong ones and the lock-outs are forgotten. */
export async function forgetWrongCodes(ctx: RequestContext, userId: string): Promise<void> {
  const key = keys(userId)
  await ctx.config.store.reset(key.failures)
  if (await lockouts(ctx, userId)) await ctx.config.store.putValue?.(key.lockouts, "", 1)
}
