/** Sessions and devices' French texts (`\u00a0` before `?` and `:`, as lib/i18n/fr.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const fr: TextsOf<typeof en> = {
  "error.RevocationPending.heading": "Pas encore confirmé",
  "error.RevocationPending.message": "Vos autres sessions n’ont pas pu être fermées partout pour l’instant : ce serveur les refuse déjà et continue d’essayer. Veuillez réessayer dans un instant pour le confirmer.",
  "devices.label": "{browser} sur {system}",
  "devices.place.loopback": "Cet ordinateur",
  "devices.place.private": "Réseau local",
}
