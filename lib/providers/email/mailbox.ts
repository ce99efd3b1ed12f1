/**
 * The inbox an address delivers to, for counting attempts per inbox (rate limits). It is never
 * stored as the identifier and never used to send: `bob+1@example.com` is still the user's own
 * address everywhere else.
 *
 * - A sub-address (`local+tag`, RFC 5233) reaches the same inbox at most providers: the tag is
 *   dropped for every domain (a false match only makes two people share one limit).
 * - Gmail ignores dots in the local part, and googlemail.com is gmail.com.
 */

/** Domains whose mailboxes ignore dots in the local part, with the domain they stand for. */
const DOTLESS: Readonly<Record<string, string>> = { "gmail.com": "gmail.com", "googlemail.com": "gmail.com" }

export function canonicalMailbox(address: string): string {
  const folded = address.normalize("NFKC").trim().toLowerCase()
  const at = folded.lastIndexOf("@")
  if (at <= 0) return folded
  let local = folded.slice(0, at)
  let domain = folded.slice(at + 1)
  const plus = local.indexOf("+")
  if (plus > 0) local = local.slice(0, plus)
  const dotless = Object.prototype.hasOwnProperty.call(DOTLESS, domain) ? DOTLESS[domain] : undefined
  if (dotless) {
    local = local.replaceAll(".", "")
    domain = dotless
  }
  return `${local}@${domain}`
}
