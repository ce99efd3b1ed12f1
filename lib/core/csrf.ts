/**
 * CSRF protection: the double-submit cookie, bound to the server secret.
 *
 * The cookie holds `token|sha256(token + secret)` (Auth.js's format, so its cookies stay valid),
 * hashed with the first secret and checked against each (a rotation rolled out one process at a
 * time keeps every pair valid);
 * a state-changing POST must carry the same `token` in its body. A cookie planted by someone who
 * does not know the secret fails the hash check, and both comparisons are constant-time.
 * As defence in depth, a POST whose `Origin` is another site, or that the browser marks
 * `Sec-Fetch-Site: cross-site`, is refused even with a valid token.
 */
import { MissingCSRF } from "../errors.js"
import { sha256Hex } from "../crypto/hash.js"
import { safeEqual } from "../crypto/equal.js"
import { randomHex } from "../crypto/random.js"
import type { RequestContext } from "./context.js"
import { bodyString } from "./request.js"

const hashToken = (token: string, secret: string) => sha256Hex(`${token}${secret}`)

/** The token from the request's csrf cookie, if that cookie is one this server issued. */
function cookieToken(ctx: RequestContext): string | undefined {
  const value = ctx.request.cookies[ctx.cookies.csrfToken.name]
  if (typeof value !== "string") return undefined
  const separator = value.indexOf("|")
  if (separator <= 0) return undefined
  const token = value.slice(0, separator)
  const hash = value.slice(separator + 1)
  // Every accepted key is tried (no early exit), so the time taken does not tell which matched.
  let valid = false
  for (const secret of ctx.config.csrfSecrets) valid = safeEqual(hash, hashToken(token, secret)) || valid
  return valid ? token : undefined
}

function issue(ctx: RequestContext): string {
  const token = randomHex(32)
  ctx.outCookies.push({
    name: ctx.cookies.csrfToken.name,
    value: `${token}|${hashToken(token, ctx.config.csrfSecret)}`,
    options: ctx.cookies.csrfToken.options,
  })
  return token
}

/** The request's token when its cookie is valid; otherwise a new one, with its cookie set. */
export function ensureCsrfToken(ctx: RequestContext): string {
  return cookieToken(ctx) ?? issue(ctx)
}

/** A new token after sign-in, so a pair obtained before it (perhaps by someone else) stops working. */
export function rotateCsrfToken(ctx: RequestContext): void {
  issue(ctx)
}

/**
 * A request another site made the browser send. `Origin: null` is what a page served with
 * `Referrer-Policy: no-referrer` (helmet's default) sends on its own form POSTs, so it passes
 * when the browser itself vouches with `Sec-Fetch-Site: same-origin` (a header pages cannot set).
 */
function crossSite(ctx: RequestContext): boolean {
  const origin = ctx.request.header("origin")
  const fetchSite = ctx.request.header("sec-fetch-site")
  if (fetchSite === "cross-site") return true
  if (origin === undefined || origin === ctx.request.origin) return false
  return !(origin === "null" && fetchSite === "same-origin")
}

/** Throws `MissingCSRF` unless the POST carries a valid token and comes from this site. */
export function assertCsrf(ctx: RequestContext): void {
  if (ctx.config.skipCSRFCheck) return
  if (ctx.request.serverAction) return assertSameSite(ctx)
  if (crossSite(ctx)) {
    throw new MissingCSRF("Cross-site POST refused: its Origin or Sec-Fetch-Site names another site")
  }
  const expected = cookieToken(ctx)
  const submitted = bodyString(ctx.request, "csrfToken")
  if (!expected || !submitted || !safeEqual(submitted, expected)) {
    // A stale or forged cookie is replaced, so the next genuine attempt works.
    if (!expected) issue(ctx)
    throw new MissingCSRF(expected ? "CSRF token mismatch" : "CSRF token cookie missing or invalid")
  }
}

/** For server-side helpers: no token (the app posted to its own route), but still same-site only. */
export function assertSameSite(ctx: RequestContext): void {
  if (ctx.config.skipCSRFCheck || ctx.request.method !== "POST") return
  if (crossSite(ctx)) throw new MissingCSRF("Cross-site POST refused: its Origin or Sec-Fetch-Site names another site")
}
