/**
 * Each capability's texts (lib/<capability>/texts/, issue #25): every built-in language has exactly
 * the capability's English keys; no key is defined twice (by two capabilities, or by a capability
 * and the core); each built-in catalog is the core's texts and every capability's, built once per
 * process from the list the resolver hands to lib/i18n (lib/core/built-in-texts.ts), and a resolved
 * configuration's catalogs are those; every capability's keys are message keys, in the types too.
 */
import { CAPABILITIES } from "../../lib/capabilities.js"
import { BUILT_IN, CAPABILITY_TEXTS, MESSAGE_KEYS } from "../../lib/core/built-in-texts.js"
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { builtInCatalogs } from "../../lib/i18n/catalogs.js"
import { de } from "../../lib/i18n/de.js"
import { en, type MessageKey } from "../../lib/i18n/en.js"
import { es } from "../../lib/i18n/es.js"
import { fr } from "../../lib/i18n/fr.js"
import { ja } from "../../lib/i18n/ja.js"
import { testConfig } from "../helpers/app.js"
import { LOCALES } from "./support.js"

const CORE: Record<string, object> = { en, de, fr, es, ja }
const WITH_TEXTS = CAPABILITIES.filter((capability) => capability.texts !== undefined)
const keysOf = (texts: object | undefined) => Object.keys(texts ?? {}).sort()

describe("each capability's texts", () => {
  test("the list handed to lib/i18n is the texts of exactly the capabilities that bring some, in their order", () => {
    expect(CAPABILITY_TEXTS.length).toBe(WITH_TEXTS.length)
    WITH_TEXTS.forEach((capability, index) => expect({ name: capability.name, same: CAPABILITY_TEXTS[index] === capability.texts }).toEqual({ name: capability.name, same: true }))
  })

  test.each(WITH_TEXTS.map((capability) => [capability.name, capability] as const))("%s has exactly its English keys in every built-in language", (_name, capability) => {
    const texts = capability.texts!
    expect(Object.keys(texts).sort()).toEqual([...LOCALES].sort())
    const english = keysOf(texts.en)
    expect(english.length).toBeGreaterThan(0)
    for (const locale of LOCALES) expect({ locale, keys: keysOf(texts[locale]) }).toEqual({ locale, keys: english })
  })

  test("no key is defined twice: by two capabilities, or by a capability and the core", () => {
    const owners = new Map<string, string[]>(Object.keys(en).map((key) => [key, ["core"]]))
    for (const capability of WITH_TEXTS) {
      for (const key of Object.keys(capability.texts!.en!)) owners.set(key, [...(owners.get(key) ?? []), capability.name])
    }
    expect([...owners].filter(([, names]) => names.length > 1)).toEqual([])
  })

  test.each(LOCALES)("the built-in %s catalog is the core's texts and every capability's, frozen", (locale) => {
    const expected = Object.assign({}, CORE[locale], ...WITH_TEXTS.map((capability) => capability.texts![locale]))
    expect(BUILT_IN[locale]).toEqual(expected)
    expect(keysOf(BUILT_IN[locale])).toEqual(keysOf(BUILT_IN.en))
    expect(Object.isFrozen(BUILT_IN[locale])).toBe(true)
  })

  test("the built-in catalogs are built once for the list, and a resolved configuration's catalogs are those", () => {
    expect(builtInCatalogs(CAPABILITY_TEXTS)).toBe(BUILT_IN)
    const { i18n } = resolveConfig(testConfig({}))
    expect(builtInCatalogs(CAPABILITY_TEXTS)).toBe(BUILT_IN)
    for (const [tag, catalog] of Object.entries(BUILT_IN)) expect(i18n.locales.get(tag)!.messages).toEqual(catalog)
  })

  test("every capability's keys are message keys (the `messages` option takes them), in the types as well", () => {
    const keys = new Set<string>(MESSAGE_KEYS)
    for (const capability of WITH_TEXTS) for (const key of Object.keys(capability.texts!.en!)) expect({ key, known: keys.has(key) }).toEqual({ key, known: true })
    const { i18n } = resolveConfig(testConfig({ messages: { de: { "twoFactor.heading": "Zwei Schritte" } } }))
    expect(i18n.locales.get("de")!.messages["twoFactor.heading"]).toBe("Zwei Schritte")
    const typed: MessageKey[] = ["twoFactor.heading", "account.heading", "password.signup.heading", "passkey.setup.heading", "verify.code.label", "error.RevocationPending.heading"]
    // @ts-expect-error: a key no catalog has is not a MessageKey
    const unknown: MessageKey = "twoFactor.nope"
    expect(typed.every((key) => keys.has(key)) && !keys.has(unknown)).toBe(true)
  })
})
