/** One-time email codes' French texts (`\u00a0` before `?` and `:`, as lib/i18n/fr.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const fr: TextsOf<typeof en> = {
  "signin.error.EmailCodeExpired": "Ce code ne fonctionne plus\u00a0: il a expiré, ou son e-mail a déjà servi. Demandez un nouvel e-mail.",
  "signin.error.EmailCodeLocked": "Trop de codes erronés. Demandez un nouvel e-mail.",
  "signin.error.EmailCodeNotBound": "Un code ne fonctionne que dans le navigateur où vous l’avez demandé. Ouvrez le lien de l’e-mail, ou demandez un nouvel e-mail ici.",

  "verify.codeMessage": "Nous vous avons envoyé un e-mail avec un code de connexion et un lien. Saisissez le code ici, ou ouvrez le lien.",
  "verify.codeMessageTo": "Nous avons envoyé un e-mail avec un code de connexion et un lien à {email}. Saisissez le code ici, ou ouvrez le lien.",

  "verify.code.label": "Code reçu par e-mail",
  "verify.code.button": "Se connecter",

  "verify.error.EmailCodeInvalid": "Ce code n’est pas le bon. Vérifiez-le et réessayez.",

  "email.codeLabel": "Votre code de connexion",

  "email.codeHelp": "Saisissez-le sur la page où vous avez demandé à vous connecter, dans le même navigateur. Il ne sert qu’une fois et expire le {codeExpires}.",

  "email.linkIntro": "Ou utilisez ce bouton pour vous connecter en tant que {identifier}.",

  "email.textLinkIntro": "Ou ouvrez ce lien pour vous connecter en tant que {identifier}\u00a0:",
}
