/**
 * The devices' texts in the built-in language closest to a BCP 47 tag ("de-CH" reads German),
 * English when none is close: what the formatters use when an app calls them without its own texts.
 */
import { devicesTexts } from "./texts/index.js"
import type { en } from "./texts/en.js"
import type { TextsOf } from "../i18n/text-types.js"

export type DevicesTexts = TextsOf<typeof en>

export function builtInDevicesTexts(locale: string | undefined): DevicesTexts {
  const language = (locale ?? "en").toLowerCase().split("-")[0] as keyof typeof devicesTexts
  return Object.hasOwn(devicesTexts, language) ? devicesTexts[language] : devicesTexts.en
}
