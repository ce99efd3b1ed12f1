/** Two-factor sign-in's German texts (formal address, as lib/i18n/de.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const de: TextsOf<typeof en> = {
  "signin.error.TwoFactorCodeInvalid": "Dieser Code stimmt nicht. Prüfen Sie Ihre Authenticator-App und versuchen Sie es erneut.",
  "signin.error.TwoFactorCodeReplayed": "Dieser Code wurde bereits verwendet. Warten Sie auf den nächsten Code in Ihrer App.",
  "signin.error.TwoFactorExpired": "Die Anmeldung hat zu lange gedauert. Bitte melden Sie sich erneut an.",
  "signin.error.RecoveryCodeUsed": "Dieser Wiederherstellungscode wurde bereits verwendet. Jeder funktioniert nur einmal.",

  "twoFactor.heading": "Bestätigung in zwei Schritten",
  "twoFactor.message": "Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein.",
  "twoFactor.code.label": "Code",
  "twoFactor.button": "Bestätigen",
  "twoFactor.recoveryHint": "Kein Zugriff auf Ihre App? Geben Sie stattdessen einen Ihrer Wiederherstellungscodes ein.",
  "twoFactor.cancel": "Neu beginnen",
  "twoFactor.passkey": "Stattdessen einen Passkey verwenden",
  "twoFactor.setup.heading": "Bestätigung in zwei Schritten einrichten",
  "twoFactor.setup.scan": "Scannen Sie diesen QR-Code mit Ihrer Authenticator-App oder geben Sie den Schlüssel unten dort ein.",
  "twoFactor.setup.secretLabel": "Schlüssel zur manuellen Eingabe:",
  "twoFactor.setup.confirm": "Code, den Ihre App jetzt anzeigt",
  "twoFactor.setup.button": "Einschalten",
  "twoFactor.codes.heading": "Ihre Wiederherstellungscodes",
  "twoFactor.codes.message": "Bewahren Sie diese Codes sicher auf. Wenn Sie Ihr Gerät verlieren, ermöglicht jeder eine Anmeldung. Sie werden nur jetzt angezeigt.",
  "twoFactor.codes.continue": "Weiter",
  "twoFactor.manage.heading": "Die Bestätigung in zwei Schritten ist eingeschaltet",
  "twoFactor.manage.remaining": "Unbenutzte Wiederherstellungscodes:",
  "twoFactor.manage.codeLabel": "Aktueller Code oder ein Wiederherstellungscode",
  "twoFactor.manage.regenerate": "Neue Wiederherstellungscodes erzeugen",
  "twoFactor.manage.disable": "Ausschalten",
  "twoFactor.off.heading": "Die Bestätigung in zwei Schritten ist ausgeschaltet",
  "twoFactor.off.message": "Zur Anmeldung genügt jetzt der erste Schritt. Sie können sie jederzeit wieder einschalten.",
  "twoFactor.codes.enabled": "Die Bestätigung in zwei Schritten ist jetzt eingeschaltet.",
  "twoFactor.codes.renewed": "Neue Wiederherstellungscodes wurden erstellt. Die alten funktionieren nicht mehr.",
  "twoFactor.codes.copy": "Als Text kopieren",
  "twoFactor.codes.copyLabel": "Wiederherstellungscodes, einer pro Zeile: zum Kopieren markieren",
  "twoFactor.codes.download": "Als Textdatei herunterladen",
  "twoFactor.setup.cancel": "Abbrechen",
}
