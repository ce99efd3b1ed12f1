/**
 * `GET account/confirm-email?token&email`: the link from the confirmation mail shows a page with
 * one button (a GET never changes anything, and mail scanners only ever GET); its POST
 * (`POST account/confirm-email`, CSRF-protected) makes the address the user's. Signed out: the
 * sign-in page first, then back to this page.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import { queryParam } from "../../core/request.js"
import { pageUrl } from "../../core/pages-url.js"
import { redirect } from "../../core/response.js"
import { holderOf } from "../../account/user.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import { readSession } from "../../session/read.js"

export async function confirmEmailPage(ctx: RequestContext): Promise<ResponseInternal> {
  const token = queryParam(ctx.request, "token") ?? ""
  const email = queryParam(ctx.request, "email") ?? ""
  const read = await readSession(ctx.config, ctx.request.cookies, ctx.cookies)
  ctx.outCookies.push(...read.cookies)
  if (!read.session || !read.identity) {
    const back = `${ctx.baseUrl}/account/confirm-email?${new URLSearchParams({ token, email })}`
    return redirect(pageUrl(ctx, "signIn", new URLSearchParams({ callbackUrl: back })))
  }
  await holderOf(ctx.config, read.identity)
  const chosen = pageLocale(ctx)
  const t = chosen.locale.messages
  const model = { csrfToken: ensureCsrfToken(ctx), action: `${ctx.baseUrl}/account/confirm-email`, token, email, button: t["account.email.confirmButton"].replace("{email}", email) }
  return pageResponse(ctx, "account-confirm-email", t["account.email.confirmHeading"], model, 200, chosen)
}
