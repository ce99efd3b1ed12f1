/** Sessions and devices' Spanish texts (informal "tú", as lib/i18n/es.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const es: TextsOf<typeof en> = {
  "error.RevocationPending.heading": "Aún no confirmado",
  "error.RevocationPending.message": "No se han podido cerrar tus otras sesiones en todas partes en este momento: este servidor ya las rechaza y sigue intentándolo. Vuelve a intentarlo en un momento para confirmarlo.",
  "devices.label": "{browser} en {system}",
  "devices.place.loopback": "Este ordenador",
  "devices.place.private": "Red local",
}
