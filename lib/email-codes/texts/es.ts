/** One-time email codes' Spanish texts (informal "tú", as lib/i18n/es.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const es: TextsOf<typeof en> = {
  "signin.error.EmailCodeExpired": "Ese código ya no funciona: ha caducado o su correo ya se usó. Solicita un correo nuevo.",
  "signin.error.EmailCodeLocked": "Demasiados códigos incorrectos. Solicita un correo nuevo.",
  "signin.error.EmailCodeNotBound": "Un código solo funciona en el navegador donde lo solicitaste. Abre el enlace del correo o solicita aquí un correo nuevo.",

  "verify.codeMessage": "Te hemos enviado un correo con un código para iniciar sesión y un enlace. Escribe el código aquí o abre el enlace.",
  "verify.codeMessageTo": "Hemos enviado a {email} un correo con un código para iniciar sesión y un enlace. Escribe el código aquí o abre el enlace.",

  "verify.code.label": "Código del correo",
  "verify.code.button": "Iniciar sesión",

  "verify.error.EmailCodeInvalid": "Ese código no es correcto. Revísalo y vuelve a intentarlo.",

  "email.codeLabel": "Tu código para iniciar sesión",

  "email.codeHelp": "Escríbelo en la página donde pediste iniciar sesión, en el mismo navegador. Solo funciona una vez y caduca el {codeExpires}.",

  "email.linkIntro": "O usa este botón para iniciar sesión como {identifier}.",

  "email.textLinkIntro": "O abre este enlace para iniciar sesión como {identifier}:",
}
