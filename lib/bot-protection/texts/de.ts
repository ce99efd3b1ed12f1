/** Bot protection's German texts (formal address, as lib/i18n/de.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const de: TextsOf<typeof en> = {
  "signin.error.BotChallengeFailed": "Bitte bestätigen Sie, dass Sie kein Roboter sind, und versuchen Sie es dann erneut.",
  "signin.error.BotCheckUnavailable": "Wir konnten gerade nicht prüfen, ob Sie kein Roboter sind. Versuchen Sie es in einer Minute erneut.",
  "error.BotChallengeFailed.heading": "Prüfung fehlgeschlagen",
  "error.BotChallengeFailed.message": "Die Anfrage hat die Prüfung, ob Sie kein Roboter sind, nicht bestanden. Gehen Sie zurück, schließen Sie die Prüfung ab und versuchen Sie es erneut.",
  "error.BotCheckUnavailable.heading": "Prüfung nicht verfügbar",
  "error.BotCheckUnavailable.message": "Die Prüfung, ob Sie kein Roboter sind, konnte gerade nicht ausgeführt werden. Versuchen Sie es in einer Minute erneut.",

  "bot.widget.label": "Ich bin kein Roboter",
  "bot.widget.verifying": "Wird geprüft …",
  "bot.widget.verified": "Geprüft: Sie sind kein Roboter",
  "bot.widget.waiting": "Wird geprüft … bitte warten Sie einen Moment.",
  "bot.widget.required": "Bitte setzen Sie das Häkchen, um zu zeigen, dass Sie kein Roboter sind.",
  "bot.widget.failed": "Die Prüfung hat nicht funktioniert. Versuchen Sie es in einer Minute erneut.",
  "bot.widget.expired": "Die Prüfung ist abgelaufen. Setzen Sie das Häkchen erneut.",
  "bot.noscript.message": "Dieses Formular prüft mit JavaScript, dass Sie kein Roboter sind, und JavaScript ist in diesem Browser ausgeschaltet. Schalten Sie es ein und laden Sie die Seite neu.",
  "bot.noscript.link": "Sie können JavaScript nicht einschalten? Auf anderem Weg fortfahren.",
  "bot.noscript.contact": "Wenn Sie JavaScript nicht einschalten können, wenden Sie sich an den Support dieser Website; dort hilft man Ihnen weiter.",
}
