/** Two-factor sign-in's French texts (`\u00a0` before `?` and `:`, as lib/i18n/fr.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const fr: TextsOf<typeof en> = {
  "signin.error.TwoFactorCodeInvalid": "Ce code n’est pas le bon. Vérifiez votre application d’authentification et réessayez.",
  "signin.error.TwoFactorCodeReplayed": "Ce code a déjà été utilisé. Attendez le code suivant dans votre application.",
  "signin.error.TwoFactorExpired": "La connexion a pris trop de temps. Veuillez vous reconnecter.",
  "signin.error.RecoveryCodeUsed": "Ce code de secours a déjà été utilisé. Chacun ne fonctionne qu’une fois.",

  "twoFactor.heading": "Validation en deux étapes",
  "twoFactor.message": "Saisissez le code à 6 chiffres de votre application d’authentification.",
  "twoFactor.code.label": "Code",
  "twoFactor.button": "Valider",
  "twoFactor.recoveryHint": "Pas d’accès à votre application ? Saisissez plutôt l’un de vos codes de secours.",
  "twoFactor.cancel": "Recommencer",
  "twoFactor.passkey": "Utiliser plutôt une clé d’accès",
  "twoFactor.setup.heading": "Configurer la validation en deux étapes",
  "twoFactor.setup.scan": "Scannez ce code QR avec votre application d’authentification, ou saisissez-y la clé ci-dessous.",
  "twoFactor.setup.secretLabel": "Clé à saisir manuellement :",
  "twoFactor.setup.confirm": "Code affiché maintenant par votre application",
  "twoFactor.setup.button": "Activer",
  "twoFactor.codes.heading": "Vos codes de secours",
  "twoFactor.codes.message": "Conservez ces codes en lieu sûr. Si vous perdez votre appareil, chacun permet une connexion. Ils ne sont affichés que maintenant.",
  "twoFactor.codes.continue": "Continuer",
  "twoFactor.manage.heading": "La validation en deux étapes est activée",
  "twoFactor.manage.remaining": "Codes de secours inutilisés :",
  "twoFactor.manage.codeLabel": "Code actuel ou code de secours",
  "twoFactor.manage.regenerate": "Obtenir de nouveaux codes de secours",
  "twoFactor.manage.disable": "Désactiver",
  "twoFactor.off.heading": "La validation en deux étapes est désactivée",
  "twoFactor.off.message": "La connexion ne demande plus que la première étape. Vous pouvez la réactiver à tout moment.",
  "twoFactor.codes.enabled": "La validation en deux étapes est maintenant activée.",
  "twoFactor.codes.renewed": "De nouveaux codes de récupération ont été créés. Les anciens ne fonctionnent plus.",
  "twoFactor.codes.copy": "Copier en texte",
  "twoFactor.codes.copyLabel": "Codes de récupération, un par ligne : sélectionnez-les pour les copier",
  "twoFactor.codes.download": "Télécharger en fichier texte",
  "twoFactor.setup.cancel": "Annuler",
}
