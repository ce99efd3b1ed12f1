/**
 * `GET account`: the built-in account page (issue #15), or the app's own (`pages.account`).
 * Signed out: the sign-in page, coming back here. Sections appear only where the configuration
 * makes them meaningful: sign-in methods for the configured OAuth/OIDC providers, passkeys with a
 * passkey provider, devices where sessions can be listed. Every change is a POST form with the
 * CSRF token (`POST account/<action>`, `POST sessions/revoke`); nothing here changes on a GET.
 */
import type { ResponseInternal } from "../../types.js"
import { UnknownAction } from "../../errors.js"
import type { RequestContext } from "../../core/context.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import { queryParam } from "../../core/request.js"
import { redirect } from "../../core/response.js"
import { accountAdapter } from "../user.js"
import { holderOrSignIn, isHolder } from "../../session/assurance.js"
import { accountModel } from "../page-model.js"
import { confirmEmailPage } from "./confirm-email.js"
import { undoEmailPage } from "./undo-email.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import { ACCOUNT_PAGE } from "../pages.js"

export async function accountPage(ctx: RequestContext): Promise<ResponseInternal> {
  if (ctx.request.providerId === "confirm-email") return confirmEmailPage(ctx)
  if (ctx.request.providerId === "undo-email") return undoEmailPage(ctx)
  if (ctx.request.providerId !== undefined) throw new UnknownAction(`No page at account/${ctx.request.providerId}`)
  const custom = ctx.config.pages.account
  if (custom) return redirect(new URL(custom, ctx.request.origin).href)
  accountAdapter(ctx.config)
  const who = await holderOrSignIn(ctx, "session", "The account page", `${ctx.baseUrl}/account`)
  if (!isHolder(who)) return who
  const holder = { user: who.user, identity: who.identity }
  const chosen = pageLocale(ctx)
  const model = await accountModel(ctx, holder, {
    csrfToken: ensureCsrfToken(ctx),
    t: chosen.locale.messages,
    tag: chosen.locale.tag,
    error: queryParam(ctx.request, "error"),
    saved: queryParam(ctx.request, "saved"),
  })
  return pageResponse(ctx, ACCOUNT_PAGE, chosen.locale.messages["account.heading"], model, 200, chosen)
}
