/**
 * `GET notice?type=<notice>&callbackUrl=<url>`: a page that tells the person something that just
 * happened to their account, then lets them go on to `callbackUrl` (same-origin rules). Shown
 * after a sign-in whose proven address took an account back from someone who had never proved it
 * (`AccountReclaimed`, issue #12). It changes nothing: anyone may open it, and it only ever shows
 * one of its fixed texts.
 */
import { InvalidRequest } from "../errors.js"
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { resolveCallbackUrl } from "../core/callback-url.js"
import { queryParam } from "../core/request.js"
import { pageUrl } from "../core/pages-url.js"
import { pageLocale, pageResponse } from "../pages/page.js"
import { isPasswordProvider } from "../password/actions/common.js"

const NOTICES = ["AccountReclaimed", "EmailChangeUndone"] as const
type Notice = (typeof NOTICES)[number]

const isNotice = (value: string | undefined): value is Notice => NOTICES.includes(value as Notice)

export async function noticePage(ctx: RequestContext): Promise<ResponseInternal> {
  const type = queryParam(ctx.request, "type")
  if (!isNotice(type)) throw new InvalidRequest("notice needs a known type")
  const continueUrl = await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl"))
  const chosen = pageLocale(ctx)
  const t = chosen.locale.messages
  // Every device was signed out: the way on is signing in again, and "Forgot your password?" is
  // only mentioned where the site has password accounts.
  const undone = type === "EmailChangeUndone"
  const passwords = undone && ctx.config.providers.list.some(isPasswordProvider)
  const model = {
    heading: t[`notice.${type}.heading`],
    message: t[`notice.${type}.message`],
    more: passwords ? t["notice.EmailChangeUndone.password"] : undefined,
    link: undone ? { href: pageUrl(ctx, "signIn", new URLSearchParams({ callbackUrl: continueUrl })), text: t["link.signInAgain"] } : { href: continueUrl, text: t["notice.continue"] },
  }
  return pageResponse(ctx, "notice", model.heading, model, 200, chosen)
}
