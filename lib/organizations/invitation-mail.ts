/**
 * The invitation mail (issue #27), in the language of the request that sent it, with the sign-in
 * mail's templates (views/email-*.ejs): through the app's `sendInvitation`, else the email
 * provider's transport. Without either, nothing is sent and the inviter is told (`mailed: false`)
 * and can pass the link on themselves.
 */
import { format, type Locale } from "../i18n/index.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { CSS_COLOR } from "../core/config/validate.js"
import { render } from "../pages/render.js"
import { formatExpiry } from "../providers/email/texts.js"
import { transportOf } from "../providers/email/send.js"
import { traceMail } from "../telemetry/mail.js"
import type { AdapterInvitation, AdapterOrganization } from "./adapter.js"
import type { InvitationMail } from "./options.js"
import { settingsOf } from "./access.js"

const color = (value: string | undefined, fallback: string) => (value && CSS_COLOR.test(value.trim()) ? value.trim() : fallback)

export interface MailSite {
  /** The router's absolute base URL (`https://example.com/auth`). */
  baseUrl: string
  locale: Locale
}

/** True when a mail went out (the app's function, or the email provider). */
export async function sendInvitationMail(
  config: ResolvedConfig,
  site: MailSite,
  invitation: AdapterInvitation,
  organization: AdapterOrganization,
  inviter: InvitationMail["inviter"],
  url: string,
): Promise<boolean> {
  const settings = settingsOf(config)
  const t = site.locale.messages
  const host = new URL(url).host
  const values = { organization: organization.name, site: host, inviter: inviter?.name || inviter?.email || host }
  const subject = format(t["organizations.mail.subject"], values)
  const intro = format(t["organizations.mail.intro"], values)
  const model = {
    lang: site.locale.tag,
    heading: subject,
    intro: { before: intro, after: "", showIdentifier: false },
    textIntro: intro,
    button: t["organizations.mail.button"],
    expiresText: format(t["organizations.mail.expires"], { expires: formatExpiry(invitation.expires, site.locale.tag) }),
    site: host,
    identifier: invitation.email,
    url,
    brandColor: color(config.theme.brandColor, "#2563eb"),
    buttonText: color(config.theme.buttonText, "#ffffff"),
    logo: config.theme.logo && /^https:\/\//i.test(config.theme.logo) ? config.theme.logo : undefined,
  }
  const mail: InvitationMail = {
    to: invitation.email,
    url,
    expires: invitation.expires,
    organization: { id: organization.id, slug: organization.slug, name: organization.name },
    role: invitation.role,
    inviter,
    subject,
    text: render("email-text", model),
    html: render("email-html", model),
  }
  const send = settings.sendInvitation
  if (send) {
    await traceMail(config, "organizations", mail.to, async () => send(mail))
    return true
  }
  const provider = settings.email
  if (!provider) return false
  const from = provider.from ?? `no-reply@${new URL(url).hostname}`
  await traceMail(config, provider.id, mail.to, () => transportOf(provider).sendMail({ to: mail.to, from, subject, text: mail.text, html: mail.html }))
  return true
}
