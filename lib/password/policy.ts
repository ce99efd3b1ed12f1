/**
 * The password policy (NIST SP 800-63B, OWASP): a minimum length (default 12) and a maximum of
 * 256, any characters, compared after Unicode NFKC normalisation, no composition rules; then the
 * breached-password checks. A check that fails to answer (a network error) is logged and does
 * not block the person: the length rules still hold.
 */
import { AuthError } from "../errors.js"
import { BreachedPassword, PasswordTooLong, WeakPassword } from "./errors.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { PasswordCheck } from "./breached.js"

export const MAX_PASSWORD_LENGTH = 256

/** What the policy reads of a password provider's settings (`PasswordSettings`, options.ts). */
export interface PolicySettings {
  readonly minLength: number
  readonly breachedChecks: readonly PasswordCheck[]
}

/** The password as it is hashed: NFKC, so the same characters typed on any keyboard match. */
export function normalizePassword(password: string): string {
  return password.normalize("NFKC")
}

/** Length in characters (code points), not UTF-16 units. */
function length(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

/** Over the maximum: refused before any hashing (a long input is no work for the server). */
export function tooLong(password: string): boolean {
  return password.length > MAX_PASSWORD_LENGTH * 2 || length(normalizePassword(password)) > MAX_PASSWORD_LENGTH
}

/** A new password, checked: its normalised form, or a named error (WeakPassword, PasswordTooLong, BreachedPassword). */
export async function acceptNewPassword(config: ResolvedConfig, settings: PolicySettings, password: string): Promise<string> {
  if (tooLong(password)) throw new PasswordTooLong(`A password may have at most ${MAX_PASSWORD_LENGTH} characters`)
  const normalized = normalizePassword(password)
  if (length(normalized) < settings.minLength) throw new WeakPassword(`A password needs at least ${settings.minLength} characters`)
  for (const check of settings.breachedChecks) {
    let breached: boolean
    try {
      breached = await check(normalized)
    } catch (error) {
      config.logger.error(new AuthError("A breached-password check failed to answer; the password was checked without it", { cause: { err: error } }))
      continue
    }
    if (breached) throw new BreachedPassword("The new password appears in a list of breached or common passwords")
  }
  return normalized
}
