/** Security notices' French texts (`\u00a0` before `?` and `:`, as lib/i18n/fr.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const fr: TextsOf<typeof en> = {
  "notices.mail.emailChanged.subject": "L’adresse e-mail de votre compte sur {site} a été modifiée",
  "notices.mail.emailChanged.intro": "Le {time}, l’adresse e-mail de votre compte sur {site} a été changée de cette adresse à {detail}.",
  "notices.mail.emailChanged.button": "Annuler ce changement",
  "notices.mail.emailChanged.footer": "Si ce n’était pas vous, ouvrez le lien avant le {expires} : il rend cette adresse à votre compte et déconnecte tous les appareils. Le lien fonctionne une fois.",
  "notices.mail.passwordChanged.subject": "Le mot de passe de votre compte sur {site} a été modifié",
  "notices.mail.passwordChanged.intro": "Le {time}, le mot de passe de votre compte sur {site} a été modifié.",
  "notices.mail.passwordReset.subject": "Le mot de passe de votre compte sur {site} a été réinitialisé",
  "notices.mail.passwordReset.intro": "Le {time}, le mot de passe de votre compte sur {site} a été réinitialisé avec un lien envoyé à cette adresse.",
  "notices.mail.twoFactorEnabled.subject": "La connexion en deux étapes a été configurée pour votre compte sur {site}",
  "notices.mail.twoFactorEnabled.intro": "Le {time}, une application d’authentification a été configurée pour la connexion en deux étapes à votre compte sur {site}.",
  "notices.mail.twoFactorDisabled.subject": "La connexion en deux étapes a été désactivée pour votre compte sur {site}",
  "notices.mail.twoFactorDisabled.intro": "Le {time}, la connexion en deux étapes a été désactivée pour votre compte sur {site} : la première étape suffit désormais pour se connecter.",
  "notices.mail.recoveryCodesReplaced.subject": "De nouveaux codes de récupération ont été créés pour votre compte sur {site}",
  "notices.mail.recoveryCodesReplaced.intro": "Le {time}, de nouveaux codes de récupération ont été créés pour votre compte sur {site} ; les anciens ne fonctionnent plus.",
  "notices.mail.passkeyAdded.subject": "Une nouvelle clé d’accès a été ajoutée à votre compte sur {site}",
  "notices.mail.passkeyAdded.intro": "Le {time}, une nouvelle clé d’accès a été ajoutée à votre compte sur {site}. Elle permet de se connecter à votre compte.",
  "notices.mail.methodLinked.subject": "Un nouveau moyen de connexion a été ajouté à votre compte sur {site}",
  "notices.mail.methodLinked.intro": "Le {time}, {detail} a été ajouté à votre compte sur {site} comme moyen de connexion.",
  "notices.mail.password": "un mot de passe",
  "notices.mail.twoFactorLocked.subject": "Codes erronés répétés pour votre compte sur {site}",
  "notices.mail.twoFactorLocked.intro": "Le {time}, quelqu’un qui connaissait le mot de passe de votre compte sur {site} a saisi à plusieurs reprises des codes de deuxième étape erronés. La connexion en deux étapes à votre compte est suspendue un moment, et chaque nouvelle série de codes erronés la suspend plus longtemps.",
  "notices.mail.button": "Vérifier votre compte",
  "notices.mail.footer": "Si c’était vous, il n’y a rien à faire. Sinon, quelqu’un d’autre peut peut-être se connecter à votre compte : vérifiez ses moyens de connexion et ses appareils, et choisissez un nouveau mot de passe si vous en avez un.",
  "notices.undo.heading": "Annuler le changement de votre adresse e-mail",
  "notices.undo.message": "Votre compte retrouve l’adresse {email} et tous les appareils sont déconnectés, y compris celui-ci. Reconnectez-vous ensuite, et choisissez un nouveau mot de passe si quelqu’un d’autre peut le connaître.",
  "notices.undo.button": "Rendre {email} à mon compte",
}
