/**
 * The Bot protection' texts in every built-in language. Its capability object brings them (`texts`,
 * ../capability.ts, which also makes their keys part of `MessageKey`); the configuration resolver
 * hands every capability's texts to lib/i18n, which merges them into the built-in catalogs once
 * per process.
 */
import type { Texts } from "../../i18n/text-types.js"
import { de } from "./de.js"
import { en } from "./en.js"
import { es } from "./es.js"
import { fr } from "./fr.js"
import { ja } from "./ja.js"

export const botProtectionTexts: Texts<typeof en> = Object.freeze({ en, de, fr, es, ja })
