/** German texts of the built-in pages and the sign-in email (formal address). */
import type { Messages } from "./en.js"

export const de: Messages = {
  "signin.heading": "Anmelden",
  "signin.with": "Mit {provider} anmelden",
  "signin.or": "oder",
  "signin.none": "Es ist keine Anmeldemethode eingerichtet.",
  "signin.email.label": "E-Mail-Adresse",
  "signin.email.placeholder": "name@example.com",
  "signin.passkey.emailLabel": "E-Mail-Adresse (zum Erstellen eines Kontos)",
  "signin.passkey.unsupported": "Dieser Browser unterstützt keine Passkeys.",
  "signin.passkey.failed": "Die Anmeldung mit Passkey wurde nicht abgeschlossen. Bitte versuchen Sie es erneut.",

  "signin.error.Signin": "Die Anmeldung konnte nicht gestartet werden. Bitte versuchen Sie es erneut oder wählen Sie eine andere Anmeldemethode.",
  "signin.error.OAuthSignin": "Der Anmeldedienst ist nicht erreichbar. Bitte versuchen Sie es erneut oder wählen Sie eine andere Anmeldemethode.",
  "signin.error.OAuthCallbackError": "Der Anmeldedienst hat eine Antwort gesendet, die wir nicht annehmen können. Bitte versuchen Sie es erneut.",
  "signin.error.OAuthCreateAccount": "Mit diesem Anmeldedienst konnte kein Konto erstellt werden. Bitte wählen Sie eine andere Anmeldemethode.",
  "signin.error.EmailCreateAccount": "Für diese E-Mail-Adresse konnte kein Konto erstellt werden. Bitte wählen Sie eine andere Anmeldemethode.",
  "signin.error.Callback": "Beim Abschließen der Anmeldung ist ein Fehler aufgetreten. Bitte versuchen Sie es erneut.",
  "signin.error.OAuthAccountNotLinked": "Diese E-Mail-Adresse ist bereits mit einer anderen Anmeldemethode registriert. Verwenden Sie die Methode, mit der Sie sich zuerst angemeldet haben.",
  "signin.error.EmailSignin": "Die Anmelde-E-Mail konnte nicht gesendet werden. Prüfen Sie die Adresse und versuchen Sie es erneut.",
  "signin.error.CredentialsSignin": "Die Angaben stimmen nicht. Prüfen Sie sie und versuchen Sie es erneut.",
  "signin.error.SessionRequired": "Bitte melden Sie sich an, um diese Seite zu sehen.",
  "signin.error.MissingCSRF": "Das Formular ist abgelaufen. Bitte versuchen Sie es erneut.",
  "signin.error.WebAuthnVerificationError": "Der Passkey konnte nicht überprüft werden. Bitte versuchen Sie es erneut oder wählen Sie eine andere Anmeldemethode.",
  "signin.error.RateLimited": "Zu viele Versuche. Warten Sie einige Minuten und versuchen Sie es dann erneut.",
  "signin.error.default": "Die Anmeldung ist fehlgeschlagen. Bitte versuchen Sie es erneut.",

  "signout.heading": "Abmelden",
  "signout.question": "Möchten Sie sich wirklich abmelden?",
  "signout.button": "Abmelden",

  "verify.heading": "Prüfen Sie Ihre E-Mails",
  "verify.message": "Wir haben Ihnen einen Anmeldelink gesendet. Er funktioniert nur einmal und läuft bald ab.",

  "link.home": "Zur Startseite",
  "link.signInAgain": "Erneut anmelden",

  "error.Configuration.heading": "Serverfehler",
  "error.Configuration.message": "Der Anmeldedienst ist nicht richtig eingerichtet. Näheres steht in den Protokollen der Website.",
  "error.AccessDenied.heading": "Zugriff verweigert",
  "error.AccessDenied.message": "Sie dürfen sich hier nicht anmelden.",
  "error.Verification.heading": "Dieser Link ist nicht mehr gültig",
  "error.Verification.message": "Anmeldelinks funktionieren nur einmal und laufen nach einiger Zeit ab. Fordern Sie einen neuen an.",
  "error.AdapterError.heading": "Vorübergehend nicht verfügbar",
  "error.AdapterError.message": "Die Anmeldung ist im Moment nicht verfügbar. Bitte versuchen Sie es gleich noch einmal.",
  "error.default.heading": "Etwas ist schiefgelaufen",
  "error.default.message": "Die Anfrage konnte nicht abgeschlossen werden. Bitte versuchen Sie es erneut.",

  "email.subject": "Bei {site} anmelden",
  "email.heading": "Bei {site} anmelden",
  "email.intro": "Mit dieser Schaltfläche melden Sie sich als {identifier} an.",
  "email.button": "Anmelden",
  "email.textIntro": "Öffnen Sie diesen Link, um sich als {identifier} anzumelden:",
  "email.expires": "Der Link funktioniert nur einmal und läuft am {expires} ab. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail.",
}
