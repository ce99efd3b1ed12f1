/**
 * The default `sendVerificationRequest`: one mail with an HTML and a plain-text part (EJS
 * templates in views/, themed like the pages), to the identifier only, through the provider's
 * `server`. The transport is created once per provider record, with bounded timeouts so a
 * stalled SMTP server fails the request instead of hanging it.
 */
import nodemailer from "nodemailer"
import { EmailSignInError } from "../../errors.js"
import { CSS_COLOR } from "../../core/config/validate.js"
import { render } from "../../pages/render.js"
import { chooseLocale, i18nOfTheme } from "../../i18n/index.js"
import { emailTexts } from "./texts.js"
import { displayCode } from "../../email-codes/code.js"
import type { EmailProviderConfig, SendVerificationRequestParams } from "../types.js"

/** Milliseconds: connecting, waiting for the greeting, and silence on the socket. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }

/**
 * What Gatehouse sends through: one message, its parts as strings. Declared here rather than taken
 * from nodemailer's `Transporter`, so the published declarations do not need @types/nodemailer.
 */
export interface MailTransport {
  sendMail(mail: { to: string; from: string; subject: string; text: string; html: string }): Promise<unknown>
}

const transports = new WeakMap<EmailProviderConfig, MailTransport>()

/**
 * nodemailer builds a transport given by URL from the URL alone (other options beside it are
 * dropped), reading options from its query: the timeouts go there, unless the URL sets its own.
 */
function withTimeouts(url: string): string {
  const query = url.includes("?") ? url.slice(url.indexOf("?") + 1) : ""
  const present = new URLSearchParams(query)
  const missing = Object.entries(TIMEOUTS).filter(([key]) => !present.has(key))
  if (!missing.length) return url
  const added = missing.map(([key, value]) => `${key}=${value}`).join("&")
  return url + (url.includes("?") ? (url.endsWith("?") || url.endsWith("&") ? "" : "&") : "?") + added
}

export function transportOf(provider: EmailProviderConfig): MailTransport {
  let transport = transports.get(provider)
  if (!transport) {
    const server = provider.server
    if (!server) throw new EmailSignInError(`Email provider "${provider.id}" has no server to send through`)
    if (typeof server === "string") transport = nodemailer.createTransport(withTimeouts(server))
    else if (typeof server.url === "string") transport = nodemailer.createTransport(withTimeouts(server.url))
    else transport = nodemailer.createTransport({ ...TIMEOUTS, ...server })
    transports.set(provider, transport)
  }
  return transport
}

const color = (value: string | undefined, fallback: string) => (value && CSS_COLOR.test(value.trim()) ? value.trim() : fallback)

export async function sendVerificationRequest(params: SendVerificationRequestParams): Promise<void> {
  const { identifier, url, expires, provider, theme, request, code, codeExpires, purpose } = params
  const site = new URL(url).host
  // The language of the person who asked for the link: the configured one, else their browser's.
  const { locale } = chooseLocale(i18nOfTheme(theme), request?.headers.get("accept-language") ?? undefined)
  const texts = emailTexts(locale, { site, identifier, expires, codeExpires: code ? (codeExpires ?? expires) : undefined, purpose })
  const model = {
    ...texts,
    codeText: code && displayCode(code),
    site,
    identifier,
    url,
    brandColor: color(theme.brandColor, "#2563eb"),
    buttonText: color(theme.buttonText, "#ffffff"),
    logo: theme.logo && /^https:\/\//i.test(theme.logo) ? theme.logo : undefined,
  }
  const from = provider.from ?? `no-reply@${new URL(url).hostname}`
  await transportOf(provider).sendMail({
    to: identifier,
    from,
    subject: texts.subject,
    text: render("email-text", model),
    html: render("email-html", model),
  })
}
