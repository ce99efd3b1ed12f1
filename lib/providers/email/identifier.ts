/**
 * The email address a magic link is for. One address, and only one: the mail goes to exactly the
 * identifier the token is bound to and the user is found by, so anything that could make a mailer
 * read the input as another or several recipients is refused (lists, display names, comments,
 * quoted local parts, source routes, IP literals, control characters; GHSA-xv97-c62v-4587,
 * nodemailer GHSA-mm7p-fcc7-pg87). Compatibility forms are folded first (NFKC, so a fullwidth `＠`
 * is an `@` before validation, GHSA-7rqj-j65f-68wh), then anything non-ASCII is refused rather
 * than guessed at.
 */
import { EmailSignInError } from "../../errors.js"

/** RFC 5321 §4.5.3.1: 64 octets of local part, 254 for the address as a path allows. */
const MAX_LOCAL = 64
const MAX_ADDRESS = 254
/** RFC 5322 dot-atom text (atext), lower-case after folding. */
const LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/
/** DNS names: letters, digits, hyphens; at least two labels; no trailing dot. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/

function refuse(reason: string): never {
  throw new EmailSignInError(`The email address was refused: ${reason}`)
}

/** The default `normalizeIdentifier`: trimmed, lower-cased, NFKC, then one plain ASCII address. */
export function normalizeEmail(input: string): string {
  const address = input.normalize("NFKC").trim().toLowerCase()
  if (address.length > MAX_ADDRESS) refuse("too long")
  if (/[^\x21-\x7e]/.test(address)) refuse("it contains spaces, control or non-ASCII characters")
  const at = address.indexOf("@")
  if (at <= 0 || at !== address.lastIndexOf("@")) refuse("it must contain exactly one @, after a local part")
  const local = address.slice(0, at)
  const domain = address.slice(at + 1)
  if (local.length > MAX_LOCAL || !LOCAL.test(local)) refuse("the part before @ is not a plain address")
  if (!DOMAIN.test(domain)) refuse("the part after @ is not a domain name")
  return address
}

/**
 * The safety net after any normaliser (the app's own included): one string with exactly one `@`
 * and nothing a mailer could read as a second recipient or a header.
 */
export function assertSingleAddress(identifier: unknown): string {
  if (typeof identifier !== "string" || identifier.length === 0 || identifier.length > MAX_ADDRESS) refuse("not a single address")
  // eslint-disable-next-line no-control-regex
  if (/[\s,;<>()"\\:[\]\x00-\x1f\x7f]/.test(identifier)) refuse("it could name more than one recipient")
  if (identifier.indexOf("@") <= 0 || identifier.indexOf("@") !== identifier.lastIndexOf("@")) refuse("it must contain exactly one @")
  return identifier
}

/** The provider's normaliser, then the safety net; any refusal is `EmailSignInError`. */
export function emailIdentifier(provider: { normalizeIdentifier?: (identifier: string) => string }, input: string): string {
  let normalized: unknown
  try {
    normalized = (provider.normalizeIdentifier ?? normalizeEmail)(input)
  } catch (error) {
    if (error instanceof EmailSignInError) throw error
    throw new EmailSignInError("normalizeIdentifier refused the address", { cause: { err: error } })
  }
  return assertSingleAddress(normalized)
}
