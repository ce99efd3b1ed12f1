/**
 * The sign-in email in each language: subject, HTML (with `lang`) and text part, chosen by the
 * `Accept-Language` of the request that asked for the link or fixed by `locale`; the app's texts;
 * and escaping of app texts and addresses in the HTML part.
 */
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { BUILT_IN } from "../../lib/core/built-in-texts.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import { sendVerificationRequest } from "../../lib/providers/email/send.js"
import { formatExpiry } from "../../lib/providers/email/texts.js"
import type { AuthConfig } from "../../lib/types.js"
import { testConfig } from "../helpers/app.js"
import { startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { byTag, parseHtml, textOf } from "../unit/pages/html.js"
import { askForLink, startSite } from "../email/support.js"
import { LOCALES } from "./support.js"

const URL_ = "https://app.example/auth/callback/nodemailer?token=abc&email=alice%40example.com"
const EXPIRES = new Date("2030-05-06T07:08:00Z")

/** The subject, heading and button each locale's mail must show, written out. */
const KNOWN: Record<(typeof LOCALES)[number], { subject: string; button: string; expires: string }> = {
  en: { subject: "Sign in to app.example", button: "Sign in", expires: "Mon, 06 May 2030 07:08:00 GMT" },
  de: { subject: "Bei app.example anmelden", button: "Anmelden", expires: "6. Mai 2030 um 07:08 UTC" },
  fr: { subject: "Connexion à app.example", button: "Se connecter", expires: "6 mai 2030 à 07:08 UTC" },
  es: { subject: "Inicia sesión en app.example", button: "Iniciar sesión", expires: "6 de mayo de 2030" },
  ja: { subject: "app.example へのログイン", button: "ログイン", expires: "2030年5月6日" },
}

let smtp: SmtpSink
beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(async () => {
  await smtp.close()
})

async function send(config: Partial<AuthConfig>, acceptLanguage?: string, identifier = "alice@example.com", code?: { code: string; codeExpires: Date }) {
  const resolved = resolveConfig(testConfig(config))
  const before = smtp.messages.length
  await sendVerificationRequest({
    identifier,
    url: URL_,
    expires: EXPIRES,
    provider: Nodemailer({ server: smtp.url }),
    token: "abc",
    ...code,
    theme: resolved.theme,
    request: new Request("https://app.example/auth/signin/nodemailer", { method: "POST", headers: acceptLanguage ? { "accept-language": acceptLanguage } : {} }),
  })
  const [received] = await smtp.waitFor(before + 1).then((all) => all.slice(before))
  const mail = received!.mail
  const parsed = parseHtml(mail.html ?? "")
  return { mail, parsed, text: mail.text ?? "", lang: byTag(parsed, "html")[0]!.attrs.find((a) => a.name === "lang")?.value }
}

describe.each(LOCALES)("%s", (locale) => {
  const t = BUILT_IN[locale]!
  const known = KNOWN[locale]

  test("chosen by Accept-Language: subject, HTML and text in the language", async () => {
    const { mail, parsed, text, lang } = await send({}, `${locale};q=0.9, xx;q=0.1`)
    expect(mail.subject).toBe(known.subject)
    expect(lang).toBe(locale)
    expect(textOf(byTag(parsed, "h1")[0]!)).toBe(known.subject)
    expect(textOf(byTag(parsed, "title")[0]!)).toBe(known.subject)
    expect(textOf(byTag(parsed, "a")[0]!)).toBe(known.button)
    expect(textOf(byTag(parsed, "strong")[0]!)).toBe("alice@example.com")
    const paragraphs = byTag(parsed, "p").map((p) => textOf(p))
    expect(paragraphs[0]).toBe(t["email.intro"].replace("{identifier}", "alice@example.com"))
    expect(paragraphs[1]).toContain(known.expires)
    expect(text).toContain(t["email.textIntro"].replace("{identifier}", "alice@example.com"))
    expect(text).toContain(known.subject)
    expect(text).toContain(URL_)
    expect(text).toContain(known.expires)
  })

  // Issue #19: with a one-time code, the code comes first (large, with its own expiry), the link second.
  test("with a one-time code: its label, the code in groups, its help with the code's expiry; the link as the alternative", async () => {
    const codeExpires = new Date("2030-05-06T06:18:00Z")
    const { parsed, text } = await send({}, locale, "alice@example.com", { code: "123456", codeExpires })
    const paragraphs = byTag(parsed, "p").map((p) => textOf(p))
    expect(paragraphs[0]).toBe(t["email.codeLabel"])
    expect(paragraphs[1]).toBe("123 456")
    expect(paragraphs[2]).toBe(t["email.codeHelp"].replace("{codeExpires}", formatExpiry(codeExpires, locale)))
    expect(paragraphs[3]).toBe(t["email.linkIntro"].replace("{identifier}", "alice@example.com"))
    expect(textOf(byTag(parsed, "a")[0]!)).toBe(known.button)
    expect(text).toContain(`${t["email.codeLabel"]}: 123 456`)
    expect(text).toContain(t["email.textLinkIntro"].replace("{identifier}", "alice@example.com"))
    expect(text.indexOf("123 456")).toBeLessThan(text.indexOf(URL_))
  })

  test("fixed by the locale option, whatever the header", async () => {
    const { mail, lang } = await send({ locale }, "ja, de;q=0.5")
    expect(mail.subject).toBe(known.subject)
    expect(lang).toBe(locale)
  })
})

describe("the email", () => {
  test("English is as before", async () => {
    const { mail, text } = await send({})
    expect(mail.subject).toBe("Sign in to app.example")
    expect(mail.html).toContain('<html lang="en">')
    expect(mail.html).toContain("Use this button to sign in as <strong>alice@example.com</strong>.")
    expect(mail.html).toContain("The link works once and expires Mon, 06 May 2030 07:08:00 GMT. If you did not ask for it, ignore this email.")
    expect(text).toContain("Open this link to sign in as alice@example.com:")
  })

  test("a region falls back to the language; an unknown language is English", async () => {
    expect((await send({}, "fr-CH")).mail.subject).toBe(KNOWN.fr.subject)
    expect((await send({}, "nl-BE, garbage!!")).mail.subject).toBe(KNOWN.en.subject)
  })

  test("app texts and a new locale", async () => {
    const config = { messages: { de: { "email.subject": "Ihr Link für {site}" }, "pt-BR": { "email.subject": "Entre em {site}", "email.intro": "Olá {identifier}!" } } }
    expect((await send(config, "de")).mail.subject).toBe("Ihr Link für app.example")
    const pt = await send(config, "pt-BR")
    expect(pt.mail.subject).toBe("Entre em app.example")
    expect(pt.lang).toBe("pt-BR")
    expect(byTag(pt.parsed, "p").map((p) => textOf(p))[0]).toBe("Olá alice@example.com!")
    // Keys it leaves out: English.
    expect(textOf(byTag(pt.parsed, "a")[0]!)).toBe("Sign in")
    // Dates in the locale's own format.
    expect(formatExpiry(EXPIRES, "pt-BR")).toContain("2030")
  })

  test("an intro without {identifier} shows no address in bold", async () => {
    const { parsed } = await send({ messages: { en: { "email.intro": "Use this button to sign in." } } })
    expect(byTag(parsed, "strong")).toHaveLength(0)
    expect(byTag(parsed, "p").map((p) => textOf(p))[0]).toBe("Use this button to sign in.")
  })

  test("app texts with markup stay text in the HTML part", async () => {
    const hostile = "<script>alert(1)</script>"
    const { parsed, mail } = await send({
      messages: { en: { "email.heading": `${hostile} {site}`, "email.intro": `<img src=x onerror=alert(1)> {identifier} ${hostile}`, "email.button": hostile, "email.expires": `"><svg onload=alert(1)> {expires}` } },
    })
    expect(mail.html).not.toContain("<script>alert(1)")
    expect(mail.html).not.toContain("<img src=x")
    expect(mail.html).not.toContain("<svg")
    expect(textOf(byTag(parsed, "h1")[0]!)).toBe(`${hostile} app.example`)
    expect(textOf(byTag(parsed, "a")[0]!)).toBe(hostile)
    for (const element of parsed.elements) for (const { name } of element.attrs) expect(name.startsWith("on") ? name : "ok").toBe("ok")
    expect(byTag(parsed, "script")).toHaveLength(0)
    expect(byTag(parsed, "img")).toHaveLength(0)
  })
})

describe("through the router", () => {
  test("the mail follows the Accept-Language of the request that asked for it", async () => {
    const site = await startSite()
    const agent = site.agent()
    const response = await askForLink(agent, "alice@example.com", { headers: { "Accept-Language": "ja-JP,ja;q=0.9" } })
    expect(response.status).toBe(302)
    const [received] = await site.smtp.waitFor(1)
    expect(received!.mail.subject).toBe(`${new URL(site.url).host} へのログイン`)
    expect(received!.mail.html).toContain('<html lang="ja">')
    const page = await agent.get("/auth/verify-request").set("Accept-Language", "ja")
    expect(page.text).toContain("メールをご確認ください")
  })
})
