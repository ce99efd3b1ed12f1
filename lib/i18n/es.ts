/** Spanish texts of the built-in pages and the sign-in email (informal "tú", as most sites use). */
import type { Messages } from "./en.js"

export const es: Messages = {
  "signin.heading": "Iniciar sesión",
  "signin.with": "Iniciar sesión con {provider}",
  "signin.or": "o",
  "signin.none": "No hay ningún método de inicio de sesión configurado.",
  "signin.email.label": "Correo electrónico",
  "signin.email.placeholder": "nombre@example.com",
  "signin.passkey.emailLabel": "Correo electrónico (para crear una cuenta)",
  "signin.passkey.unsupported": "Este navegador no admite llaves de acceso.",
  "signin.passkey.failed": "No se completó el inicio de sesión con la llave de acceso. Inténtalo de nuevo.",

  "signin.error.Signin": "No se pudo comenzar el inicio de sesión. Inténtalo de nuevo o elige otra forma de iniciar sesión.",
  "signin.error.OAuthSignin": "No pudimos conectar con el servicio de inicio de sesión. Inténtalo de nuevo o elige otra forma de iniciar sesión.",
  "signin.error.OAuthCallbackError": "El servicio de inicio de sesión devolvió una respuesta que no podemos aceptar. Inténtalo de nuevo.",
  "signin.error.OAuthCreateAccount": "No pudimos crear tu cuenta con ese servicio de inicio de sesión. Prueba otra forma de iniciar sesión.",
  "signin.error.EmailCreateAccount": "No pudimos crear una cuenta para esa dirección de correo. Prueba otra forma de iniciar sesión.",
  "signin.error.Callback": "Algo salió mal al completar el inicio de sesión. Inténtalo de nuevo.",
  "signin.error.OAuthAccountNotLinked": "Esta dirección de correo ya está registrada con otro método de inicio de sesión. Usa el método que usaste la primera vez.",
  "signin.error.EmailSignin": "No pudimos enviar el correo de inicio de sesión. Comprueba la dirección e inténtalo de nuevo.",
  "signin.error.CredentialsSignin": "Los datos no coinciden. Compruébalos e inténtalo de nuevo.",
  "signin.error.SessionRequired": "Inicia sesión para ver esa página.",
  "signin.error.MissingCSRF": "El formulario ha caducado. Inténtalo de nuevo.",
  "signin.error.WebAuthnVerificationError": "No se pudo verificar la llave de acceso. Inténtalo de nuevo o usa otra forma de iniciar sesión.",
  "signin.error.RateLimited": "Demasiados intentos. Espera unos minutos y vuelve a intentarlo.",
  "signin.error.default": "No pudimos iniciar tu sesión. Inténtalo de nuevo.",

  "signout.heading": "Cerrar sesión",
  "signout.question": "¿Seguro que quieres cerrar sesión?",
  "signout.button": "Cerrar sesión",

  "verify.heading": "Revisa tu correo",
  "verify.message": "Te hemos enviado un enlace para iniciar sesión. Solo funciona una vez y caduca pronto.",

  "link.home": "Ir a la página de inicio",
  "link.signInAgain": "Volver a iniciar sesión",

  "error.Configuration.heading": "Error del servidor",
  "error.Configuration.message": "El servicio de inicio de sesión no está bien configurado. Los registros del sitio tienen más detalles.",
  "error.AccessDenied.heading": "Acceso denegado",
  "error.AccessDenied.message": "No tienes permiso para iniciar sesión aquí.",
  "error.Verification.heading": "Este enlace ya no funciona",
  "error.Verification.message": "Los enlaces de inicio de sesión solo se pueden usar una vez y caducan al cabo de un tiempo. Solicita uno nuevo.",
  "error.AdapterError.heading": "No disponible temporalmente",
  "error.AdapterError.message": "El inicio de sesión no está disponible en este momento. Vuelve a intentarlo en breve.",
  "error.default.heading": "Algo salió mal",
  "error.default.message": "No pudimos completar la solicitud. Inténtalo de nuevo.",

  "email.subject": "Inicia sesión en {site}",
  "email.heading": "Inicia sesión en {site}",
  "email.intro": "Usa este botón para iniciar sesión como {identifier}.",
  "email.button": "Iniciar sesión",
  "email.textIntro": "Abre este enlace para iniciar sesión como {identifier}:",
  "email.expires": "El enlace solo funciona una vez y caduca el {expires}. Si no lo has solicitado, ignora este correo.",
}
