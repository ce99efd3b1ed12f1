/**
 * The `locale` and `messages` options through resolveConfig: named InvalidOption errors for bad
 * values, and catalogs resolved and frozen once, with partial overrides falling back to the
 * locale's built-in text and then English.
 */
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { InvalidOption } from "../../lib/errors.js"
import { BUILT_IN } from "../../lib/core/built-in-texts.js"
import { en } from "../../lib/i18n/en.js"
import type { AuthConfig } from "../../lib/types.js"
import { testConfig } from "../helpers/app.js"

const resolve = (overrides: Record<string, unknown>) => resolveConfig(testConfig(overrides as Partial<AuthConfig>))

describe("invalid options throw InvalidOption", () => {
  test.each([
    [{ locale: "xx" }, /locale must be "auto" or one of the available locales \(en, de, fr, es, ja;.*\(got "xx"\)/],
    [{ locale: 42 }, /locale .*\(got 42\)/],
    [{ locale: "" }, /locale .*\(got ""\)/],
    [{ locale: "pt-BR" }, /locale .*\(got "pt-BR"\)/],
    [{ locale: "de-CH" }, /locale .*\(got "de-CH"\)/],
    [{ messages: "de" }, /messages must be an object of locales \(got "de"\)/],
    [{ messages: [] }, /messages must be an object of locales/],
    [{ messages: null }, /messages must be an object of locales/],
    [{ messages: { "not a tag": {} } }, /messages\["not a tag"\]: the locale must be a language tag/],
    [{ messages: { "de-": {} } }, /must be a language tag/],
    [{ messages: { de: "Anmelden" } }, /messages\["de"\] must be an object of texts \(got "Anmelden"\)/],
    [{ messages: { de: { "signin.heding": "Login" } } }, /messages\["de"\]\.signin\.heding is not a message key/],
    [{ messages: { de: { __proto__: null, constructor: "x" } } }, /constructor is not a message key/],
    [{ messages: { de: { "signin.heading": 1 } } }, /messages\["de"\]\["signin.heading"\] must be a string \(got 1\)/],
    [{ messages: { de: {}, DE: {} } }, /the locale "de" is given twice/],
  ])("%p", (options, message) => {
    expect(() => resolve(options)).toThrow(InvalidOption)
    expect(() => resolve(options)).toThrow(message)
  })

  test("a __proto__ key from JSON is refused, not merged", () => {
    const messages = JSON.parse('{"de": {"__proto__": {"polluted": "yes"}}}') as unknown
    expect(() => resolve({ messages })).toThrow(/__proto__ is not a message key/)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe("resolved catalogs", () => {
  test("without options: the five built-in locales, negotiated per request, equal to the catalogs", () => {
    const { i18n } = resolve({})
    expect(i18n.fixed).toBeUndefined()
    expect([...i18n.locales.values()].map((locale) => locale.tag)).toEqual(["en", "de", "fr", "es", "ja"])
    for (const [tag, catalog] of Object.entries(BUILT_IN)) expect(i18n.locales.get(tag)!.messages).toEqual(catalog)
    expect(i18n.fallback.tag).toBe("en")
  })

  test("are frozen, and resolved once per configuration object", () => {
    const config = testConfig({ messages: { de: { "signin.heading": "Einloggen" } } })
    const first = resolveConfig(config)
    expect(resolveConfig(config).i18n).toBe(first.i18n)
    expect(Object.isFrozen(first.i18n)).toBe(true)
    expect(Object.isFrozen(first.i18n.locales.get("de")!.messages)).toBe(true)
    expect(Object.isFrozen(first.i18n.locales.get("de"))).toBe(true)
  })

  test("a partial override replaces only its keys; the rest stay the locale's built-in texts", () => {
    const { i18n } = resolve({ messages: { de: { "signin.heading": "Einloggen" }, en: { "signout.button": "Log out" } } })
    const de = i18n.locales.get("de")!.messages
    expect(de["signin.heading"]).toBe("Einloggen")
    expect(de["signout.button"]).toBe(BUILT_IN.de!["signout.button"])
    expect(i18n.locales.get("en")!.messages["signout.button"]).toBe("Log out")
    expect(i18n.locales.get("en")!.messages["signin.heading"]).toBe("Sign in")
  })

  test("a new locale: its texts, English for the keys it leaves out", () => {
    const { i18n } = resolve({ locale: "pt-BR", messages: { "pt-BR": { "signin.heading": "Entrar", "signin.with": "Entrar com {provider}" } } })
    expect(i18n.fixed?.tag).toBe("pt-BR")
    const pt = i18n.fixed!.messages
    expect(pt["signin.heading"]).toBe("Entrar")
    expect(pt["signout.heading"]).toBe(en["signout.heading"])
  })

  test("a regional locale builds on the language: built-in German, then the app's de, then de-CH", () => {
    const { i18n } = resolve({ messages: { de: { "signin.or": "bzw." }, "de-CH": { "signin.heading": "Einloggen" } } })
    const ch = i18n.locales.get("de-ch")!
    expect(ch.tag).toBe("de-CH")
    expect(ch.messages["signin.heading"]).toBe("Einloggen")
    expect(ch.messages["signin.or"]).toBe("bzw.")
    expect(ch.messages["signout.heading"]).toBe(BUILT_IN.de!["signout.heading"])
  })

  test("the user's messages object is neither kept nor modified", () => {
    const messages = { de: { "signin.heading": "Einloggen" } }
    const { i18n } = resolve({ messages })
    messages.de["signin.heading"] = "changed"
    expect(i18n.locales.get("de")!.messages["signin.heading"]).toBe("Einloggen")
    expect(Object.keys(messages.de)).toEqual(["signin.heading"])
  })
})
