/**
 * How an error is logged, by its type (issue #26):
 * - an ordinary refusal (a wrong password) is traffic, not a failure: logged at debug level (info
 *   for pino or winston), never at error level; the audit trail records each failed sign-in;
 * - a configuration state (no secret, no adapter for a feature, an option the app must change)
 *   is logged once per configuration, without a stack: every request would say the same;
 * - an expected outcome (a bad token, method or body) is logged without its stack, which only
 *   points into Gatehouse.
 */
import { AuthError } from "./errors.js"

/**
 * A wrong password, a sign-in with an address not yet confirmed, a link or code already used or
 * expired (a second click, a mail scanner): what people do every day.
 */
export const ORDINARY_REFUSALS: ReadonlySet<string> = new Set(["CredentialsSignin", "EmailNotVerified", "Verification"])

export const CONFIGURATION_STATES: ReadonlySet<string> = new Set([
  "AccountPageUnavailable",
  "DuplicateConditionalUI",
  "DuplicateProviderId",
  "ExperimentalFeatureNotEnabled",
  "InvalidEndpoints",
  "InvalidOption",
  "MissingAdapter",
  "MissingAdapterMethods",
  "MissingAuthorize",
  "MissingSecret",
  "MissingWebAuthnAutocomplete",
  "UnsupportedStrategy",
  "UntrustedHost",
])

/** The stable type of a Gatehouse error; undefined for anything else. */
export function authErrorType(error: unknown): string | undefined {
  return error instanceof AuthError ? error.type : undefined
}

export const isOrdinaryRefusal = (error: unknown): boolean => ORDINARY_REFUSALS.has(authErrorType(error) ?? "")

export const isConfigurationState = (error: unknown): boolean => CONFIGURATION_STATES.has(authErrorType(error) ?? "")

/** How many distinct configuration messages one logger remembers (then it logs without remembering). */
const REMEMBERED = 100

/**
 * True the first time this logger sees this configuration state (type and message), false after:
 * `seen` belongs to one logger, so one configuration.
 */
export function firstTimeSeen(seen: Set<string>, error: Error): boolean {
  const key = `${authErrorType(error)}\u0000${error.message}`
  if (seen.has(key)) return false
  if (seen.size < REMEMBERED) seen.add(key)
  return true
}

/** Configuration states of configurations that could not be resolved (so have no logger of their own). */
const unresolved = new Set<string>()

/**
 * Whether to log this error of a configuration that failed to resolve (a lazy configuration,
 * `Auth()` per request): a configuration state once per process, anything else every time.
 */
export function logUnresolvedError(error: unknown): boolean {
  return !(error instanceof Error && isConfigurationState(error)) || firstTimeSeen(unresolved, error)
}
