/** Service tokens' texts in Spanish (usted). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const es: TextsOf<typeof en> = {
  "error.ServiceTokenInvalid.heading": "Token no aceptado",
  "error.ServiceTokenInvalid.message": "El token de servicio no es válido aquí: puede que haya caducado o que sea para otro servicio.",
  "error.ServiceTokenScopeDenied.heading": "Permiso no disponible",
  "error.ServiceTokenScopeDenied.message": "Ha pedido un token con un permiso que ni usted ni su clave tienen.",
  "error.ServiceTokensUnavailable.heading": "No disponible",
  "error.ServiceTokensUnavailable.message": "Este sitio no emite tokens de servicio.",
}
