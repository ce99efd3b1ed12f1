/**
 * The URL a flow returns to: from the request (`callbackUrl`/`redirectTo`), else the callback-url
 * cookie, else the site's origin; always passed through the `redirect` callback and parsed again
 * (see redirect.ts). A callback that throws sends the user to the origin.
 */
import { CallbackRouteError } from "../errors.js"
import type { RequestContext } from "./context.js"
import { parseRedirectTarget } from "./redirect.js"

export async function resolveCallbackUrl(ctx: RequestContext, requested: string | undefined): Promise<string> {
  const base = ctx.request.origin
  const fromCookie = ctx.request.cookies[ctx.cookies.callbackUrl.name]
  const url = requested ?? (typeof fromCookie === "string" && fromCookie ? fromCookie : base)
  return runRedirectCallback(ctx, url)
}

export async function runRedirectCallback(ctx: RequestContext, url: string): Promise<string> {
  const base = ctx.request.origin
  let result: unknown
  try {
    result = await ctx.config.callbacks.redirect({ url, baseUrl: base })
  } catch (error) {
    ctx.config.logger.error(new CallbackRouteError("The redirect callback threw; sending the user to the site root", { cause: { err: error } }))
    return base
  }
  return parseRedirectTarget(result, base)?.href ?? base
}
