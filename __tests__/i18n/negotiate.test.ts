/**
 * Choosing the locale from `Accept-Language`: q-values, region subtags falling back to the
 * language, `*`, malformed headers (English), and the `locale` option fixing the language.
 */
import { negotiate } from "../../lib/i18n/negotiate.js"
import { chooseLocale, resolveI18n } from "../../lib/i18n/index.js"
import { CAPABILITY_TEXTS } from "../../lib/core/built-in-texts.js"

const i18n = resolveI18n(undefined, { "pt-BR": { "signin.heading": "Entrar" } }, CAPABILITY_TEXTS)
const pick = (header: string | undefined) => chooseLocale(i18n, header).locale.tag

describe("Accept-Language negotiation", () => {
  test.each([
    [undefined, "en"],
    ["", "en"],
    ["de", "de"],
    ["fr-FR,fr;q=0.9,en;q=0.8", "fr"],
    ["DE-ch", "de"],
    ["de-CH", "de"],
    ["es-419,es;q=0.9", "es"],
    ["ja-JP", "ja"],
    ["zh-Hant-TW,ja;q=0.5", "ja"],
    ["en;q=0.5,de;q=0.9", "de"],
    ["de;q=0.5, fr;q=0.5", "de"],
    ["fr;q=0, de", "de"],
    ["fr;q=0", "en"],
    ["it, nl;q=0.8", "en"],
    ["it, es;q=0.1", "es"],
    ["*", "en"],
    ["*;q=0.9, ja;q=0.5", "en"],
    ["ja;q=0.5, *;q=0.4", "ja"],
    ["pt-BR", "pt-BR"],
    ["pt-br", "pt-BR"],
    ["pt", "en"],
    ["pt-BR-x-foo", "pt-BR"],
    [" de ; q=0.7 , ja ; q=0.8 ", "ja"],
  ])("%j → %s", (header, expected) => {
    expect(pick(header)).toBe(expected)
  })

  test.each([
    "garbage!!!",
    ";;;,,,",
    "de;q=2",
    "de;q=-1",
    "de;q=abc",
    "de;q=0.12345",
    "<script>",
    "d€",
    "x".repeat(10_000),
    "ja;q=1.5",
  ])("a malformed header or range (%j) is ignored: English", (header) => {
    expect(pick(header)).toBe("en")
  })

  test("a valid range still counts next to malformed ones", () => {
    expect(pick("garbage!!!, de;q=0.5")).toBe("de")
    expect(pick("de;q=oops, fr;q=0.3")).toBe("fr")
  })

  test("a very long header is cut short rather than parsed whole", () => {
    expect(pick(`${"xx-yy;q=0.1,".repeat(200)}de`)).toBe("en")
    expect(pick(`de,${"x".repeat(5000)}`)).toBe("de")
  })

  test("negotiation reports that the response varies by the header", () => {
    expect(chooseLocale(i18n, "de").negotiated).toBe(true)
  })

  test("negotiate() with a custom table and fallback", () => {
    const table = new Map([["de", "DE"], ["de-at", "AT"]])
    expect(negotiate("de-AT-x", table, "EN")).toBe("AT")
    expect(negotiate("de-CH", table, "EN")).toBe("DE")
    expect(negotiate("fr", table, "EN")).toBe("EN")
  })
})

describe("a fixed locale", () => {
  test("overrides the header and does not vary", () => {
    const fixed = resolveI18n("ja", undefined, CAPABILITY_TEXTS)
    expect(chooseLocale(fixed, "de,en;q=0.5")).toEqual({ locale: fixed.fixed, negotiated: false })
    expect(chooseLocale(fixed, undefined).locale.tag).toBe("ja")
  })

  test("is matched case-insensitively and keeps the configured tag", () => {
    expect(resolveI18n("DE", undefined, CAPABILITY_TEXTS).fixed?.tag).toBe("de")
    expect(resolveI18n("pt-br", { "pt-BR": {} }, CAPABILITY_TEXTS).fixed?.tag).toBe("pt-BR")
  })

  test('"auto" and absent negotiate', () => {
    expect(resolveI18n("auto", undefined, CAPABILITY_TEXTS).fixed).toBeUndefined()
    expect(resolveI18n(undefined, undefined, CAPABILITY_TEXTS).fixed).toBeUndefined()
  })
})
