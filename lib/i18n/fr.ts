/** French texts of the built-in pages and the sign-in email (`\u00a0` before `?` and `:`, as French typesetting wants). */
import type { Messages } from "./en.js"

export const fr: Messages = {
  "signin.heading": "Se connecter",
  "signin.with": "Se connecter avec {provider}",
  "signin.or": "ou",
  "signin.none": "Aucun moyen de connexion n’est configuré.",
  "signin.email.label": "Adresse e-mail",
  "signin.email.placeholder": "nom@example.com",
  "signin.passkey.emailLabel": "Adresse e-mail (pour créer un compte)",
  "signin.passkey.unsupported": "Ce navigateur ne prend pas en charge les clés d’accès.",
  "signin.passkey.failed": "La connexion avec une clé d’accès n’a pas abouti. Veuillez réessayer.",

  "signin.error.Signin": "La connexion n’a pas pu démarrer. Veuillez réessayer ou choisir un autre moyen de connexion.",
  "signin.error.OAuthSignin": "Le service de connexion est injoignable. Veuillez réessayer ou choisir un autre moyen de connexion.",
  "signin.error.OAuthCallbackError": "Le service de connexion a renvoyé une réponse que nous ne pouvons pas accepter. Veuillez réessayer.",
  "signin.error.OAuthCreateAccount": "Impossible de créer votre compte avec ce service de connexion. Veuillez essayer un autre moyen de connexion.",
  "signin.error.EmailCreateAccount": "Impossible de créer un compte pour cette adresse e-mail. Veuillez essayer un autre moyen de connexion.",
  "signin.error.Callback": "Un problème est survenu à la fin de la connexion. Veuillez réessayer.",
  "signin.error.OAuthAccountNotLinked": "Cette adresse e-mail est déjà associée à un autre moyen de connexion. Utilisez celui que vous avez utilisé la première fois.",
  "signin.error.EmailSignin": "L’e-mail de connexion n’a pas pu être envoyé. Vérifiez l’adresse et réessayez.",
  "signin.error.CredentialsSignin": "Ces informations ne correspondent pas. Vérifiez-les et réessayez.",
  "signin.error.SessionRequired": "Veuillez vous connecter pour voir cette page.",
  "signin.error.MissingCSRF": "Le formulaire a expiré. Veuillez réessayer.",
  "signin.error.WebAuthnVerificationError": "La clé d’accès n’a pas pu être vérifiée. Veuillez réessayer ou utiliser un autre moyen de connexion.",
  "signin.error.RateLimited": "Trop de tentatives. Patientez quelques minutes, puis réessayez.",
  "signin.error.default": "La connexion a échoué. Veuillez réessayer.",

  "signout.heading": "Se déconnecter",
  "signout.question": "Voulez-vous vraiment vous déconnecter\u00a0?",
  "signout.button": "Se déconnecter",

  "verify.heading": "Consultez vos e-mails",
  "verify.message": "Nous vous avons envoyé un lien de connexion. Il ne sert qu’une fois et expire bientôt.",

  "link.home": "Aller à la page d’accueil",
  "link.signInAgain": "Se reconnecter",

  "error.Configuration.heading": "Erreur du serveur",
  "error.Configuration.message": "Le service de connexion n’est pas configuré correctement. Les journaux du site en disent plus.",
  "error.AccessDenied.heading": "Accès refusé",
  "error.AccessDenied.message": "Vous n’êtes pas autorisé à vous connecter ici.",
  "error.Verification.heading": "Ce lien n’est plus valide",
  "error.Verification.message": "Les liens de connexion ne servent qu’une fois et expirent au bout d’un moment. Demandez-en un nouveau.",
  "error.AdapterError.heading": "Temporairement indisponible",
  "error.AdapterError.message": "La connexion est momentanément indisponible. Veuillez réessayer dans quelques instants.",
  "error.default.heading": "Une erreur s’est produite",
  "error.default.message": "Nous n’avons pas pu traiter cette demande. Veuillez réessayer.",

  "email.subject": "Connexion à {site}",
  "email.heading": "Connexion à {site}",
  "email.intro": "Utilisez ce bouton pour vous connecter en tant que {identifier}.",
  "email.button": "Se connecter",
  "email.textIntro": "Ouvrez ce lien pour vous connecter en tant que {identifier}\u00a0:",
  "email.expires": "Le lien ne sert qu’une fois et expire le {expires}. Si vous ne l’avez pas demandé, ignorez cet e-mail.",
}
