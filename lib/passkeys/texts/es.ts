/** Passkey set-up's Spanish texts (informal "tú", as lib/i18n/es.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const es: TextsOf<typeof en> = {
  "passkey.setup.heading": "Crear una llave de acceso",
  "passkey.setup.emailConfirmed": "Tu dirección de correo está confirmada.",
  "passkey.setup.message": "Crea una llave de acceso para iniciar sesión la próxima vez con tu huella, tu cara o el bloqueo de pantalla.",
  "passkey.setup.skip": "Ahora no",
}
