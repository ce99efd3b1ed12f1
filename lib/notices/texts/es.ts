/** Security notices' Spanish texts (informal "tú", as lib/i18n/es.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const es: TextsOf<typeof en> = {
  "notices.mail.emailChanged.subject": "Se ha cambiado la dirección de correo de tu cuenta en {site}",
  "notices.mail.emailChanged.intro": "El {time}, la dirección de correo de tu cuenta en {site} se cambió de esta dirección a {detail}.",
  "notices.mail.emailChanged.button": "Deshacer este cambio",
  "notices.mail.emailChanged.footer": "Si no fuiste tú, abre el enlace antes del {expires}: devuelve esta dirección a tu cuenta y cierra la sesión en todos los dispositivos. El enlace funciona una vez.",
  "notices.mail.passwordChanged.subject": "Se ha cambiado la contraseña de tu cuenta en {site}",
  "notices.mail.passwordChanged.intro": "El {time}, se cambió la contraseña de tu cuenta en {site}.",
  "notices.mail.passwordReset.subject": "Se ha restablecido la contraseña de tu cuenta en {site}",
  "notices.mail.passwordReset.intro": "El {time}, se restableció la contraseña de tu cuenta en {site} con un enlace enviado a esta dirección.",
  "notices.mail.twoFactorEnabled.subject": "Se ha configurado el inicio de sesión en dos pasos en tu cuenta de {site}",
  "notices.mail.twoFactorEnabled.intro": "El {time}, se configuró una aplicación de autenticación para el inicio de sesión en dos pasos en tu cuenta de {site}.",
  "notices.mail.twoFactorDisabled.subject": "Se ha desactivado el inicio de sesión en dos pasos en tu cuenta de {site}",
  "notices.mail.twoFactorDisabled.intro": "El {time}, se desactivó el inicio de sesión en dos pasos en tu cuenta de {site}: ahora basta con el primer paso para iniciar sesión.",
  "notices.mail.recoveryCodesReplaced.subject": "Se han creado nuevos códigos de recuperación para tu cuenta en {site}",
  "notices.mail.recoveryCodesReplaced.intro": "El {time}, se crearon nuevos códigos de recuperación para tu cuenta en {site}; los anteriores ya no funcionan.",
  "notices.mail.passkeyAdded.subject": "Se ha añadido una nueva llave de acceso a tu cuenta en {site}",
  "notices.mail.passkeyAdded.intro": "El {time}, se añadió una nueva llave de acceso a tu cuenta en {site}. Con ella se puede iniciar sesión en tu cuenta.",
  "notices.mail.methodLinked.subject": "Se ha añadido una nueva forma de iniciar sesión a tu cuenta en {site}",
  "notices.mail.methodLinked.intro": "El {time}, se añadió {detail} a tu cuenta en {site} como forma de iniciar sesión.",
  "notices.mail.password": "una contraseña",
  "notices.mail.twoFactorLocked.subject": "Códigos incorrectos repetidos para tu cuenta en {site}",
  "notices.mail.twoFactorLocked.intro": "El {time}, alguien que conocía la contraseña de tu cuenta en {site} introdujo una y otra vez códigos de dos pasos incorrectos. El inicio de sesión en dos pasos de tu cuenta queda en pausa un tiempo, y cada nueva serie de códigos incorrectos lo pausa más tiempo.",
  "notices.mail.button": "Revisar tu cuenta",
  "notices.mail.footer": "Si fuiste tú, no tienes que hacer nada. Si no, puede que otra persona pueda iniciar sesión en tu cuenta: revisa sus métodos de inicio de sesión y sus dispositivos, y elige una contraseña nueva si tienes una.",
  "notices.undo.heading": "Deshacer el cambio de tu dirección de correo",
  "notices.undo.message": "Tu cuenta recupera la dirección {email} y se cierra la sesión en todos los dispositivos, incluido este. Después vuelve a iniciar sesión y elige una nueva contraseña si alguien más puede conocerla.",
  "notices.undo.button": "Devolver {email} a mi cuenta",
}
