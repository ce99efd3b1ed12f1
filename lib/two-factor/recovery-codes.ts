/**
 * Recovery codes: 10 single-use codes of 12 random characters (60 bits: not guessable within any
 * rate limit), shown once, stored as SHA-256 hashes only. Typed codes are read leniently (case,
 * spaces and dashes ignored), so `ABCD-EFGH-JKMN` and `abcdefghjkmn` are the same code.
 */
import { sha256Hex } from "../crypto/hash.js"
import { randomSlice } from "../crypto/random.js"
import { RECOVERY_CODE_COUNT } from "./options.js"

/** 32 characters without look-alikes (no i, l, o, u). */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"

function oneCode(): string {
  const bytes = randomSlice(12)
  const chars = [...bytes].map((byte) => ALPHABET[byte % 32]).join("")
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, oneCode)
}

/** The code as stored: dashes and spaces removed, lower case. */
export function normalizeRecoveryCode(input: string): string {
  return input.replace(/[\s-]/g, "").toLowerCase()
}

/** Looks like a recovery code (rather than a 6-digit TOTP code). */
export function isRecoveryCodeShape(input: string): boolean {
  return /^[0-9a-z]{12}$/.test(normalizeRecoveryCode(input))
}

export function hashRecoveryCode(input: string): string {
  return sha256Hex(`gatehouse-recovery:${normalizeRecoveryCode(input)}`)
}
