/**
 * The account page's header (issue #26): the app's name (`theme.appName`, else the site's host),
 * its logo, the link back to the app (`pages.home`, else the callback URL the page was opened
 * for, else the site's root) and the sign-out page.
 */
import type { RequestContext } from "../core/context.js"
import { resolveCallbackUrl } from "../core/callback-url.js"
import { queryParam } from "../core/request.js"
import type { Messages } from "../i18n/en.js"

export interface AccountHeader {
  appName: string
  logo?: string
  homeUrl: string
  /** "Back to {app}" filled in. */
  homeLabel: string
  signOutUrl: string
}

async function homeUrl(ctx: RequestContext): Promise<string> {
  const home = ctx.config.pages.home
  if (home) return new URL(home, ctx.request.origin).href
  const target = await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl"))
  // A callback URL under the router (the account page itself, a sign-in step) leads nowhere new.
  const base = new URL(ctx.baseUrl)
  const url = new URL(target)
  const underRouter = url.origin === base.origin && (url.pathname === base.pathname || url.pathname.startsWith(`${base.pathname.replace(/\/$/, "")}/`))
  return underRouter ? `${ctx.request.origin}/` : url.href
}

export async function accountHeader(ctx: RequestContext, t: Messages): Promise<AccountHeader> {
  const appName = ctx.config.theme.appName?.trim() || new URL(ctx.request.origin).host
  return {
    appName,
    logo: ctx.config.theme.logo,
    homeUrl: await homeUrl(ctx),
    homeLabel: t["account.header.back"].replace("{app}", appName),
    signOutUrl: `${ctx.baseUrl}/signout`,
  }
}
