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
import { accountAdapter } from "../user.js"
import { holderOrSignIn, isHolder } from "../../session/assurance.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import { CONFIRM_EMAIL_PAGE } from "../pages.js"

export async function confirmEmailPage(ctx: RequestContext): Promise<ResponseInternal> {
  const token = queryParam(ctx.request, "token") ?? ""
  const email = queryParam(ctx.request, "email") ?? ""
  accountAdapter(ctx.config)
  const back = `${ctx.baseUrl}/account/confirm-email?${new URLSearchParams({ token, email })}`
  const who = await holderOrSignIn(ctx, "session", "Confirming the new email address", back)
  if (!isHolder(who)) return who
  const chosen = pageLocale(ctx)
  const t = chosen.locale.messages
  const model = { csrfToken: ensureCsrfToken(ctx), action: `${ctx.baseUrl}/account/confirm-email`, token, email, button: t["account.email.confirmButton"].replace("{email}", email) }
  return pageResponse(ctx, CONFIRM_EMAIL_PAGE, t["account.email.confirmHeading"], model, 200, chosen)
}
