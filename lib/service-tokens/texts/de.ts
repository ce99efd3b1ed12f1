/** Service tokens' texts in German (formal "Sie"). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const de: TextsOf<typeof en> = {
  "error.ServiceTokenInvalid.heading": "Token nicht akzeptiert",
  "error.ServiceTokenInvalid.message": "Das Dienst-Token ist hier nicht gültig: Es ist vielleicht abgelaufen oder für einen anderen Dienst bestimmt.",
  "error.ServiceTokenScopeDenied.heading": "Berechtigung fehlt",
  "error.ServiceTokenScopeDenied.message": "Sie haben ein Token mit einer Berechtigung angefordert, die Sie oder Ihr Schlüssel nicht haben.",
  "error.ServiceTokensUnavailable.heading": "Nicht verfügbar",
  "error.ServiceTokensUnavailable.message": "Diese Website stellt keine Dienst-Tokens aus.",
}
