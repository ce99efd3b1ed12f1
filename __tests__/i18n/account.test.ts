/**
 * The account page (issue #15) in each built-in language, as a signed-in browser asking in that
 * language gets it: `<html lang>`, `Content-Language`, the heading (written out here, so a wrong
 * catalog shows), every section heading, label and button in the language, the device line's date
 * in the language's format, an explained refusal and a saved notice; and, in the four other
 * languages, no English text of the page left over.
 */
import { afterEach, describe, expect, jest, test } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { BUILT_IN } from "../../lib/core/built-in-texts.js"
import { attr, byTag, parseHtml, textOf } from "../unit/pages/html.js"
import { USERS, makeApp, request, signInAs } from "../helpers/app.js"
import { LOCALES, fullConfig } from "./support.js"

const HEADER: Record<(typeof LOCALES)[number], string> = { en: "en-US,en;q=0.9", de: "de-DE,de;q=0.9,en;q=0.8", fr: "fr-FR,fr;q=0.9", es: "es-ES,es;q=0.9,en;q=0.5", ja: "ja,en-US;q=0.7" }
const HEADING: Record<(typeof LOCALES)[number], string> = { en: "Your account", de: "Ihr Konto", fr: "Votre compte", es: "Tu cuenta", ja: "アカウント" }
const DELETE: Record<(typeof LOCALES)[number], string> = { en: "Delete my account", de: "Mein Konto löschen", fr: "Supprimer mon compte", es: "Eliminar mi cuenta", ja: "アカウントを削除する" }

const adapter = MemoryAdapter()
const app = makeApp(fullConfig({ adapter }))
const agent = request.agent(app)
const ALICE = USERS.alice!

beforeAll(async () => {
  await signInAs(agent, "alice")
  // A passkey of hers, so the passkey section has an item to name.
  await adapter.linkAccount({ type: "webauthn", provider: "passkey", providerAccountId: "cred-i18n-0001", userId: ALICE.id! })
  await adapter.createAuthenticator({
    credentialID: "cred-i18n-0001",
    userId: ALICE.id!,
    providerAccountId: "cred-i18n-0001",
    credentialPublicKey: Buffer.from("key").toString("base64"),
    counter: 0,
    credentialDeviceType: "multiDevice",
    credentialBackedUp: true,
    transports: "internal",
  })
})

afterEach(() => {
  jest.restoreAllMocks()
})

async function accountPage(locale: (typeof LOCALES)[number], query = "") {
  const res = await agent.get(`/auth/account${query}`).set("Accept-Language", HEADER[locale])
  expect(res.status).toBe(200)
  const parsed = parseHtml(res.text)
  const body = byTag(parsed, "body")[0]!
  return {
    res,
    parsed,
    lang: attr(byTag(parsed, "html")[0]!, "lang"),
    text: textOf(body).replace(/\s+/g, " ").trim(),
    texts: (tag: string) => byTag(parsed, tag).map((element) => textOf(element).replace(/\s+/g, " ").trim()),
  }
}

/** The English texts of the account page (no placeholder), where the language says something else. */
function englishOnly(locale: string): string[] {
  const en = BUILT_IN.en!
  const t = BUILT_IN[locale]!
  return Object.entries(en)
    .filter(([key, value]) => key.startsWith("account.") && !key.startsWith("account.email.confirm") && !value.includes("{") && t[key as keyof typeof t] !== value)
    .map(([, value]) => value)
}

describe.each(LOCALES)("the account page in %s", (locale) => {
  const t = BUILT_IN[locale]!
  const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (all, key: string) => values[key] ?? all)
  /** A catalog text with placeholders as a pattern of the whole rendered text. */
  const pattern = (text: string) => new RegExp(`^${text.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, ".+")}$`)

  test("heading, title, sections, labels, buttons and the device line in the language", async () => {
    const page = await accountPage(locale)
    expect(page.lang).toBe(locale)
    expect(page.res.headers["content-language"]).toBe(locale)
    expect(page.texts("h1")).toEqual([HEADING[locale]])
    expect(page.texts("title")).toEqual([HEADING[locale]])
    expect(page.texts("h2")).toEqual([t["account.profile.heading"], t["account.security.heading"], t["account.devices.heading"], t["account.danger.heading"]])
    expect(page.texts("h3")).toEqual(expect.arrayContaining([t["account.methods.heading"], t["account.passkeys.heading"], t["account.delete.heading"]]))
    expect(page.texts("a")).toEqual(expect.arrayContaining([t["account.header.signOut"], t["account.profile.heading"], t["account.danger.heading"]]))
    expect(page.texts("label")).toEqual(expect.arrayContaining([t["account.profile.name"], t["account.email.label"], t["account.delete.confirm"]]))
    const buttons = page.texts("button")
    expect(buttons).toEqual(expect.arrayContaining([t["account.profile.save"], t["account.email.button"], fill(t["account.methods.connect"], { provider: "GitHub" }), DELETE[locale]]))
    expect(buttons.filter((text) => pattern(t["account.passkeys.remove"]).test(text))).toHaveLength(1)
    expect(page.texts("a")).toContain(t["account.passkeys.add"])
    expect(page.text).toContain(`${t["account.profile.email"]}: ${ALICE.email}`)
    expect(page.text).toContain(`GitHub: ${t["account.methods.notConnected"]}`)
    expect(page.text).toContain(t["account.devices.current"])
    // The test's requests come from this computer: its place, in the language.
    expect(page.text).toContain(fill(t["account.devices.place"], { place: t["devices.place.loopback"] }))
    // When this device signed in, in the language's date format.
    const today = new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(new Date())
    expect(page.text).toContain(fill(t["account.devices.since"], { date: today }).split(today)[0]! + today)
  })

  test("an explained refusal and a saved notice in the language", async () => {
    const refused = await accountPage(locale, "?error=LastSignInMethod")
    const alert = byTag(refused.parsed, "p").find((p) => attr(p, "role") === "alert")!
    expect(textOf(alert)).toBe(t["account.error.LastSignInMethod"])
    const saved = await accountPage(locale, "?saved=email")
    const status = byTag(saved.parsed, "p").find((p) => attr(p, "role") === "status")!
    expect(textOf(status)).toBe(t["account.email.sent"])
  })

  if (locale !== "en") {
    test("no English text of the page is left over", async () => {
      const english = englishOnly(locale)
      expect(english.length).toBeGreaterThan(10)
      const pages = [await accountPage(locale), await accountPage(locale, "?error=SignInMethodNotFound"), await accountPage(locale, "?saved=name")]
      for (const page of pages) expect(english.filter((text) => page.text.includes(text))).toEqual([])
    })
  }
})
