/**
 * Every capability's texts (its `texts`, in the order of lib/capabilities.ts) and the built-in
 * catalogs built from them: the core's texts in each language merged with every capability's. The
 * configuration resolver hands this list to lib/i18n (`resolveI18n`), which builds the catalogs
 * once per list, so once per process; the resolved configuration's `i18n` carries them to the
 * pages. Here, at the top of the pipeline, because reading lib/capabilities.ts from lib/i18n would
 * be an import cycle (a capability object reaches its handlers, and they reach lib/i18n).
 */
import { CAPABILITIES } from "../capabilities.js"
import { builtInCatalogs, DEFAULT_LOCALE } from "../i18n/catalogs.js"
import type { MessageKey, Messages } from "../i18n/en.js"
import type { TextsByLanguage } from "../i18n/text-types.js"

export const CAPABILITY_TEXTS: readonly TextsByLanguage[] = Object.freeze(CAPABILITIES.flatMap((capability) => (capability.texts ? [capability.texts] : [])))

/** The built-in catalogs, by lower-case language tag (the same object the resolver gets). */
export const BUILT_IN = builtInCatalogs(CAPABILITY_TEXTS)

/** The complete built-in English catalog: the core's texts and every capability's. */
export const ENGLISH = BUILT_IN[DEFAULT_LOCALE] as Messages

/** Every key of a catalog, in the English catalog's order. */
export const MESSAGE_KEYS = Object.freeze(Object.keys(ENGLISH)) as readonly MessageKey[]
