/**
 * `accountLinking`: what a sign-in that proves an address does when it meets a stored user with
 * that address whom nobody has proved owning it (`emailVerified: null`) and who has other ways to
 * sign in (a passkey, an OAuth account). See the README, "Account linking and email trust".
 *
 * - `"reclaim"` (default): the proving person gets the account. Every sign-in method they did not
 *   prove is removed, every session of that user is ended, and they are told on the next page.
 *   Nobody who squatted the address keeps a way in, and the owner is never locked out.
 * - `"refuse"`: the sign-in is refused with `UnverifiedAccountExists`; nothing changes until the
 *   app removes that user (or turns this back to "reclaim").
 */
import { InvalidOption } from "../errors.js"

export type UnverifiedEmailPolicy = "reclaim" | "refuse"

export interface AccountLinkingOptions {
  /** Default "reclaim". */
  unverifiedEmail?: UnverifiedEmailPolicy
}

export interface ResolvedAccountLinking {
  readonly unverifiedEmail: UnverifiedEmailPolicy
}

const POLICIES: readonly UnverifiedEmailPolicy[] = ["reclaim", "refuse"]

export function resolveAccountLinking(option: unknown): ResolvedAccountLinking {
  if (option === undefined) return Object.freeze({ unverifiedEmail: "reclaim" })
  if (!option || typeof option !== "object" || Array.isArray(option)) {
    throw new InvalidOption(`accountLinking must be an object such as { unverifiedEmail: "reclaim" } (got ${JSON.stringify(option)})`)
  }
  const policy = (option as AccountLinkingOptions).unverifiedEmail ?? "reclaim"
  if (!POLICIES.includes(policy)) {
    throw new InvalidOption(`accountLinking.unverifiedEmail must be "reclaim" or "refuse" (got ${JSON.stringify(policy)})`)
  }
  return Object.freeze({ unverifiedEmail: policy })
}
