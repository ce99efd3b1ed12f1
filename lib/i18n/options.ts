/**
 * The `locale` and `messages` options, checked and resolved once per configuration: every locale
 * (built-in or the app's) gets one frozen, complete catalog, merged as English ← the built-in
 * catalog of each prefix of the tag (`de`, then `de-ch`) ← the app's texts for that prefix. The
 * built-in catalogs hold the core's texts and the capabilities' the resolver hands over.
 */
import { InvalidOption } from "../errors.js"
import { show } from "../core/config/show.js"
import { builtInCatalogs, DEFAULT_LOCALE, type Catalogs } from "./catalogs.js"
import type { MessageKey, Messages } from "./en.js"
import type { TextsByLanguage } from "./text-types.js"

/** App-supplied texts: per locale tag, any built-in keys. */
export type LocaleMessages = Readonly<Record<string, Partial<Record<MessageKey, string>>>>

export interface Locale {
  /** The tag as configured (canonical case): `de`, `pt-BR`. */
  readonly tag: string
  readonly messages: Messages
}

export interface ResolvedI18n {
  /** Set when the `locale` option fixes the language; otherwise each request negotiates. */
  readonly fixed?: Locale
  /** Every available locale, by lower-case tag. */
  readonly locales: ReadonlyMap<string, Locale>
  /** English, with the app's English texts. */
  readonly fallback: Locale
}

const TAG = /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i
const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key)
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

function canonicalTag(path: string, tag: string): string {
  if (TAG.test(tag)) {
    try {
      const [canonical] = Intl.getCanonicalLocales(tag)
      if (canonical) return canonical
    } catch {
      // reported below
    }
  }
  throw new InvalidOption(`${path} must be a language tag such as "de" or "pt-BR" (got ${show(tag)})`)
}

/** The app's texts, by lower-case tag, checked key by key against English `en`. */
function appMessages(messages: unknown, en: Messages): Map<string, { tag: string; texts: Partial<Messages> }> {
  const result = new Map<string, { tag: string; texts: Partial<Messages> }>()
  if (messages === undefined) return result
  if (!isPlainObject(messages)) throw new InvalidOption(`messages must be an object of locales (got ${show(messages)})`)
  for (const [name, texts] of Object.entries(messages)) {
    const path = `messages[${JSON.stringify(name)}]`
    const tag = canonicalTag(`${path}: the locale`, name)
    if (result.has(tag.toLowerCase())) throw new InvalidOption(`${path}: the locale "${tag}" is given twice`)
    if (!isPlainObject(texts)) throw new InvalidOption(`${path} must be an object of texts (got ${show(texts)})`)
    const checked: Partial<Record<MessageKey, string>> = {}
    for (const [key, text] of Object.entries(texts)) {
      if (!has(en, key)) throw new InvalidOption(`${path}.${key} is not a message key; the keys are those of the English catalog (got ${show(key)})`)
      if (typeof text !== "string") throw new InvalidOption(`${path}["${key}"] must be a string (got ${show(text)})`)
      checked[key as MessageKey] = text
    }
    result.set(tag.toLowerCase(), { tag, texts: checked })
  }
  return result
}

function catalog(lower: string, app: ReturnType<typeof appMessages>, builtIn: Catalogs): Messages {
  const merged: Record<string, string> = { ...builtIn[DEFAULT_LOCALE] }
  const parts = lower.split("-")
  for (let length = 1; length <= parts.length; length++) {
    const prefix = parts.slice(0, length).join("-")
    if (has(builtIn, prefix)) Object.assign(merged, builtIn[prefix])
    Object.assign(merged, app.get(prefix)?.texts)
  }
  return Object.freeze(merged) as Messages
}

/** `capabilityTexts`: every capability's texts, one list per process (the built-in catalogs are built once per list). */
export function resolveI18n(locale: unknown, messages: unknown, capabilityTexts: readonly TextsByLanguage[]): ResolvedI18n {
  const builtIn = builtInCatalogs(capabilityTexts)
  const app = appMessages(messages, builtIn[DEFAULT_LOCALE] as Messages)
  const tags = new Map<string, string>(Object.keys(builtIn).map((tag) => [tag, tag]))
  for (const [lower, { tag }] of app) if (!tags.has(lower)) tags.set(lower, tag)
  const locales = new Map<string, Locale>()
  for (const [lower, tag] of tags) locales.set(lower, Object.freeze({ tag, messages: catalog(lower, app, builtIn) }))
  const fallback = locales.get(DEFAULT_LOCALE) as Locale
  if (locale === undefined || locale === "auto") return Object.freeze({ locales, fallback })
  const fixed = typeof locale === "string" ? locales.get(locale.toLowerCase()) : undefined
  if (!fixed) {
    const known = [...locales.values()].map((entry) => entry.tag).join(", ")
    throw new InvalidOption(`locale must be "auto" or one of the available locales (${known}; add others with \`messages\`) (got ${show(locale)})`)
  }
  return Object.freeze({ fixed, locales, fallback })
}
