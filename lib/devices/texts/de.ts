/** Sessions and devices' German texts (formal address, as lib/i18n/de.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const de: TextsOf<typeof en> = {
  "error.RevocationPending.heading": "Noch nicht bestätigt",
  "error.RevocationPending.message": "Ihre anderen Sitzungen konnten gerade nicht überall abgemeldet werden: Dieser Server lehnt sie bereits ab und versucht es weiter. Bitte versuchen Sie es gleich noch einmal, um es zu bestätigen.",
  "devices.label": "{browser} unter {system}",
  "devices.place.loopback": "Dieser Computer",
  "devices.place.private": "Lokales Netzwerk",
}
