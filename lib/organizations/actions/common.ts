/** What the organization actions and pages share: the mail's site, the page URLs, the body's fields. */
import type { RequestContext } from "../../core/context.js"
import { pageLocale } from "../../pages/page.js"
import type { MailSite } from "../invitation-mail.js"

export function mailSite(ctx: RequestContext): MailSite {
  return { baseUrl: ctx.baseUrl, locale: pageLocale(ctx).locale }
}

export function organizationPageUrl(ctx: RequestContext, slug: string, query?: Record<string, string>): string {
  const search = query ? `?${new URLSearchParams(query)}` : ""
  return `${ctx.baseUrl}/organization/${encodeURIComponent(slug)}${search}`
}

export function accountPageUrl(ctx: RequestContext, query?: Record<string, string>): string {
  const custom = ctx.config.pages.account
  const base = custom ? new URL(custom, ctx.request.origin).href : `${ctx.baseUrl}/account`
  return query ? `${base}${base.includes("?") ? "&" : "?"}${new URLSearchParams(query)}` : base
}

/** A body field as sent (JSON keeps objects; a form sends strings, a repeated field a list). */
export function field(ctx: RequestContext, name: string): unknown {
  const body = ctx.request.body as Record<string, unknown> | undefined
  if (!body || !Object.prototype.hasOwnProperty.call(body, name)) return undefined
  return body[name]
}
