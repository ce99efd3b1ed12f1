/** One-time email codes' German texts (formal address, as lib/i18n/de.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const de: TextsOf<typeof en> = {
  "signin.error.EmailCodeExpired": "Dieser Code funktioniert nicht mehr: Er ist abgelaufen, oder seine E-Mail wurde schon verwendet. Fordern Sie eine neue E-Mail an.",
  "signin.error.EmailCodeLocked": "Zu viele falsche Codes. Fordern Sie eine neue E-Mail an.",
  "signin.error.EmailCodeNotBound": "Ein Code funktioniert nur in dem Browser, in dem Sie ihn angefordert haben. Öffnen Sie den Link in der E-Mail, oder fordern Sie hier eine neue E-Mail an.",

  "verify.codeMessage": "Wir haben Ihnen eine E-Mail mit einem Anmeldecode und einem Link gesendet. Geben Sie den Code hier ein, oder öffnen Sie den Link.",
  "verify.codeMessageTo": "Wir haben eine E-Mail mit einem Anmeldecode und einem Link an {email} gesendet. Geben Sie den Code hier ein, oder öffnen Sie den Link.",

  "verify.code.label": "Code aus der E-Mail",
  "verify.code.button": "Anmelden",

  "verify.error.EmailCodeInvalid": "Dieser Code stimmt nicht. Prüfen Sie ihn und versuchen Sie es erneut.",

  "email.codeLabel": "Ihr Anmeldecode",

  "email.codeHelp": "Geben Sie ihn auf der Seite ein, auf der Sie die Anmeldung angefordert haben, im selben Browser. Er funktioniert nur einmal und läuft am {codeExpires} ab.",

  "email.linkIntro": "Oder melden Sie sich mit dieser Schaltfläche als {identifier} an.",

  "email.textLinkIntro": "Oder öffnen Sie diesen Link, um sich als {identifier} anzumelden:",
}
