/** What the API-key actions share: the body's fields, and where a form goes back to. */
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"

export function field(ctx: RequestContext, name: string): unknown {
  const body = ctx.request.body as Record<string, unknown> | undefined
  if (!body || !Object.prototype.hasOwnProperty.call(body, name)) return undefined
  return body[name]
}

/** The page a form came from (`callbackUrl`, this site only), else the account page. */
export async function backTo(ctx: RequestContext): Promise<string> {
  const back = field(ctx, "callbackUrl")
  if (typeof back === "string" && back) return resolveCallbackUrl(ctx, back)
  const custom = ctx.config.pages.account
  return custom ? new URL(custom, ctx.request.origin).href : `${ctx.baseUrl}/account`
}

export function withQuery(url: string, query: Record<string, string>): string {
  return `${url}${url.includes("?") ? "&" : "?"}${new URLSearchParams(query)}`
}
