/**
 * `GET account/undo-email?uid&email&token`: the undo link of a security notice (issue #24) shows a
 * page with one button (a GET changes nothing; mail scanners only ever GET); its POST (`POST
 * account/undo-email`, CSRF-protected, no sign-in needed: whoever changed the address may have
 * changed the password too) gives the account the old address back and ends every session of the
 * user, then the notice page says so. A used, expired or forged link: `Verification`.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import { bodyString, queryParam } from "../../core/request.js"
import { json, redirect } from "../../core/response.js"
import { format } from "../../i18n/index.js"
import { undoEmailChange } from "../../notices/undo-email.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import { UNDO_EMAIL_PAGE } from "../pages.js"

export function undoEmailPage(ctx: RequestContext): ResponseInternal {
  const [uid, email, token] = ["uid", "email", "token"].map((name) => queryParam(ctx.request, name) ?? "")
  const chosen = pageLocale(ctx)
  const t = chosen.locale.messages
  const model = {
    csrfToken: ensureCsrfToken(ctx),
    action: `${ctx.baseUrl}/account/undo-email`,
    uid,
    email,
    token,
    message: format(t["notices.undo.message"], { email }),
    button: format(t["notices.undo.button"], { email }),
  }
  return pageResponse(ctx, UNDO_EMAIL_PAGE, t["notices.undo.heading"], model, 200, chosen)
}

export async function undoEmailAction(ctx: RequestContext): Promise<ResponseInternal> {
  await undoEmailChange(ctx, bodyString(ctx.request, "uid"), bodyString(ctx.request, "email"), bodyString(ctx.request, "token"))
  if (ctx.wantsJson) return json({ ok: true })
  return redirect(`${ctx.baseUrl}/notice?${new URLSearchParams({ type: "EmailChangeUndone" })}`)
}
