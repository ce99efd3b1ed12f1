/**
 * The built-in catalogs (lib/i18n/): every locale has exactly the English keys, no empty text,
 * the same `{placeholders}` as English, and no markup (texts are escaped, never HTML).
 */
import { BUILT_IN, ENGLISH as en, MESSAGE_KEYS } from "../../lib/core/built-in-texts.js"
import { format } from "../../lib/i18n/catalogs.js"
import { LOCALES } from "./support.js"

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()

describe("the built-in catalogs", () => {
  test("are en, de, fr, es and ja, and frozen", () => {
    expect(Object.keys(BUILT_IN).sort()).toEqual([...LOCALES].sort())
    expect(Object.isFrozen(BUILT_IN)).toBe(true)
  })

  test.each(LOCALES)("%s has exactly the English keys (none missing, none extra)", (locale) => {
    const catalog = BUILT_IN[locale]!
    const missing = MESSAGE_KEYS.filter((key) => !Object.prototype.hasOwnProperty.call(catalog, key))
    const extra = Object.keys(catalog).filter((key) => !Object.prototype.hasOwnProperty.call(en, key))
    expect({ missing, extra }).toEqual({ missing: [], extra: [] })
  })

  test.each(LOCALES)("%s: every text is a non-empty string with the English text's placeholders", (locale) => {
    const catalog = BUILT_IN[locale]!
    for (const key of MESSAGE_KEYS) {
      const text = catalog[key]
      expect(typeof text).toBe("string")
      expect(text.trim()).not.toBe("")
      expect({ key, placeholders: placeholders(text) }).toEqual({ key, placeholders: placeholders(en[key]) })
    }
  })

  test.each(LOCALES)("%s: no text contains markup", (locale) => {
    for (const text of Object.values(BUILT_IN[locale]!)) expect(text).not.toMatch(/[<>]/)
  })

  test.each(LOCALES.filter((locale) => locale !== "en"))("%s is a translation: the headings and buttons differ from English", (locale) => {
    for (const key of ["signin.heading", "signin.with", "signout.question", "verify.heading", "error.default.heading", "email.subject"] as const) {
      expect(BUILT_IN[locale]![key]).not.toBe(en[key])
    }
  })
})

describe("format", () => {
  test("fills placeholders, leaves unknown ones, and does not interpret $ patterns", () => {
    expect(format("Sign in with {provider}", { provider: "GitHub" })).toBe("Sign in with GitHub")
    expect(format("{a} {b}", { a: "x" })).toBe("x {b}")
    expect(format("{provider}", { provider: "$& $1 $$" })).toBe("$& $1 $$")
    expect(format("{constructor}", {})).toBe("{constructor}")
  })
})
