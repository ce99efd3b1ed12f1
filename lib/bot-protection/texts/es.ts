/** Bot protection's Spanish texts (formal "usted", as the password texts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const es: TextsOf<typeof en> = {
  "signin.error.BotChallengeFailed": "Confirme que no es un robot y vuelva a intentarlo.",
  "signin.error.BotCheckUnavailable": "No hemos podido comprobar ahora que no es un robot. Vuelva a intentarlo en un minuto.",
  "error.BotChallengeFailed.heading": "La comprobación no se superó",
  "error.BotChallengeFailed.message": "La solicitud no superó la comprobación de que no es un robot. Vuelva atrás, complete la comprobación e inténtelo de nuevo.",
  "error.BotCheckUnavailable.heading": "Comprobación no disponible",
  "error.BotCheckUnavailable.message": "La comprobación de que no es un robot no se ha podido realizar ahora. Vuelva a intentarlo en un minuto.",

  "bot.widget.label": "No soy un robot",
  "bot.widget.verifying": "Comprobando…",
  "bot.widget.verified": "Comprobado: no es un robot",
  "bot.widget.waiting": "Comprobando… espere un momento.",
  "bot.widget.required": "Marque la casilla para indicar que no es un robot.",
  "bot.widget.failed": "La comprobación no ha funcionado. Vuelva a intentarlo en un minuto.",
  "bot.widget.expired": "La comprobación ha caducado. Vuelva a marcar la casilla.",
  "bot.noscript.message": "Este formulario usa JavaScript para comprobar que no es un robot, y JavaScript está desactivado en este navegador. Actívelo y vuelva a cargar la página.",
  "bot.noscript.link": "¿No puede activar JavaScript? Continúe de otra manera.",
  "bot.noscript.contact": "Si no puede activar JavaScript, póngase en contacto con el equipo de asistencia de este sitio y le ayudarán.",
}
