/**
 * A security notice's mail, in one language: the subject, what happened and when (UTC), and what
 * to do if it was not the person; drawn with the sign-in mail's templates (views/email-*.ejs),
 * themed like the pages. The link is the undo link of an email change, else the account page.
 */
import { format, type Locale } from "../i18n/index.js"
import type { MessageKey } from "../i18n/index.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { CSS_COLOR } from "../core/config/validate.js"
import { render } from "../pages/render.js"
import { formatExpiry } from "../providers/email/texts.js"
import type { NoticeKind, NoticeMail } from "./options.js"

export interface NoticeContent {
  kind: NoticeKind
  to: string
  site: string
  time: Date
  /** The new address of an email change; the name of a linked sign-in method (or "password"). */
  detail?: string
  url: string
  /** When the undo link stops working (email change only). */
  expires?: Date
}

const color = (value: string | undefined, fallback: string) => (value && CSS_COLOR.test(value.trim()) ? value.trim() : fallback)

export function composeNotice(config: ResolvedConfig, locale: Locale, content: NoticeContent): NoticeMail {
  const t = locale.messages
  const key = (part: string) => `notices.mail.${content.kind}.${part}` as MessageKey
  const detail = content.detail === "password" && content.kind === "methodLinked" ? t["notices.mail.password"] : (content.detail ?? "")
  const values = { site: content.site, time: formatExpiry(content.time, locale.tag), detail, expires: content.expires ? formatExpiry(content.expires, locale.tag) : "" }
  const subject = format(t[key("subject")], values)
  const intro = format(t[key("intro")], values)
  const undo = content.kind === "emailChanged"
  const model = {
    lang: locale.tag,
    heading: subject,
    intro: { before: intro, after: "", showIdentifier: false },
    textIntro: intro,
    button: undo ? t["notices.mail.emailChanged.button"] : t["notices.mail.button"],
    expiresText: format(undo ? t["notices.mail.emailChanged.footer"] : t["notices.mail.footer"], values),
    site: content.site,
    identifier: content.to,
    url: content.url,
    brandColor: color(config.theme.brandColor, "#2563eb"),
    buttonText: color(config.theme.buttonText, "#ffffff"),
    logo: config.theme.logo && /^https:\/\//i.test(config.theme.logo) ? config.theme.logo : undefined,
  }
  return { kind: content.kind, to: content.to, subject, text: render("email-text", model), html: render("email-html", model), url: content.url }
}
