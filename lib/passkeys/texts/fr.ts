/** Passkey set-up's French texts (`\u00a0` before `?` and `:`, as lib/i18n/fr.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const fr: TextsOf<typeof en> = {
  "passkey.setup.heading": "Créer une clé d’accès",
  "passkey.setup.emailConfirmed": "Votre adresse e-mail est confirmée.",
  "passkey.setup.message": "Créez une clé d’accès pour vous connecter la prochaine fois avec votre empreinte, votre visage ou le verrouillage de l’écran.",
  "passkey.setup.skip": "Plus tard",
}
