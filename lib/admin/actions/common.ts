/** What the admin actions and pages share: the page URLs and the body's fields. */
import type { RequestContext } from "../../core/context.js"

export function adminPageUrl(ctx: RequestContext, query?: Record<string, string>): string {
  return `${ctx.baseUrl}/admin${query ? `?${new URLSearchParams(query)}` : ""}`
}

export function userPageUrl(ctx: RequestContext, userId: string, query?: Record<string, string>): string {
  return `${ctx.baseUrl}/admin/${encodeURIComponent(userId)}${query ? `?${new URLSearchParams(query)}` : ""}`
}

/** A body field as sent (JSON keeps its types; a form sends strings). */
export function field(ctx: RequestContext, name: string): unknown {
  const body = ctx.request.body as Record<string, unknown> | undefined
  if (!body || !Object.prototype.hasOwnProperty.call(body, name)) return undefined
  return body[name]
}
