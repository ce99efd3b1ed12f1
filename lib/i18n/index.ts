/**
 * Which catalog a response uses: the configured `locale`, else the request's `Accept-Language`.
 * The resolved configuration carries its `ResolvedI18n`; the email sender, which is given the
 * configuration's theme rather than the configuration, finds it through that theme object.
 */
import { lastCapabilityTexts } from "./catalogs.js"
import { negotiate } from "./negotiate.js"
import { resolveI18n, type Locale, type ResolvedI18n } from "./options.js"
import type { TextsByLanguage } from "./text-types.js"

export { format } from "./catalogs.js"
export type { MessageKey, Messages } from "./en.js"
export { resolveI18n, type Locale, type LocaleMessages, type ResolvedI18n } from "./options.js"

export interface ChosenLocale {
  readonly locale: Locale
  /** Chosen from the request's headers (the response varies by `Accept-Language`). */
  readonly negotiated: boolean
}

let defaults: { texts: readonly TextsByLanguage[]; i18n: ResolvedI18n } | undefined

/**
 * Built-in catalogs only, English unless the header asks otherwise: with the capabilities' texts
 * the resolver handed over (the core's alone before any configuration is resolved).
 */
export function defaultI18n(): ResolvedI18n {
  const texts = lastCapabilityTexts()
  if (defaults?.texts !== texts) defaults = { texts, i18n: resolveI18n(undefined, undefined, texts) }
  return defaults.i18n
}

export function chooseLocale(i18n: ResolvedI18n, acceptLanguage: string | undefined): ChosenLocale {
  if (i18n.fixed) return { locale: i18n.fixed, negotiated: false }
  return { locale: negotiate(acceptLanguage, i18n.locales, i18n.fallback), negotiated: true }
}

const byTheme = new WeakMap<object, ResolvedI18n>()

/** Records the configuration's `i18n` against its (frozen, per-configuration) theme object. */
export function bindToTheme<T extends object>(theme: T, i18n: ResolvedI18n): T {
  byTheme.set(theme, i18n)
  return theme
}

/** The `i18n` of the configuration `theme` belongs to, or the built-in one. */
export function i18nOfTheme(theme: object): ResolvedI18n {
  return byTheme.get(theme) ?? defaultI18n()
}
