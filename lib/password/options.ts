/**
 * `Password(options)`: the options, checked and resolved once when the provider is made (a bad
 * option fails at start-up with `InvalidOption` naming it).
 */
import { InvalidOption } from "../errors.js"
import type { Awaitable } from "../types.js"
import type { CredentialsConfig, EmailProviderConfig } from "../providers/types.js"
import type { PasswordCheck } from "./breached.js"
import { OWASP_SCRYPT, type ScryptParams } from "./hash.js"
import { MAX_PASSWORD_LENGTH } from "./policy.js"

/** One mail of password accounts, ready to send (for `sendMail`). */
export interface PasswordMail {
  /** `verify`: confirm a new account; `reset`: choose a new password; `exists`: someone signed up with an address that has an account. */
  kind: "verify" | "reset" | "exists"
  to: string
  url: string
  expires: Date
  subject: string
  text: string
  html: string
}

export interface PasswordOptions {
  /** Default "password". */
  id?: string
  /** Default "Password". */
  name?: string
  /** The email provider whose `server` and `from` send the mails (e.g. `Nodemailer({ server, from })`). */
  email?: EmailProviderConfig
  /** Sends a mail yourself instead (then `email` is not needed). */
  sendMail?: (mail: PasswordMail) => Awaitable<void>
  /** No session until the address is confirmed by the link in the mail. Default true. */
  requireVerifiedEmail?: boolean
  /** Minimum length in characters (after NFKC). Default 12; 8 to 256. */
  minLength?: number
  /** Seconds a verification link works. Default 86400 (24 h). */
  verificationMaxAge?: number
  /** Seconds a reset link works. Default 3600 (1 h). */
  resetMaxAge?: number
  /** scrypt parameters (`ln` = log2 N); never below OWASP's (ln 17, r 8, p 1). */
  hash?: Partial<ScryptParams>
  /** Breached-password checks (`haveIBeenPwned()`, `commonPasswords(file)` or your own). Default none. */
  breachedCheck?: PasswordCheck | readonly PasswordCheck[]
}

export interface PasswordSettings {
  readonly email?: EmailProviderConfig
  readonly sendMail?: PasswordOptions["sendMail"]
  readonly requireVerifiedEmail: boolean
  readonly minLength: number
  readonly verificationMaxAge: number
  readonly resetMaxAge: number
  readonly hash: Readonly<ScryptParams>
  readonly breachedChecks: readonly PasswordCheck[]
}

export interface PasswordProviderConfig extends CredentialsConfig {
  /** Marks a password provider: Gatehouse stores and checks the hashes itself. */
  password: PasswordSettings
}

const invalid = (path: string, rule: string, value: unknown): never => {
  throw new InvalidOption(`Password: ${path} ${rule} (got ${typeof value === "function" ? "a function" : JSON.stringify(value)})`)
}

function integer(path: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) invalid(path, `must be an integer from ${min} to ${max}`, value)
  return value as number
}

export function resolvePasswordOptions(options: PasswordOptions): PasswordSettings {
  if (!options.sendMail && !options.email) invalid("email", "is needed (an email provider such as Nodemailer({ server, from })), or sendMail", options.email)
  if (options.email && options.email.type !== "email") invalid("email", "must be an email provider", options.email.type)
  if (options.sendMail !== undefined && typeof options.sendMail !== "function") invalid("sendMail", "must be a function", options.sendMail)
  const checks = options.breachedCheck === undefined ? [] : Array.isArray(options.breachedCheck) ? options.breachedCheck : [options.breachedCheck]
  checks.forEach((check, index) => typeof check !== "function" && invalid(`breachedCheck[${index}]`, "must be a function", check))
  const hash = {
    ln: integer("hash.ln", options.hash?.ln, OWASP_SCRYPT.ln, OWASP_SCRYPT.ln, 20),
    r: integer("hash.r", options.hash?.r, OWASP_SCRYPT.r, OWASP_SCRYPT.r, 32),
    p: integer("hash.p", options.hash?.p, OWASP_SCRYPT.p, OWASP_SCRYPT.p, 16),
  }
  return Object.freeze({
    email: options.email,
    sendMail: options.sendMail,
    requireVerifiedEmail: options.requireVerifiedEmail ?? true,
    minLength: integer("minLength", options.minLength, 12, 8, MAX_PASSWORD_LENGTH),
    verificationMaxAge: integer("verificationMaxAge", options.verificationMaxAge, 86_400, 60, 30 * 86_400),
    resetMaxAge: integer("resetMaxAge", options.resetMaxAge, 3600, 60, 86_400),
    hash: Object.freeze(hash),
    breachedChecks: Object.freeze([...checks]),
  })
}
