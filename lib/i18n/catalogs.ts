/**
 * The built-in catalogs, by lower-case language tag: the core's texts in each language (en.ts,
 * de.ts, ...) merged with every capability's. The capabilities' texts are handed over by the
 * configuration resolver (lib/core/built-in-texts.ts lists them from lib/capabilities.ts): lib/i18n
 * cannot read that list itself, since a capability object reaches its handlers (their `import()`)
 * and they reach lib/i18n, which would be an import cycle. Built once per list, so once per
 * process: a request only ever reads them.
 */
import { de } from "./de.js"
import { en, type CoreMessages, type Messages } from "./en.js"
import { es } from "./es.js"
import { fr } from "./fr.js"
import { ja } from "./ja.js"
import type { TextsByLanguage } from "./text-types.js"

/** Built-in catalogs: by lower-case language tag, each a complete catalog. */
export type Catalogs = Readonly<Record<string, Messages>>

const CORE: Readonly<Record<string, CoreMessages>> = { en, de, fr, es, ja }

export const DEFAULT_LOCALE = "en"

/**
 * The core's English texts, where no request's catalog is at hand, for code that reads the core's
 * keys only; a capability's texts come with the resolved configuration (`config.i18n`).
 */
export const CORE_ENGLISH: CoreMessages = en

const built = new WeakMap<readonly TextsByLanguage[], Catalogs>()

/** The capabilities' texts handed over last: the resolver's list (one per process), or none yet. */
let handedOver: readonly TextsByLanguage[] = Object.freeze([])

function withCapabilityTexts(tag: string, core: CoreMessages, capabilityTexts: readonly TextsByLanguage[]): Messages {
  const catalog: Record<string, string> = { ...core }
  for (const texts of capabilityTexts) Object.assign(catalog, texts[tag])
  return Object.freeze(catalog) as Messages
}

/** The built-in catalogs with the capabilities' texts merged in: built once per list (its identity). */
export function builtInCatalogs(capabilityTexts: readonly TextsByLanguage[]): Catalogs {
  handedOver = capabilityTexts
  let catalogs = built.get(capabilityTexts)
  if (!catalogs) {
    catalogs = Object.freeze(Object.fromEntries(Object.entries(CORE).map(([tag, core]) => [tag, withCapabilityTexts(tag, core, capabilityTexts)])))
    built.set(capabilityTexts, catalogs)
  }
  return catalogs
}

/** The capabilities' texts the built-in catalogs were last built with (none before any configuration is resolved). */
export function lastCapabilityTexts(): readonly TextsByLanguage[] {
  return handedOver
}

/** Fill `{name}` placeholders; a placeholder with no value is left as written. */
export function format(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (Object.prototype.hasOwnProperty.call(values, name) ? (values[name] as string) : match))
}
