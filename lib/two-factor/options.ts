/**
 * The `twoFactor` option (issue #16), resolved once: `{ issuer, required? }`. `issuer` names the
 * site in authenticator apps; `required` (default false) is true, false, or a function of the user
 * deciding whether they must enrol. The fixed rules of RFC 6238 as Gatehouse applies them live here
 * too: 30-second steps, 6 digits, one step either side, 10 minutes to pass the second factor.
 */
import { InvalidOption, MissingAdapter, MissingAdapterMethods } from "../errors.js"
import type { Adapter } from "../adapters.js"
import type { Awaitable, User } from "../base-types.js"

export interface TwoFactorOptions {
  /** The name authenticator apps show next to the code (your site's name). */
  issuer: string
  /** Users who must enrol before they get a session: all (true), none (false, default), or those the function picks. */
  required?: boolean | ((user: User) => Awaitable<boolean>)
}

export interface ResolvedTwoFactor {
  readonly issuer: string
  readonly required: (user: User) => Promise<boolean>
}

/** RFC 6238: the time step (seconds), the code length, and the steps accepted either side of now. */
export const TOTP_PERIOD = 30
export const TOTP_DIGITS = 6
export const TOTP_WINDOW = 1
/** How long a sign-in waits for its second factor (seconds). */
export const PENDING_SECONDS = 10 * 60
/** How many recovery codes a user gets at enrolment (and on each regeneration). */
export const RECOVERY_CODE_COUNT = 10

/** The adapter methods two-factor sign-in stores its records with. */
export const TWO_FACTOR_METHODS = ["getUser", "getTwoFactor", "enableTwoFactor", "replaceRecoveryCodes", "useRecoveryCode", "countRecoveryCodes", "disableTwoFactor"] as const

/** At start-up: two-factor sign-in needs an adapter with the TOTP and recovery code methods. */
function assertStorage(adapter: Adapter | undefined): void {
  if (!adapter) throw new MissingAdapter("twoFactor needs an adapter (users and their TOTP records are stored)")
  const missing = TWO_FACTOR_METHODS.filter((method) => typeof adapter[method] !== "function")
  if (missing.length) throw new MissingAdapterMethods(`twoFactor needs these adapter methods, which the adapter lacks: ${missing.join(", ")}`)
}

export function resolveTwoFactor(option: unknown, adapter: Adapter | undefined): ResolvedTwoFactor | undefined {
  if (option === undefined || option === false) return undefined
  if (!option || typeof option !== "object" || Array.isArray(option)) {
    throw new InvalidOption(`twoFactor must be an object such as { issuer: "Example" } (got ${JSON.stringify(option)})`)
  }
  const { issuer, required = false } = option as TwoFactorOptions
  if (typeof issuer !== "string" || !issuer.trim() || issuer.includes(":")) {
    throw new InvalidOption(`twoFactor.issuer must be a non-empty name without ':' (got ${JSON.stringify(issuer)})`)
  }
  if (typeof required !== "boolean" && typeof required !== "function") {
    throw new InvalidOption(`twoFactor.required must be a boolean or a function of the user (got ${JSON.stringify(required)})`)
  }
  assertStorage(adapter)
  const decide = typeof required === "function" ? async (user: User) => Boolean(await required(user)) : async () => required
  return Object.freeze({ issuer: issuer.trim(), required: decide })
}
