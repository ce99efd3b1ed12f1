/**
 * Every capability's texts (its folder's `texts/`): lib/i18n merges them into the built-in
 * catalogs, and their English keys make up `MessageKey` with the core's (so `t["twoFactor.heading"]`
 * and the app's `messages` option are typed, in the published types too). The same objects the
 * capability objects bring as `texts`, in the order of capabilities.ts (a test checks the two
 * agree). A list of its own because a capability object reaches its handlers (their `import()`),
 * and they reach lib/i18n: lib/i18n reading `CAPABILITIES` would be an import cycle.
 */
import { accountTexts } from "./account/texts/index.js"
import { emailCodesTexts } from "./email-codes/texts/index.js"
import { noticesTexts } from "./notices/texts/index.js"
import { passkeysTexts } from "./passkeys/texts/index.js"
import { passwordTexts } from "./password/texts/index.js"
import { twoFactorTexts } from "./two-factor/texts/index.js"

export const CAPABILITY_TEXTS = [accountTexts, passkeysTexts, passwordTexts, twoFactorTexts, emailCodesTexts, noticesTexts] as const

/** The keys of every capability's texts (those of its English texts). */
export type CapabilityMessageKey = (typeof CAPABILITY_TEXTS)[number] extends infer Each ? (Each extends { readonly en: infer English } ? keyof English : never) : never
