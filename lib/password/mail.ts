/**
 * The mails of password accounts, in the language of the request, with the sign-in mail's
 * templates (views/email-*.ejs): through the email provider's transport (created once), or the
 * app's `sendMail`. Sent after the answer is on its way (see `afterAnswer` in actions/common.ts), so
 * the time an answer takes never depends on whether a mail went out.
 */
import { format } from "../i18n/index.js"
import type { RequestContext } from "../core/context.js"
import { CSS_COLOR } from "../core/config/validate.js"
import { pageLocale } from "../pages/page.js"
import { render } from "../pages/render.js"
import { formatExpiry } from "../providers/email/texts.js"
import { transportOf } from "../providers/email/send.js"
import type { PasswordMail, PasswordSettings } from "./options.js"
import { traceMail } from "../telemetry/mail.js"

const color = (value: string | undefined, fallback: string) => (value && CSS_COLOR.test(value.trim()) ? value.trim() : fallback)

export async function sendPasswordMail(ctx: RequestContext, settings: PasswordSettings, kind: PasswordMail["kind"], to: string, url: string, expires: Date): Promise<void> {
  const { locale } = pageLocale(ctx)
  const t = locale.messages
  const site = new URL(url).host
  const subject = format(t[`password.mail.${kind}.subject`], { site })
  const intro = format(t[`password.mail.${kind}.intro`], { site })
  const model = {
    lang: locale.tag,
    heading: subject,
    intro: { before: intro, after: "", showIdentifier: false },
    textIntro: intro,
    button: t[`password.mail.${kind}.button`],
    expiresText: format(t["password.mail.expires"], { expires: formatExpiry(expires, locale.tag) }),
    site,
    identifier: to,
    url,
    brandColor: color(ctx.config.theme.brandColor, "#2563eb"),
    buttonText: color(ctx.config.theme.buttonText, "#ffffff"),
    logo: ctx.config.theme.logo && /^https:\/\//i.test(ctx.config.theme.logo) ? ctx.config.theme.logo : undefined,
  }
  const mail: PasswordMail = { kind, to, url, expires, subject, text: render("email-text", model), html: render("email-html", model) }
  const sendMail = settings.sendMail
  if (sendMail) return void (await traceMail(ctx.config, "password", to, async () => sendMail(mail)))
  const provider = settings.email
  if (!provider) return
  const from = provider.from ?? `no-reply@${new URL(url).hostname}`
  await traceMail(ctx.config, provider.id, to, () => transportOf(provider).sendMail({ to, from, subject: mail.subject, text: mail.text, html: mail.html }))
}
