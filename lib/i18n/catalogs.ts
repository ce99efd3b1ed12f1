/** The built-in catalogs, by lower-case language tag. */
import { de } from "./de.js"
import { en, type Messages } from "./en.js"
import { es } from "./es.js"
import { fr } from "./fr.js"
import { ja } from "./ja.js"

export const BUILT_IN: Readonly<Record<string, Messages>> = Object.freeze({ en, de, fr, es, ja })

export const DEFAULT_LOCALE = "en"

/** Every key of a catalog, in the English catalog's order. */
export const MESSAGE_KEYS = Object.freeze(Object.keys(en)) as readonly (keyof Messages)[]

/** Fill `{name}` placeholders; a placeholder with no value is left as written. */
export function format(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (Object.prototype.hasOwnProperty.call(values, name) ? (values[name] as string) : match))
}
