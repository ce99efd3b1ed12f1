/**
 * `sendSecurityNotice(ctx, user, kind, details)`: the one way a security notice goes out (issue
 * #24). It never delays nor fails the action that calls it: the mail is made and sent after the
 * answer (a timer), and a failure is only logged. In the request's language, to the account's
 * address (for an email change: the old one, with the undo link). Skipped when the app has no way
 * to send mail (see options.ts).
 */
import type { AdapterUser } from "../adapters.js"
import type { RequestContext } from "../core/context.js"
import { AuthError } from "../errors.js"
import type { Locale } from "../i18n/index.js"
import { pageLocale } from "../pages/page.js"
import { transportOf } from "../providers/email/send.js"
import { traceMail } from "../telemetry/mail.js"
import { composeNotice } from "./compose.js"
import type { NoticeKind, NoticeMail } from "./options.js"
import { issueUndoToken } from "./undo-link.js"

export interface NoticeDetails {
  /** The new address of an email change; the name of a linked sign-in method ("password" for a password). */
  detail?: string
}

/** The user the notice is for: the stored user (its `email` is the address mailed), or the user's id. */
export type NoticeUser = Pick<AdapterUser, "id" | "email"> | string

async function deliver(ctx: RequestContext, locale: Locale, user: NoticeUser, kind: NoticeKind, details: NoticeDetails, time: Date): Promise<void> {
  const { config } = ctx
  const stored = typeof user === "string" ? await config.adapter?.getUser?.(user) : user
  const to = stored?.email
  if (!stored || !to) return
  let url = config.pages.account ? new URL(config.pages.account, ctx.request.origin).href : `${ctx.baseUrl}/account`
  let expires: Date | undefined
  if (kind === "emailChanged") {
    const issued = await issueUndoToken(config, stored.id, to)
    url = `${ctx.baseUrl}/account/undo-email?${new URLSearchParams({ uid: stored.id, email: to, token: issued.token })}`
    expires = issued.expires
  }
  const site = new URL(ctx.baseUrl).host
  const mail: NoticeMail = composeNotice(config, locale, { kind, to, site, time, detail: details.detail, url, expires })
  const { sendMail, provider } = config.notices
  if (sendMail) return void (await traceMail(config, "notices", to, async () => sendMail(mail)))
  if (!provider) return
  const from = provider.from ?? `no-reply@${new URL(ctx.baseUrl).hostname}`
  await traceMail(config, provider.id, to, () => transportOf(provider).sendMail({ to, from, subject: mail.subject, text: mail.text, html: mail.html }))
}

export function sendSecurityNotice(ctx: RequestContext, user: NoticeUser, kind: NoticeKind, details: NoticeDetails = {}): void {
  if (!ctx.config.notices.enabled) return
  const { locale } = pageLocale(ctx)
  const time = new Date()
  // A timer, not setImmediate: the answer is written before any of this work runs.
  setTimeout(() => {
    deliver(ctx, locale, user, kind, details, time).catch((error: unknown) =>
      ctx.config.logger.error(new AuthError(`The security notice "${kind}" could not be sent`, { cause: { err: error } })),
    )
  }, 10)
}
