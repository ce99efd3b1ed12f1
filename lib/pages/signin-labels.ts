/**
 * The sign-in page's words for what the app configured (issue #26): a field label or provider name
 * the app left at its built-in default ("Username", "Password", "Email", "Passkey", ...) is the
 * catalog's, in the page's language; one the app chose stays as it is, inside a translated
 * sentence. So a German page never says "Mit username and password anmelden".
 */
import type { Messages } from "../i18n/en.js"
import { format } from "../i18n/catalogs.js"
import type { Provider } from "../providers/types.js"
import { own } from "./messages.js"

/** The built-in field labels (the providers' defaults, or the name-derived one) and their catalog key. */
const FIELD_LABELS: Readonly<Record<string, "signin.field.username" | "signin.field.password" | "signin.field.email">> = Object.freeze({
  Username: "signin.field.username",
  Password: "signin.field.password",
  Email: "signin.field.email",
})

/** A credentials field's label: the catalog's when it is a built-in one, else the app's. */
export function fieldLabel(name: string, label: string | undefined, t: Messages): string {
  const shown = label ?? name.charAt(0).toUpperCase() + name.slice(1)
  const key = own(FIELD_LABELS, shown)
  return key ? t[key] : shown
}

/** Provider names the factories give (the app did not choose them), as words of the page's language. */
function providerName(provider: Provider, t: Messages): string {
  if (provider.type === "credentials" && (provider.name === "Credentials" || provider.name === "Password")) return t["signin.method.password"]
  return provider.name
}

/** "Sign in with <name>", translated around the name (translated too when a built-in default). */
export function signInWith(provider: Provider, t: Messages): string {
  if (provider.type === "webauthn" && (provider.name === "Passkey" || provider.name === "WebAuthn")) return t["signin.passkey.button"]
  return format(t["signin.with"], { provider: providerName(provider, t) })
}

/** The email form's button: a link, or a link or code (codes are on unless `code: false`). */
export function emailButton(provider: Provider, t: Messages): string {
  const codes = provider.type === "email" && provider.code !== false
  return codes ? t["signin.email.buttonCode"] : t["signin.email.button"]
}
