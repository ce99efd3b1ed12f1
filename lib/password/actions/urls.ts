/** The links in password mails: `<base>/<page>?uid=<user id>&token=<raw token>&callbackUrl=<url>`. */
import type { RequestContext } from "../../core/context.js"

export function linkUrl(ctx: RequestContext, page: "verify-email" | "reset-password", userId: string, token: string, callbackUrl: string): string {
  return `${ctx.baseUrl}/${page}?${new URLSearchParams({ uid: userId, token, callbackUrl })}`
}
