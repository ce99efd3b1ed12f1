/**
 * Where a redirect may go. The default `redirect` callback keeps the user on the site's own
 * origin (spec, Authentication §8); whatever a callback returns is then parsed once more, so a
 * custom callback can widen the origin rule but never produce a `javascript:` or malformed URL.
 */
import { MAX_CALLBACK_URL_LENGTH } from "./config/defaults.js"

/**
 * Parses `value` as the browser would (WHATWG URL, relative to `base`). Null unless it is an
 * http(s) URL of reasonable length. Userinfo is dropped: it has no place in a redirect.
 */
export function parseRedirectTarget(value: unknown, base: string): URL | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_CALLBACK_URL_LENGTH) return null
  let url: URL
  try {
    url = new URL(value, base)
  } catch {
    return null
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null
  url.username = ""
  url.password = ""
  return url
}

/** The default `redirect` callback: same-origin URLs (absolute or relative) pass, others go home. */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  const target = parseRedirectTarget(url, baseUrl)
  if (!target) return baseUrl
  return target.origin === new URL(baseUrl).origin ? target.href : baseUrl
}
