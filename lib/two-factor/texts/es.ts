/** Two-factor sign-in's Spanish texts (informal "tú", as lib/i18n/es.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const es: TextsOf<typeof en> = {
  "signin.error.TwoFactorCodeInvalid": "Ese código no es correcto. Revisa tu aplicación de autenticación e inténtalo de nuevo.",
  "signin.error.TwoFactorCodeReplayed": "Ese código ya se usó. Espera al siguiente código de tu aplicación.",
  "signin.error.TwoFactorExpired": "El inicio de sesión tardó demasiado. Vuelve a iniciar sesión.",
  "signin.error.RecoveryCodeUsed": "Ese código de recuperación ya se usó. Cada uno funciona una sola vez.",

  "twoFactor.heading": "Verificación en dos pasos",
  "twoFactor.message": "Escribe el código de 6 dígitos de tu aplicación de autenticación.",
  "twoFactor.code.label": "Código",
  "twoFactor.button": "Verificar",
  "twoFactor.recoveryHint": "¿No tienes acceso a tu aplicación? Escribe uno de tus códigos de recuperación.",
  "twoFactor.cancel": "Empezar de nuevo",
  "twoFactor.passkey": "Usar una llave de acceso",
  "twoFactor.setup.heading": "Configurar la verificación en dos pasos",
  "twoFactor.setup.scan": "Escanea este código QR con tu aplicación de autenticación o escribe en ella la clave de abajo.",
  "twoFactor.setup.secretLabel": "Clave para escribirla a mano:",
  "twoFactor.setup.confirm": "Código que muestra ahora tu aplicación",
  "twoFactor.setup.button": "Activar",
  "twoFactor.codes.heading": "Tus códigos de recuperación",
  "twoFactor.codes.message": "Guarda estos códigos en un lugar seguro. Si pierdes tu dispositivo, cada uno te permite iniciar sesión una vez. Solo se muestran ahora.",
  "twoFactor.codes.continue": "Continuar",
  "twoFactor.manage.heading": "La verificación en dos pasos está activada",
  "twoFactor.manage.remaining": "Códigos de recuperación sin usar:",
  "twoFactor.manage.codeLabel": "Código actual o un código de recuperación",
  "twoFactor.manage.regenerate": "Obtener códigos de recuperación nuevos",
  "twoFactor.manage.disable": "Desactivar",
  "twoFactor.off.heading": "La verificación en dos pasos está desactivada",
  "twoFactor.off.message": "Ahora para iniciar sesión basta con el primer paso. Puedes volver a activarla cuando quieras.",
  "twoFactor.codes.enabled": "La verificación en dos pasos ya está activada.",
  "twoFactor.codes.renewed": "Se crearon nuevos códigos de recuperación. Los anteriores ya no funcionan.",
  "twoFactor.codes.copy": "Copiar como texto",
  "twoFactor.codes.copyLabel": "Códigos de recuperación, uno por línea: selecciónalos para copiarlos",
  "twoFactor.codes.download": "Descargar como archivo de texto",
  "twoFactor.setup.cancel": "Cancelar",
}
