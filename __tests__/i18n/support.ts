/**
 * Shared by the i18n suites (not a test file): an app with one provider of each kind (so the
 * sign-in page shows every text), page fetching with an `Accept-Language` header, and the texts
 * each built-in locale must show.
 */
import { MemoryAdapter } from "../../adapters/memory/index.js"
import GitHub from "../../lib/providers/github.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Passkey from "../../lib/providers/passkey.js"
import type { AuthConfig } from "../../lib/types.js"
import { credentials, makeApp, request, testConfig } from "../helpers/app.js"
import { byTag, parseHtml, textOf, type Parsed } from "../unit/pages/html.js"

export const LOCALES = ["en", "de", "fr", "es", "ja"] as const
export type BuiltInLocale = (typeof LOCALES)[number]

/** A few texts per locale, written out (not read from the catalogs) so a wrong catalog shows. */
export const KNOWN: Record<BuiltInLocale, { signIn: string; withGitHub: string; or: string; signOut: string; verify: string; errorHeading: string; adapterError: string; rateLimited: string }> = {
  en: {
    signIn: "Sign in",
    withGitHub: "Sign in with GitHub",
    or: "or",
    signOut: "Are you sure you want to sign out?",
    verify: "Check your email",
    errorHeading: "Access denied",
    adapterError: "Temporarily unavailable",
    rateLimited: "Too many attempts. Wait a few minutes, then try again.",
  },
  de: {
    signIn: "Anmelden",
    withGitHub: "Mit GitHub anmelden",
    or: "oder",
    signOut: "Möchten Sie sich wirklich abmelden?",
    verify: "Prüfen Sie Ihre E-Mails",
    errorHeading: "Zugriff verweigert",
    adapterError: "Vorübergehend nicht verfügbar",
    rateLimited: "Zu viele Versuche. Warten Sie einige Minuten und versuchen Sie es dann erneut.",
  },
  fr: {
    signIn: "Se connecter",
    withGitHub: "Se connecter avec GitHub",
    or: "ou",
    signOut: "Voulez-vous vraiment vous déconnecter\u00a0?",
    verify: "Consultez vos e-mails",
    errorHeading: "Accès refusé",
    adapterError: "Temporairement indisponible",
    rateLimited: "Trop de tentatives. Patientez quelques minutes, puis réessayez.",
  },
  es: {
    signIn: "Iniciar sesión",
    withGitHub: "Iniciar sesión con GitHub",
    or: "o",
    signOut: "¿Seguro que quieres cerrar sesión?",
    verify: "Revisa tu correo",
    errorHeading: "Acceso denegado",
    adapterError: "No disponible temporalmente",
    rateLimited: "Demasiados intentos. Espera unos minutos y vuelve a intentarlo.",
  },
  ja: {
    signIn: "ログイン",
    withGitHub: "GitHub でログイン",
    or: "または",
    signOut: "ログアウトしてもよろしいですか？",
    verify: "メールをご確認ください",
    errorHeading: "アクセスが拒否されました",
    adapterError: "一時的に利用できません",
    rateLimited: "試行回数が多すぎます。数分待ってから、もう一度お試しください。",
  },
}

/** Credentials, GitHub, a magic link and a passkey: every group of the sign-in page. */
export function fullConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return testConfig({
    adapter: MemoryAdapter(),
    providers: [credentials(), GitHub({ clientId: "id", clientSecret: "secret" }), Nodemailer({ server: "smtp://127.0.0.1:9" }), Passkey()],
    rateLimit: false,
    ...overrides,
  })
}

export interface Page {
  status: number
  headers: Record<string, string | string[] | undefined>
  html: string
  parsed: Parsed
  lang: string | undefined
  /** The visible text of the body, whitespace collapsed. */
  text: string
}

export async function getPage(app: ReturnType<typeof makeApp>, path: string, acceptLanguage?: string): Promise<Page> {
  const pending = request(app).get(path)
  if (acceptLanguage !== undefined) pending.set("Accept-Language", acceptLanguage)
  const response = await pending
  const parsed = parseHtml(response.text)
  const html = byTag(parsed, "html")[0]!
  const body = byTag(parsed, "body")[0]!
  return {
    status: response.status,
    headers: response.headers as Page["headers"],
    html: response.text,
    parsed,
    lang: html.attrs.find((attribute) => attribute.name === "lang")?.value,
    text: textOf(body).replace(/[ \t\r\n]+/g, " ").trim(),
  }
}

export { makeApp, request }
