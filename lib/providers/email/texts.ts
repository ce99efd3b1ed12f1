/**
 * The sign-in email's texts in one locale, filled in. The HTML part shows the address in bold, so
 * its sentence is split around `{identifier}`. English keeps `Date#toUTCString()` for the expiry;
 * other locales get a long date and time in UTC, formatted for the locale.
 */
import { format, type Locale } from "../../i18n/index.js"
import { splitAt } from "../../pages/texts.js"

export interface EmailTexts {
  lang: string
  subject: string
  heading: string
  /** The HTML sentence around the bold address; `showIdentifier` is false when it has no `{identifier}`. */
  intro: { before: string; after: string; showIdentifier: boolean }
  textIntro: string
  button: string
  expiresText: string
  /** With a one-time code: its heading and help, and the link's sentences as the alternative. */
  code?: { label: string; help: string }
}

/** The account page's confirmation of a new address (no code: the link only). */
function changeEmailTexts(locale: Locale, filled: { site: string; identifier: string; expires: string }): EmailTexts {
  const t = locale.messages
  const [before, after, showIdentifier] = splitAt(format(t["email.change.intro"], { site: filled.site, expires: filled.expires }), "identifier")
  return {
    lang: locale.tag,
    subject: format(t["email.change.subject"], filled),
    heading: format(t["email.change.heading"], filled),
    intro: { before, after, showIdentifier },
    textIntro: format(t["email.change.textIntro"], filled),
    button: format(t["email.change.button"], filled),
    expiresText: format(t["email.change.expires"], filled),
  }
}

const formats = new Map<string, Intl.DateTimeFormat | null>()

function dateFormat(tag: string): Intl.DateTimeFormat | null {
  let formatter = formats.get(tag)
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat(tag, { year: "numeric", month: "long", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC", timeZoneName: "short" })
    } catch {
      formatter = null
    }
    formats.set(tag, formatter)
  }
  return formatter
}

export function formatExpiry(date: Date, tag: string): string {
  if (tag === "en") return date.toUTCString()
  return dateFormat(tag)?.format(date) ?? date.toUTCString()
}

export function emailTexts(locale: Locale, values: { site: string; identifier: string; expires: Date; codeExpires?: Date; purpose?: "signIn" | "changeEmail" }): EmailTexts {
  const t = locale.messages
  const filled = { site: values.site, identifier: values.identifier, expires: formatExpiry(values.expires, locale.tag) }
  if (values.purpose === "changeEmail") return changeEmailTexts(locale, filled)
  const withCode = values.codeExpires !== undefined
  const [before, after, showIdentifier] = splitAt(format(t[withCode ? "email.linkIntro" : "email.intro"], { site: filled.site, expires: filled.expires }), "identifier")
  const code = values.codeExpires && { label: t["email.codeLabel"], help: format(t["email.codeHelp"], { codeExpires: formatExpiry(values.codeExpires, locale.tag) }) }
  return {
    ...(code && { code }),
    lang: locale.tag,
    subject: format(t["email.subject"], filled),
    heading: format(t["email.heading"], filled),
    intro: { before, after, showIdentifier },
    textIntro: format(t[withCode ? "email.textLinkIntro" : "email.textIntro"], filled),
    button: format(t["email.button"], filled),
    expiresText: format(t["email.expires"], filled),
  }
}
