/**
 * Cookie headers parsed recently: the exact `Cookie` header → its cookies (frozen, shared by every
 * request that sends that header). A browser sends the same header request after request, so the
 * parse and the percent-decoding of each value run once per header, not once per request; and the
 * session cookie's value is then the same string on every request, so the opened-cookie cache
 * (lib/session/opened-cache.ts) finds it without hashing 500 characters again.
 *
 * A memo of a pure function (`cookie`'s `parse`), the same for every configuration, so it lives
 * at module level. Bounded: the oldest header goes first, and headers longer than `MAX_KEPT` are
 * parsed each time and not kept (at most about 4 MB held).
 */
import { parse } from "cookie"
import type { CookieJar } from "../session/chunks.js"

const MAX_ENTRIES = 500
const MAX_KEPT = 8192

const parsed = new Map<string, CookieJar>()

export function parseCookieHeader(header: string): CookieJar {
  const known = parsed.get(header)
  if (known) return known
  const jar = Object.freeze(parse(header))
  if (header.length <= MAX_KEPT) {
    if (parsed.size >= MAX_ENTRIES) parsed.delete(parsed.keys().next().value as string)
    parsed.set(header, jar)
  }
  return jar
}
