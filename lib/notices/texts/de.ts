/** Security notices' German texts (formal address, as lib/i18n/de.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const de: TextsOf<typeof en> = {
  "notices.mail.emailChanged.subject": "Die E-Mail-Adresse Ihres Kontos bei {site} wurde geändert",
  "notices.mail.emailChanged.intro": "Am {time} wurde die E-Mail-Adresse Ihres Kontos bei {site} von dieser Adresse auf {detail} geändert.",
  "notices.mail.emailChanged.button": "Änderung rückgängig machen",
  "notices.mail.emailChanged.footer": "Falls Sie das nicht waren, öffnen Sie den Link vor {expires}: Ihr Konto erhält diese Adresse zurück, und alle Geräte werden abgemeldet. Der Link funktioniert einmal.",
  "notices.mail.passwordChanged.subject": "Das Passwort Ihres Kontos bei {site} wurde geändert",
  "notices.mail.passwordChanged.intro": "Am {time} wurde das Passwort Ihres Kontos bei {site} geändert.",
  "notices.mail.passwordReset.subject": "Das Passwort Ihres Kontos bei {site} wurde zurückgesetzt",
  "notices.mail.passwordReset.intro": "Am {time} wurde das Passwort Ihres Kontos bei {site} über einen an diese Adresse gesendeten Link zurückgesetzt.",
  "notices.mail.twoFactorEnabled.subject": "Die Zwei-Faktor-Anmeldung wurde für Ihr Konto bei {site} eingerichtet",
  "notices.mail.twoFactorEnabled.intro": "Am {time} wurde eine Authenticator-App für die Zwei-Faktor-Anmeldung bei Ihrem Konto bei {site} eingerichtet.",
  "notices.mail.twoFactorDisabled.subject": "Die Zwei-Faktor-Anmeldung wurde für Ihr Konto bei {site} ausgeschaltet",
  "notices.mail.twoFactorDisabled.intro": "Am {time} wurde die Zwei-Faktor-Anmeldung für Ihr Konto bei {site} ausgeschaltet: Jetzt genügt der erste Anmeldeschritt allein.",
  "notices.mail.recoveryCodesReplaced.subject": "Für Ihr Konto bei {site} wurden neue Wiederherstellungscodes erstellt",
  "notices.mail.recoveryCodesReplaced.intro": "Am {time} wurden neue Wiederherstellungscodes für Ihr Konto bei {site} erstellt; die alten funktionieren nicht mehr.",
  "notices.mail.passkeyAdded.subject": "Ihrem Konto bei {site} wurde ein neuer Passkey hinzugefügt",
  "notices.mail.passkeyAdded.intro": "Am {time} wurde Ihrem Konto bei {site} ein neuer Passkey hinzugefügt. Mit ihm kann man sich bei Ihrem Konto anmelden.",
  "notices.mail.methodLinked.subject": "Ihrem Konto bei {site} wurde eine neue Anmeldemethode hinzugefügt",
  "notices.mail.methodLinked.intro": "Am {time} wurde {detail} als Anmeldemethode zu Ihrem Konto bei {site} hinzugefügt.",
  "notices.mail.password": "ein Passwort",
  "notices.mail.twoFactorLocked.subject": "Wiederholt falsche Codes für Ihr Konto bei {site}",
  "notices.mail.twoFactorLocked.intro": "Am {time} hat jemand, der das Passwort Ihres Kontos bei {site} kannte, immer wieder falsche Zwei-Faktor-Codes eingegeben. Die Zwei-Faktor-Anmeldung bei Ihrem Konto ist eine Weile gesperrt, und jede weitere Reihe falscher Codes sperrt sie länger.",
  "notices.mail.button": "Konto prüfen",
  "notices.mail.footer": "Falls Sie das waren, ist nichts zu tun. Falls nicht, kann sich womöglich jemand anderes bei Ihrem Konto anmelden: Prüfen Sie die Anmeldemethoden und Geräte Ihres Kontos und wählen Sie ein neues Passwort, falls Sie eines haben.",
  "notices.undo.heading": "Änderung Ihrer E-Mail-Adresse rückgängig machen",
  "notices.undo.message": "Ihr Konto erhält die Adresse {email} zurück, und alle Geräte werden abgemeldet, auch dieses. Melden Sie sich danach erneut an und wählen Sie ein neues Passwort, falls jemand anderes es kennen könnte.",
  "notices.undo.button": "{email} für mein Konto zurückholen",
}
