/** Bot protection's French texts (vouvoiement; `\u00a0` before `?` and `:`, as lib/i18n/fr.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const fr: TextsOf<typeof en> = {
  "signin.error.BotChallengeFailed": "Veuillez confirmer que vous n’êtes pas un robot, puis réessayez.",
  "signin.error.BotCheckUnavailable": "Nous n’avons pas pu vérifier pour l’instant que vous n’êtes pas un robot. Réessayez dans une minute.",
  "error.BotChallengeFailed.heading": "Échec de la vérification",
  "error.BotChallengeFailed.message": "La demande n’a pas passé la vérification anti-robot. Revenez en arrière, effectuez la vérification et réessayez.",
  "error.BotCheckUnavailable.heading": "Vérification indisponible",
  "error.BotCheckUnavailable.message": "La vérification anti-robot n’a pas pu s’exécuter pour l’instant. Réessayez dans une minute.",

  "bot.widget.label": "Je ne suis pas un robot",
  "bot.widget.verifying": "Vérification…",
  "bot.widget.verified": "Vérifié : vous n’êtes pas un robot",
  "bot.widget.waiting": "Vérification… veuillez patienter un instant.",
  "bot.widget.required": "Veuillez cocher la case pour montrer que vous n’êtes pas un robot.",
  "bot.widget.failed": "La vérification n’a pas fonctionné. Réessayez dans une minute.",
  "bot.widget.expired": "La vérification a expiré. Cochez de nouveau la case.",
  "bot.noscript.message": "Ce formulaire utilise JavaScript pour vérifier que vous n’êtes pas un robot, et JavaScript est désactivé dans ce navigateur. Activez-le et rechargez la page.",
  "bot.noscript.link": "Vous ne pouvez pas activer JavaScript ? Continuez autrement.",
  "bot.noscript.contact": "Si vous ne pouvez pas activer JavaScript, contactez l’assistance de ce site : elle vous aidera.",
}
