/**
 * TOTP (RFC 6238) on `otpauth`: HMAC-SHA1, 30-second steps, 6 digits, one step either side of now
 * ("a validation system SHOULD ... allow ... at most one time step ... for network delay", RFC 6238
 * section 5.2). `otpauth` compares codes in constant time. A code's step is returned so that the
 * caller can refuse the same step twice (section 5.2: "the verifier MUST NOT accept the second
 * attempt of the same OTP after the successful validation has been issued").
 */
import { Secret, TOTP } from "otpauth"
import { TOTP_DIGITS, TOTP_PERIOD, TOTP_WINDOW } from "./options.js"

/** A new shared secret (160 bits, the size RFC 4226 recommends), as base32. */
export function newSecret(): string {
  return new Secret({ size: 20 }).base32
}

function totp(secret: string, issuer = "", label = "Gatehouse"): TOTP {
  return new TOTP({ issuer, label, algorithm: "SHA1", digits: TOTP_DIGITS, period: TOTP_PERIOD, secret: Secret.fromBase32(secret) })
}

/** The `otpauth://totp/...` URI that authenticator apps read from the QR code. */
export function otpauthUri(secret: string, issuer: string, account: string): string {
  return totp(secret, issuer, account || "account").toString()
}

/** The code for `timestamp` (ms): what an authenticator app shows then. Tests compute codes with it. */
export function codeAt(secret: string, timestamp = Date.now()): string {
  return totp(secret).generate({ timestamp })
}

/** The time step `code` belongs to, within one step of `now`; null when it matches none. */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code)) return null
  const generator = totp(secret)
  const delta = generator.validate({ token: code, timestamp: now, window: TOTP_WINDOW })
  return delta === null ? null : generator.counter({ timestamp: now }) + delta
}
