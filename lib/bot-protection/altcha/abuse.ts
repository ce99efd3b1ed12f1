/**
 * How much work the next ALTCHA challenges ask for (issue #33). Each answer the verifier refuses
 * (wrong, tampered, expired, replayed, garbage) is counted in the shared store for
 * `ABUSE_WINDOW`; the count is also kept as a plain value, because a store's counters can only be
 * read by counting one more hit (`hit`), and the challenge endpoint must read without counting.
 *
 * The rule: the cost doubles for every `REFUSALS_PER_DOUBLING` refusals in the window, from
 * `altcha.cost` up to `altcha.maxCost` (defaults: 5000, then 10 000 after 10 refusals, 20 000
 * after 20, ... and 80 000 from 40 on). A person solving a challenge then waits a few seconds
 * more during an attack, while a bot pays the same for every attempt; the window ends ten minutes
 * after its first refusal, and the cost falls back with it.
 */
import type { StateStore } from "../../shared-store/types.js"
import type { ResolvedBotProtection } from "../settings.js"

export const REFUSALS_PER_DOUBLING = 10
/** Seconds: refusals count for this long after the window's first one. */
export const ABUSE_WINDOW = 10 * 60

const REFUSALS_KEY = "bot:altcha:refused"
const LEVEL_KEY = "bot:altcha:level"

/** Counts one refused answer; the level is readable (by `currentCost`) until the window ends. */
export async function noteRefusal(store: StateStore): Promise<void> {
  const { count, resetAt } = await store.hit(REFUSALS_KEY, ABUSE_WINDOW)
  // Two refusals at once may write their counts out of order: the level is then one lower for a
  // moment, which the next refusal corrects.
  await store.putValue?.(LEVEL_KEY, String(count), Math.max(1, (resetAt - Date.now()) / 1000))
}

/** The cost for `refusals` refused answers in the window (the rule above). */
export function costFor(altcha: ResolvedBotProtection["altcha"], refusals: number): number {
  const doublings = Math.floor(Math.max(0, refusals) / REFUSALS_PER_DOUBLING)
  // Past 2^30 the product only overflows the maximum: stop doubling well before.
  return Math.min(altcha.maxCost, altcha.cost * 2 ** Math.min(doublings, 30))
}

/** The cost of a challenge made now. A store without values, or one that fails, gives the base cost. */
export async function currentCost(store: StateStore, altcha: ResolvedBotProtection["altcha"]): Promise<number> {
  let level = 0
  try {
    level = Number((await store.getValue?.(LEVEL_KEY)) ?? 0)
  } catch {
    // The store's guard (lib/shared-store/guarded.ts) logs its failures; a challenge is still made.
  }
  return costFor(altcha, Number.isSafeInteger(level) ? level : 0)
}
