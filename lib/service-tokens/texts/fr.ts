/** Service tokens' texts in French (vouvoiement). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const fr: TextsOf<typeof en> = {
  "error.ServiceTokenInvalid.heading": "Jeton refusé",
  "error.ServiceTokenInvalid.message": "Le jeton de service n’est pas valide ici : il a peut-être expiré, ou il est destiné à un autre service.",
  "error.ServiceTokenScopeDenied.heading": "Autorisation manquante",
  "error.ServiceTokenScopeDenied.message": "Vous avez demandé un jeton avec une autorisation que vous ou votre clé n’avez pas.",
  "error.ServiceTokensUnavailable.heading": "Non disponible",
  "error.ServiceTokensUnavailable.message": "Ce site ne délivre pas de jetons de service.",
}
