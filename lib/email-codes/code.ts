/**
 * One-time codes sent with the magic link, for a person reading the mail on another device: six
 * digits by default, or eight characters from an alphabet without look-alikes (no 0/O, 1/I/L).
 * A code is drawn uniformly with `crypto.randomInt`, kept only as a salted SHA-256 hash (sealed in
 * the browser's code cookie, see pending.ts) and compared in constant time. What a person types is
 * read leniently: spaces and hyphens are dropped, letters upper-cased.
 */
import { randomInt } from "node:crypto"
import { sha256Hex } from "../crypto/hash.js"
import { safeEqual } from "../crypto/equal.js"
import type { EmailProviderConfig } from "../providers/types.js"

export const DIGITS = "0123456789"
/** Upper-case letters and digits a reader cannot confuse: no 0, O, 1, I, L. */
export const LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
/** Default lifetime of a code: 10 minutes (never beyond its link's). */
export const DEFAULT_CODE_MAX_AGE = 10 * 60
/** Wrong codes a browser may type before the code and its link are dead. */
export const MAX_CODE_ATTEMPTS = 5

export interface CodeSettings {
  alphabet: string
  length: number
  /** Seconds. */
  maxAge: number
}

/** The provider's code settings, or undefined when codes are off. */
export function codeSettings(provider: EmailProviderConfig): CodeSettings | undefined {
  const option = provider.code
  if (option === false) return undefined
  const letters = option?.format === "letters"
  return {
    alphabet: letters ? LETTERS : DIGITS,
    length: option?.length ?? (letters ? 8 : 6),
    maxAge: option?.maxAge ?? DEFAULT_CODE_MAX_AGE,
  }
}

/** A new code: `length` characters drawn uniformly from the alphabet. */
export function newCode(settings: CodeSettings): string {
  let code = ""
  for (let i = 0; i < settings.length; i++) code += settings.alphabet[randomInt(settings.alphabet.length)]
  return code
}

/** A code as the mail shows it, in groups (`123 456`, `ABCD EFGH`); spaces are ignored when typed. */
export function displayCode(code: string): string {
  const size = code.length % 4 === 0 ? 4 : code.length % 3 === 0 ? 3 : code.length
  return (code.match(new RegExp(`.{1,${size}}`, "g")) ?? [code]).join(" ")
}

/** What a person typed, as a code: without spaces and hyphens, upper case; undefined if it cannot be one. */
export function readTypedCode(input: string | undefined, settings: CodeSettings): string | undefined {
  if (input === undefined || input.length > 64) return undefined
  const code = input.normalize("NFKC").replace(/[\s-]/g, "").toUpperCase()
  if (code.length !== settings.length) return undefined
  for (const character of code) if (!settings.alphabet.includes(character)) return undefined
  return code
}

/** The stored form of a code: SHA-256 of the code and a random salt of its own. */
export function hashCode(code: string, salt: string): string {
  return sha256Hex(`${code}:${salt}`)
}

/** Constant-time: does `code` hash to `expected` with `salt`? */
export function codeMatches(code: string | undefined, salt: string, expected: string): boolean {
  // A code that cannot be one is still hashed and compared, so both take the same time.
  return safeEqual(hashCode(code ?? "", salt), expected) && code !== undefined
}
