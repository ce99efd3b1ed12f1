import { timingSafeEqual } from "node:crypto"

/**
 * Constant-time string comparison. Strings of different lengths are unequal, and the length is
 * not secret here (tokens and hashes have fixed lengths).
 */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  if (left.length !== right.length || left.length === 0) return false
  return timingSafeEqual(left, right)
}
