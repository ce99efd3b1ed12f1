/**
 * The built-in pages in the browser's language, against examples/basic (`locale` left at "auto"):
 * a Chromium context with `locale: "de-DE"` (which sets its Accept-Language) gets the sign-in,
 * sign-out, verify-request and error pages in German, one with `ja-JP` in Japanese, with
 * `<html lang>`, Content-Language and `Vary: Accept-Language` to match; the messages the sign-in
 * page shows (a refused password, and the passkey script's own failure text) are translated too;
 * an `en-US` context gets English. Every page is clean: no console error, no CSP violation.
 */
import type { Browser, Page, Response } from "playwright-core"
import { de } from "../../lib/i18n/de.js"
import { en, type CoreMessages } from "../../lib/i18n/en.js"
import { ja } from "../../lib/i18n/ja.js"
import { isFaviconNoise, isStatusLineFor, launchBrowser, openPage, signInWithoutForm, startExample, type ExampleServer, type Watched } from "./harness.js"

/** The example's credentials provider, as it names it: no longer on its (lone) form's button (issue #26). */
const CREDENTIALS = "username and password"
const SESSION_COOKIE = "authjs.session-token"

let server: ExampleServer
let browser: Browser
let origin: string
const open: Watched[] = []

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startExample(), launchBrowser()])
  origin = server.origin
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((watched) => watched.context.close()))
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function newPage(locale: string): Promise<Watched> {
  const watched = await openPage(browser, { locale })
  open.push(watched)
  return watched
}

/** No console error (but the favicon, and `allowed` ones), CSP violation, page error or dialog. */
function expectClean(watched: Watched, allowed: (entry: Watched["consoleErrors"][number]) => boolean = () => false) {
  expect(watched.consoleErrors.filter((entry) => !isFaviconNoise(entry) && !allowed(entry))).toEqual([])
  expect(watched.violations).toEqual([])
  expect(watched.pageErrors).toEqual([])
  expect(watched.dialogs).toEqual([])
}

/** The document's language and the headers that announce it. */
async function language(page: Page, response: Response | null) {
  const headers = response!.headers()
  return {
    lang: await page.evaluate(() => document.documentElement.lang),
    contentLanguage: headers["content-language"],
    varies: (headers.vary ?? "").split(",").some((name) => name.trim().toLowerCase() === "accept-language"),
  }
}

const heading = async (page: Page) => (await page.getByRole("heading", { level: 1 }).innerText()).trim()

const LANGUAGES: Array<{ name: string; locale: string; tag: string; t: CoreMessages }> = [
  { name: "German", locale: "de-DE", tag: "de", t: de },
  { name: "Japanese", locale: "ja-JP", tag: "ja", t: ja },
]

describe.each(LANGUAGES)("a browser in $locale gets the built-in pages in $name", ({ locale, tag, t }) => {
  test("the sign-in page the protected page redirects to: lang, title, heading, buttons (passkey form first), labels", async () => {
    const watched = await newPage(locale)
    const { page } = watched
    expect(await page.evaluate(() => navigator.language)).toBe(locale)
    let signin: Response | null = null
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/auth/signin") signin = response
    })
    await page.goto(`${origin}/dashboard`)
    await page.waitForURL((url) => url.pathname === "/auth/signin")
    await page.getByRole("heading", { level: 1 }).waitFor()
    // The request carried the context's language.
    expect(await signin!.request().headerValue("accept-language")).toMatch(new RegExp(`^${locale}\\b`))
    expect(await language(page, signin)).toEqual({ lang: tag, contentLanguage: tag, varies: true })
    expect(await page.title()).toBe(t["signin.heading"])
    expect(await heading(page)).toBe(t["signin.heading"])
    // Step one (issue #26): one field, Continue, the passkey (its built-in name translated).
    expect(await page.getByRole("button").allInnerTexts()).toEqual([t["signin.continue"], t["signin.passkey.button"]])
    expect(await page.getByLabel(t["signin.identifier.either"], { exact: true }).count()).toBe(1)
    // Step two for an address: every button and label in the language, none of "Mit username and password anmelden".
    await page.getByLabel(t["signin.identifier.either"], { exact: true }).fill("ada@example.com")
    await Promise.all([page.waitForURL((url) => url.searchParams.get("login_hint") === "ada@example.com"), page.getByRole("button", { name: t["signin.continue"] }).click()])
    expect(await page.getByRole("button").allInnerTexts()).toEqual([t["signin.passkey.button"], t["signin.email.buttonCode"], t["signin.submit"], t["signin.passkey.create.emailButton"]])
    expect(await page.locator("label").allInnerTexts()).toEqual([t["signin.field.password"]])
    expect(await page.locator("body").innerText()).not.toContain(CREDENTIALS)
    expect(await page.locator("body").innerText()).toContain(t["signin.or"])
    expect(await page.locator("body").innerText()).not.toContain(en["signin.heading"])
    expectClean(watched)
  })

  test("a refused password: the message on the sign-in page is translated", async () => {
    const watched = await newPage(locale)
    const { page } = watched
    await page.goto(`${origin}/auth/signin?login_hint=demo`)
    await page.getByLabel(t["signin.field.password"], { exact: true }).fill("not-the-password")
    const before = page.url()
    await page.getByRole("button", { name: t["signin.submit"], exact: true }).click()
    await page.waitForURL((url) => url.href !== before)
    expect(new URL(page.url()).searchParams.get("error")).toBe("CredentialsSignin")
    expect((await page.getByRole("alert").innerText()).trim()).toBe(t["signin.error.CredentialsSignin"])
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(tag)
    expectClean(watched)
  })

  test("the passkey script's own failure text is in the page's language (a passkey cannot work on http://127.0.0.1)", async () => {
    const watched = await newPage(locale)
    const { page } = watched
    await page.goto(`${origin}/auth/signin`)
    await page.getByRole("heading", { level: 1 }).waitFor()
    await page.getByRole("button", { name: t["signin.passkey.button"] }).click()
    const alert = page.getByRole("alert")
    await alert.waitFor()
    expect((await alert.innerText()).trim()).toBe(t["signin.passkey.failed"])
    expect(new URL(page.url()).pathname).toBe("/auth/signin")
    expectClean(watched)
  })

  test("the sign-out page, and signing out with its translated button", async () => {
    const watched = await newPage(locale)
    const { page } = watched
    await signInWithoutForm(watched, origin)
    const response = await page.goto(`${origin}/auth/signout`)
    expect(await language(page, response)).toEqual({ lang: tag, contentLanguage: tag, varies: true })
    expect(await heading(page)).toBe(t["signout.heading"])
    expect(await page.locator("body").innerText()).toContain(t["signout.question"])
    const before = page.url()
    await page.getByRole("button", { name: t["signout.button"], exact: true }).click()
    await page.waitForURL((url) => url.href !== before)
    expect((await watched.context.cookies(origin)).some((cookie) => cookie.name === SESSION_COOKIE)).toBe(false)
    expectClean(watched)
  })

  test("the verify-request and error pages", async () => {
    const watched = await newPage(locale)
    const { page } = watched
    const verify = await page.goto(`${origin}/auth/verify-request`)
    expect(await language(page, verify)).toEqual({ lang: tag, contentLanguage: tag, varies: true })
    expect(await heading(page)).toBe(t["verify.heading"])
    expect(await page.locator("body").innerText()).toContain(t["verify.message"])
    expectClean(watched)

    watched.reset()
    const url = `${origin}/auth/error?error=Verification`
    const error = await page.goto(url)
    expect(error!.status()).toBe(403)
    expect(await language(page, error)).toEqual({ lang: tag, contentLanguage: tag, varies: true })
    expect(await heading(page)).toBe(t["error.Verification.heading"])
    expect(await page.title()).toBe(t["error.Verification.heading"])
    expect(await page.locator("body").innerText()).toContain(t["error.Verification.message"])
    // Chromium logs the document's 403 as a "Failed to load resource" line: the status, not a page error.
    expectClean(watched, (entry) => isStatusLineFor(entry, url, 403))
  })
})

test("a browser in en-US gets English (control)", async () => {
  const watched = await newPage("en-US")
  const { page } = watched
  const response = await page.goto(`${origin}/auth/signin`)
  expect(await language(page, response)).toEqual({ lang: "en", contentLanguage: "en", varies: true })
  expect(await heading(page)).toBe(en["signin.heading"])
  expect(await page.getByRole("button").allInnerTexts()).toEqual([en["signin.continue"], en["signin.passkey.button"]])
  expectClean(watched)
})
