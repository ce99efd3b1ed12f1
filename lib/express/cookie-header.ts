/**
 * Cookie headers parsed recently: the exact `Cookie` header → its cookies (frozen, shared by every
 * request that sends that header). A browser sends the same header request after request, so the
 * parse and the percent-decoding of each value run once per header, not once per request; and the
 * session cookie's value is then the same string on every request, so the opened-cookie cache
 * (lib/session/opened-cache.ts) finds it without hashing 500 characters again.
 *
 * A memo of a pure function (`cookie`'s `parse`), the same for every configuration, so it lives
 * at module level. Bounded by count (`MAX_ENTRIES`) and by the characters it holds (`MAX_CHARS`,
 * about 1 MB): it serves the sessions that come back often; past that a header is parsed again (a
 * few µs), and a flood of distinct headers (sign-in churn, forged cookies) holds no more; headers
 * longer than `MAX_KEPT` are parsed each time and not kept. The oldest header goes first; once
 * full, only one new header in `ADMIT_EVERY` is kept: with more active sessions than entries,
 * keeping every header would replace them all before any came back (issue #36), each replacement
 * an allocation that outlives the young generation, for no hit.
 */
import { parse } from "cookie"
import type { CookieJar } from "../session/chunks.js"

export const MAX_ENTRIES = 1000
const MAX_KEPT = 8192
export const MAX_CHARS = 1024 * 1024
const ADMIT_EVERY = 8

const parsed = new Map<string, CookieJar>()
let chars = 0
let refused = 0

export function parseCookieHeader(header: string): CookieJar {
  const known = parsed.get(header)
  if (known) return known
  const jar = Object.freeze(parse(header))
  if (header.length > MAX_KEPT) return jar
  const full = parsed.size >= MAX_ENTRIES || chars + header.length > MAX_CHARS
  if (full && ++refused % ADMIT_EVERY !== 0) return jar
  while (parsed.size > 0 && (parsed.size >= MAX_ENTRIES || chars + header.length > MAX_CHARS)) {
    const oldest = parsed.keys().next().value as string
    parsed.delete(oldest)
    chars -= oldest.length
  }
  parsed.set(header, jar)
  chars += header.length
  return jar
}

/** Does the memo hold this header (so parsing it again gives the same jar at the cost of a lookup)? */
export function cookieHeaderKept(header: string): boolean {
  return parsed.has(header)
}

/** How many headers and characters the memo holds (tests). */
export function cookieHeaderMemo(): { entries: number; chars: number } {
  return { entries: parsed.size, chars }
}
