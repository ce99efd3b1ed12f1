/**
 * The built-in catalogs, by lower-case language tag: the core's texts in each language (en.ts,
 * de.ts, ...) merged with every capability's (lib/capability-texts.ts). Built once, when this
 * module loads: a request only ever reads them.
 */
import { CAPABILITY_TEXTS } from "../capability-texts.js"
import { de } from "./de.js"
import { en, type CoreMessages, type MessageKey, type Messages } from "./en.js"
import { es } from "./es.js"
import { fr } from "./fr.js"
import { ja } from "./ja.js"
import type { TextsByLanguage } from "./text-types.js"

const CORE: Readonly<Record<string, CoreMessages>> = { en, de, fr, es, ja }

/** Every capability's texts, read by any language tag. */
const capabilityTexts: readonly TextsByLanguage[] = CAPABILITY_TEXTS

function withCapabilityTexts(tag: string, core: CoreMessages): Messages {
  const catalog: Record<string, string> = { ...core }
  for (const texts of capabilityTexts) Object.assign(catalog, texts[tag])
  return Object.freeze(catalog) as Messages
}

export const BUILT_IN: Readonly<Record<string, Messages>> = Object.freeze(
  Object.fromEntries(Object.entries(CORE).map(([tag, core]) => [tag, withCapabilityTexts(tag, core)])),
)

export const DEFAULT_LOCALE = "en"

/** The complete English catalog: the pages' texts when none is chosen, and JSON error bodies. */
export const ENGLISH = BUILT_IN[DEFAULT_LOCALE] as Messages

/** Every key of a catalog, in the English catalog's order. */
export const MESSAGE_KEYS = Object.freeze(Object.keys(ENGLISH)) as readonly MessageKey[]

/** Fill `{name}` placeholders; a placeholder with no value is left as written. */
export function format(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (Object.prototype.hasOwnProperty.call(values, name) ? (values[name] as string) : match))
}
