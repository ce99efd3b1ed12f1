/**
 * The account page's "Connected apps" section texts (issue #32, views/partials/connected-apps-section.ejs)
 * in every built-in language, with exactly the English keys. `{name}`, `{date}`, `{resources}` are
 * filled in by the template; the scopes' own texts are `oidcProvider.scope.<name>` (pages.ts).
 */
export const appsEn = {
  "oidcProvider.apps.heading": "Connected apps",
  "oidcProvider.apps.intro": "These apps can use your account on this site, with the access you allowed them. Revoke an app's access when you no longer use it.",
  "oidcProvider.apps.none": "No apps yet.",
  "oidcProvider.apps.access": "Access:",
  "oidcProvider.apps.resources": "For: {resources}",
  "oidcProvider.apps.since": "Since {date}",
  "oidcProvider.apps.revokeText": "The app can no longer use your account. If you use it again, it asks for your permission again.",
  "oidcProvider.apps.revoke": "Revoke access of {name}",
  "oidcProvider.apps.saved": "The app's access was revoked.",
  "oidcProvider.apps.error": "The app's access could not be revoked. Please try again.",
}

export const appsDe: typeof appsEn = {
  "oidcProvider.apps.heading": "Verbundene Apps",
  "oidcProvider.apps.intro": "Diese Apps können Ihr Konto auf dieser Website nutzen, mit dem Zugriff, den Sie ihnen erlaubt haben. Widerrufen Sie den Zugriff einer App, wenn Sie sie nicht mehr verwenden.",
  "oidcProvider.apps.none": "Noch keine Apps.",
  "oidcProvider.apps.access": "Zugriff:",
  "oidcProvider.apps.resources": "Für: {resources}",
  "oidcProvider.apps.since": "Seit {date}",
  "oidcProvider.apps.revokeText": "Die App kann Ihr Konto nicht mehr nutzen. Wenn Sie sie wieder verwenden, bittet sie Sie erneut um Ihre Erlaubnis.",
  "oidcProvider.apps.revoke": "Zugriff von {name} widerrufen",
  "oidcProvider.apps.saved": "Der Zugriff der App wurde widerrufen.",
  "oidcProvider.apps.error": "Der Zugriff der App konnte nicht widerrufen werden. Bitte versuchen Sie es erneut.",
}

export const appsFr: typeof appsEn = {
  "oidcProvider.apps.heading": "Applications connectées",
  "oidcProvider.apps.intro": "Ces applications peuvent utiliser votre compte sur ce site, avec l’accès que vous leur avez accordé. Révoquez l’accès d’une application lorsque vous ne l’utilisez plus.",
  "oidcProvider.apps.none": "Aucune application pour l’instant.",
  "oidcProvider.apps.access": "Accès :",
  "oidcProvider.apps.resources": "Pour : {resources}",
  "oidcProvider.apps.since": "Depuis le {date}",
  "oidcProvider.apps.revokeText": "L’application ne pourra plus utiliser votre compte. Si vous l’utilisez de nouveau, elle vous redemandera votre autorisation.",
  "oidcProvider.apps.revoke": "Révoquer l’accès de {name}",
  "oidcProvider.apps.saved": "L’accès de l’application a été révoqué.",
  "oidcProvider.apps.error": "L’accès de l’application n’a pas pu être révoqué. Veuillez réessayer.",
}

export const appsEs: typeof appsEn = {
  "oidcProvider.apps.heading": "Aplicaciones conectadas",
  "oidcProvider.apps.intro": "Estas aplicaciones pueden usar su cuenta en este sitio, con el acceso que usted les permitió. Revoque el acceso de una aplicación cuando ya no la use.",
  "oidcProvider.apps.none": "Todavía no hay aplicaciones.",
  "oidcProvider.apps.access": "Acceso:",
  "oidcProvider.apps.resources": "Para: {resources}",
  "oidcProvider.apps.since": "Desde el {date}",
  "oidcProvider.apps.revokeText": "La aplicación ya no podrá usar su cuenta. Si vuelve a usarla, le pedirá su permiso de nuevo.",
  "oidcProvider.apps.revoke": "Revocar el acceso de {name}",
  "oidcProvider.apps.saved": "Se revocó el acceso de la aplicación.",
  "oidcProvider.apps.error": "No se pudo revocar el acceso de la aplicación. Inténtelo de nuevo.",
}

export const appsJa: typeof appsEn = {
  "oidcProvider.apps.heading": "連携中のアプリ",
  "oidcProvider.apps.intro": "これらのアプリは、許可したアクセスの範囲で、このサイトのアカウントを利用できます。使わなくなったアプリのアクセスは取り消してください。",
  "oidcProvider.apps.none": "連携中のアプリはまだありません。",
  "oidcProvider.apps.access": "アクセス:",
  "oidcProvider.apps.resources": "対象: {resources}",
  "oidcProvider.apps.since": "{date} から",
  "oidcProvider.apps.revokeText": "このアプリはアカウントを利用できなくなります。再び使う場合は、改めて許可を求められます。",
  "oidcProvider.apps.revoke": "{name} のアクセスを取り消す",
  "oidcProvider.apps.saved": "アプリのアクセスを取り消しました。",
  "oidcProvider.apps.error": "アプリのアクセスを取り消せませんでした。もう一度お試しください。",
}
