/** Passkey set-up's German texts (formal address, as lib/i18n/de.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const de: TextsOf<typeof en> = {
  "passkey.setup.heading": "Passkey erstellen",
  "passkey.setup.emailConfirmed": "Ihre E-Mail-Adresse ist bestätigt.",
  "passkey.setup.message": "Erstellen Sie einen Passkey, um sich beim nächsten Mal mit Fingerabdruck, Gesicht oder Bildschirmsperre anzumelden.",
  "passkey.setup.skip": "Jetzt nicht",
}
