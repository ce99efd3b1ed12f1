/**
 * "Last used" on the sign-in page (issue #26): the way this browser last signed in, remembered in
 * a small cookie set when a sign-in completes (lib/actions/callback/login.ts). It holds the
 * method's kind and provider id only (`oauth.github`), nothing about the person: HttpOnly (only
 * the server reads it), SameSite=Lax, `__Host-` on HTTPS. The page marks that provider when it is
 * still configured with that kind; anything else in the cookie is ignored.
 */
import type { Cookie } from "../types.js"
import type { RequestContext } from "../core/context.js"

/** About 400 days, the longest lifetime browsers keep (RFC 6265bis). */
const MAX_AGE = 400 * 24 * 60 * 60

const MAX_LENGTH = 200

export function lastUsedCookieName(ctx: Pick<RequestContext, "request">): string {
  return ctx.request.secure ? "__Host-gatehouse.last-used" : "gatehouse.last-used"
}

/** The cookie that remembers a sign-in with `providerId` (of kind `type`). */
export function lastUsedCookie(ctx: Pick<RequestContext, "request">, type: string, providerId: string): Cookie {
  return {
    name: lastUsedCookieName(ctx),
    value: `${type}.${providerId}`,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure: ctx.request.secure, maxAge: MAX_AGE },
  }
}

/** The provider id this browser last signed in with, if it is still configured with the same kind. */
export function readLastUsed(ctx: Pick<RequestContext, "request" | "config">): string | undefined {
  const value = ctx.request.cookies[lastUsedCookieName(ctx)]
  if (typeof value !== "string" || value.length > MAX_LENGTH) return undefined
  const at = value.indexOf(".")
  if (at < 0) return undefined
  const provider = ctx.config.providers.byId.get(value.slice(at + 1))
  return provider && provider.type === value.slice(0, at) ? provider.id : undefined
}
