/**
 * The built-in pages in each language, as served by the router: texts, `<html lang>`,
 * `Content-Language` and `Vary: Accept-Language`; the `locale` option over the header; the app's
 * own texts and locales; and app texts that contain markup, shown as text.
 */
import { BUILT_IN } from "../../lib/core/built-in-texts.js"
import { attr, byTag, expectNothingActive, textOf } from "../unit/pages/html.js"
import { KNOWN, LOCALES, fullConfig, getPage, makeApp, request, type Page } from "./support.js"
import { credentials } from "../helpers/app.js"
import GitHub from "../../lib/providers/github.js"

const app = makeApp(fullConfig())

/** The header a browser set to `locale` would send. */
const HEADER: Record<(typeof LOCALES)[number], string> = { en: "en-US,en;q=0.9", de: "de-DE,de;q=0.9,en;q=0.8", fr: "fr-FR,fr;q=0.9", es: "es-ES,es;q=0.9,en;q=0.5", ja: "ja,en-US;q=0.7" }

function expectLocale(page: Page, locale: string) {
  expect(page.lang).toBe(locale)
  expect(page.headers["content-language"]).toBe(locale)
}

describe.each(LOCALES)("%s", (locale) => {
  const known = KNOWN[locale]
  const t = BUILT_IN[locale]!

  test("sign-in page, step one: heading, title, the OAuth button, separator, the identifier field, Continue, the passkey button", async () => {
    const page = await getPage(app, "/auth/signin", HEADER[locale])
    expect(page.status).toBe(200)
    expectLocale(page, locale)
    expect(page.headers.vary).toMatch(/Accept-Language/)
    expect(textOf(byTag(page.parsed, "h1")[0]!)).toBe(known.signIn)
    expect(textOf(byTag(page.parsed, "title")[0]!)).toBe(known.signIn)
    const buttons = byTag(page.parsed, "button").map((button) => textOf(button).trim())
    // Issue #26: the passkey's built-in name ("Passkey") is the catalog's words, not "Passkey".
    expect(buttons).toEqual([known.withGitHub, t["signin.continue"], t["signin.passkey.button"]])
    expect(byTag(page.parsed, "div").filter((div) => attr(div, "role") === "separator").map((div) => textOf(div))[0]).toBe(known.or)
    // One field: usernames (the credentials form) and addresses (the magic link) both lead on.
    expect(byTag(page.parsed, "label").map((label) => textOf(label))).toEqual([t["signin.identifier.either"]])
    const passkeyForm = byTag(page.parsed, "form").find((form) => attr(form, "data-gatehouse-webauthn") !== undefined)!
    expect(attr(passkeyForm, "data-unsupported")).toBe(t["signin.passkey.unsupported"])
    expect(attr(passkeyForm, "data-failed")).toBe(t["signin.passkey.failed"])
  })

  test("sign-in page, step two for an address: the password form (labels translated), the link or code, the passkey, and creating one", async () => {
    const page = await getPage(app, "/auth/signin?login_hint=ada%40example.com", HEADER[locale])
    expectLocale(page, locale)
    const buttons = byTag(page.parsed, "button").map((button) => textOf(button).trim())
    expect(buttons).toEqual([t["signin.passkey.button"], t["signin.email.buttonCode"], t["signin.submit"], t["signin.passkey.create.emailButton"]])
    // Default labels ("Username", "Password") are the catalog's: no "Mit Credentials anmelden", no English field names.
    expect(byTag(page.parsed, "label").map((label) => textOf(label))).toEqual([t["signin.field.password"]])
    expect(textOf(byTag(page.parsed, "h2")[0]!)).toBe(t["signin.passkey.create.heading"])
    expect(page.text).toContain(t["signin.identifier.change"])
    expect(page.text).toContain("ada@example.com")
  })

  test("sign-in page with an error value: the message in the language; unknown values get the default", async () => {
    const known429 = await getPage(app, "/auth/signin?error=RateLimited", HEADER[locale])
    expect(textOf(byTag(known429.parsed, "p").find((p) => attr(p, "role") === "alert")!)).toBe(known.rateLimited)
    const unknown = await getPage(app, "/auth/signin?error=Whatever", HEADER[locale])
    expect(textOf(byTag(unknown.parsed, "p").find((p) => attr(p, "role") === "alert")!)).toBe(t["signin.error.default"])
  })

  test("sign-out page", async () => {
    const page = await getPage(app, "/auth/signout", HEADER[locale])
    expectLocale(page, locale)
    expect(page.text).toContain(known.signOut)
    expect(textOf(byTag(page.parsed, "button")[0]!)).toBe(t["signout.button"])
    expect(textOf(byTag(page.parsed, "title")[0]!)).toBe(t["signout.heading"])
    expect(textOf(byTag(page.parsed, "a")[0]!)).toBe(t["signout.cancel"])
  })

  test("verify-request page", async () => {
    const page = await getPage(app, "/auth/verify-request", HEADER[locale])
    expectLocale(page, locale)
    expect(textOf(byTag(page.parsed, "h1")[0]!)).toBe(known.verify)
    expect(page.text).toContain(t["verify.message"])
    // A browser that asked for no mail: the way back to sign in, and home (issue #26).
    expect(byTag(page.parsed, "a").map((a) => textOf(a))).toEqual([t["link.signIn"], t["link.home"]])
  })

  test("error pages: AccessDenied (403), AdapterError (503), the default", async () => {
    const denied = await getPage(app, "/auth/error?error=AccessDenied", HEADER[locale])
    expect(denied.status).toBe(403)
    expectLocale(denied, locale)
    expect(textOf(byTag(denied.parsed, "h1")[0]!)).toBe(known.errorHeading)
    expect(textOf(byTag(denied.parsed, "title")[0]!)).toBe(known.errorHeading)
    expect(textOf(byTag(denied.parsed, "a")[0]!)).toBe(t["link.signInAgain"])
    const down = await getPage(app, "/auth/error?error=AdapterError", HEADER[locale])
    expect(down.status).toBe(503)
    expect(textOf(byTag(down.parsed, "h1")[0]!)).toBe(known.adapterError)
    expect(down.text).toContain(t["error.AdapterError.message"])
    const other = await getPage(app, "/auth/error?error=<script>", HEADER[locale])
    expect(other.status).toBe(200)
    expect(textOf(byTag(other.parsed, "h1")[0]!)).toBe(t["error.default.heading"])
    expect(textOf(byTag(other.parsed, "a")[0]!)).toBe(t["link.home"])
  })

  test("the locale option fixes the language whatever the header says, without Vary", async () => {
    const fixed = makeApp(fullConfig({ locale }))
    for (const header of [undefined, "de", "ja;q=1, fr;q=0.5", "*"]) {
      const page = await getPage(fixed, "/auth/signin", header)
      expectLocale(page, locale)
      expect(textOf(byTag(page.parsed, "h1")[0]!)).toBe(known.signIn)
      expect(page.headers.vary ?? "").not.toMatch(/Accept-Language/i)
    }
  })
})

describe("negotiation over HTTP", () => {
  test.each([
    [undefined, "en"],
    ["de-CH", "de"],
    ["fr-CA;q=0.4, es-MX;q=0.8", "es"],
    ["*", "en"],
    ["klingon!!", "en"],
    ["it;q=1, ja;q=0.2", "ja"],
  ])("Accept-Language %j: %s", async (header, locale) => {
    const page = await getPage(app, "/auth/signin", header)
    expectLocale(page, locale)
    expect(textOf(byTag(page.parsed, "h1")[0]!)).toBe(KNOWN[locale as "en"].signIn)
  })

  test("English stays as it was: the default page is in English with lang=en", async () => {
    const page = await getPage(makeApp(fullConfig()), "/auth/signout")
    expect(page.html).toContain('<html lang="en">')
    expect(page.html).toContain("<h1>Sign out</h1>")
    expect(page.html).toContain("<p>Are you sure you want to sign out?</p>")
  })
})

describe("rate-limited sign-in (429)", () => {
  test("the refusal page is in the request's language", async () => {
    const limited = makeApp(fullConfig({ providers: fullConfig().providers.slice(0, 1), rateLimit: { enabled: true, credentials: { identifier: { limit: 1, window: 60 } } } }))
    const agent = request.agent(limited)
    const csrf = (await agent.get("/auth/csrf")).body.csrfToken as string
    const post = () => agent.post("/auth/callback/credentials").set("Accept-Language", "ja").type("form").send({ csrfToken: csrf, username: "nobody", password: "x" })
    await post()
    const refused = await post()
    expect(refused.status).toBe(429)
    expect(refused.headers["content-language"]).toBe("ja")
    expect(refused.text).toContain(KNOWN.ja.rateLimited)
    expect(refused.text).toContain('<html lang="ja">')
  })
})

describe("app-supplied messages", () => {
  const custom = makeApp(
    fullConfig({
      messages: {
        de: { "signin.heading": "Einloggen" },
        en: { "signin.with": "Continue with {provider}" },
        "pt-BR": { "signin.heading": "Entrar", "signin.with": "Entrar com {provider}", "signin.or": "ou" },
      },
    }),
  )

  test("override a built-in text and keep the rest", async () => {
    const page = await getPage(custom, "/auth/signin", "de")
    expect(textOf(byTag(page.parsed, "h1")[0]!)).toBe("Einloggen")
    expect(byTag(page.parsed, "button").map((button) => textOf(button))).toContain(KNOWN.de.withGitHub)
    const english = await getPage(custom, "/auth/signin", "en")
    expect(byTag(english.parsed, "button").map((button) => textOf(button))).toContain("Continue with GitHub")
    expect(textOf(byTag(english.parsed, "h1")[0]!)).toBe("Sign in")
  })

  test("add a locale: chosen by the header, English where it has no text", async () => {
    const page = await getPage(custom, "/auth/signin", "pt-BR,pt;q=0.9")
    expectLocale(page, "pt-BR")
    expect(textOf(byTag(page.parsed, "h1")[0]!)).toBe("Entrar")
    expect(byTag(page.parsed, "button").map((button) => textOf(button))).toContain("Entrar com GitHub")
    const signout = await getPage(custom, "/auth/signout", "pt-BR")
    expect(textOf(byTag(signout.parsed, "h1")[0]!)).toBe("Sign out")
  })

  test("provider names and the app's field labels are not translated; built-in labels are", async () => {
    const page = await getPage(custom, "/auth/signin?login_hint=demo", "ja")
    const labels = byTag(page.parsed, "label").map((label) => textOf(label))
    expect(labels).toEqual([BUILT_IN.ja!["signin.field.password"]])
    const named = makeApp(fullConfig({ providers: [credentials({ credentials: { username: { label: "Staff number" }, password: { label: "PIN", type: "password" } } }), GitHub({ clientId: "id", clientSecret: "secret" })] }))
    const single = await getPage(named, "/auth/signin", "ja")
    expect(byTag(single.parsed, "label").map((label) => textOf(label))).toEqual(["Staff number", "PIN"])
    expect(byTag(single.parsed, "button").map((button) => textOf(button))).toEqual(["GitHub でログイン", BUILT_IN.ja!["signin.submit"]])
  })

  test("texts with markup are shown as text, never as markup", async () => {
    const hostile = "<script>alert(1)</script>"
    const app = makeApp(
      fullConfig({
        // No passkey provider: its (legitimate) script element would trip expectNothingActive.
        providers: fullConfig().providers.slice(0, 3),
        messages: {
          en: {
            "signin.heading": hostile,
            "signin.with": '<img src=x onerror=alert(1)> {provider} "><svg onload=alert(1)>',
            "signin.or": hostile,
            "signin.passkey.failed": '"><script>alert(1)</script>',
            "signout.question": hostile,
            "verify.message": hostile,
            "link.home": hostile,
            "error.default.heading": hostile,
            "error.default.message": hostile,
            "signin.error.default": hostile,
          },
        },
      }),
    )
    for (const path of ["/auth/signin?error=x", "/auth/signout", "/auth/verify-request", "/auth/error"]) {
      const page = await getPage(app, path)
      expectNothingActive(page.parsed)
      expect(page.html).not.toContain("<script>alert(1)")
      expect(page.html).not.toContain("<img src=x")
      expect(page.text).toContain(hostile)
    }
    const signin = await getPage(app, "/auth/signin")
    expect(textOf(byTag(signin.parsed, "title")[0]!)).toBe(hostile)
    expect(byTag(signin.parsed, "button").map((button) => textOf(button))).toContain('<img src=x onerror=alert(1)> GitHub "><svg onload=alert(1)>')
  })
})
