/**
 * The OAuth example (examples/oauth) in its local-IdP mode, in real Chromium: a signed-out browser
 * opens the protected /profile, lands on the built-in sign-in page, clicks the local provider's
 * button, signs in at the local OpenID provider's login page (oidc-provider, another port) with
 * demo/demo (consent for the example's own client is granted by the IdP itself, so no consent
 * page appears) and ends on /profile signed in, then signs out through the confirmation page. A
 * wrong password stays at the IdP; cancelling there returns to the sign-in page with the
 * OAuthCallbackError message, signed out.
 *
 * Only Gatehouse's own origin is judged for console errors and CSP violations: the IdP's pages
 * (its 401 for the wrong password, its missing favicon) are not ours.
 */
import { jest } from "@jest/globals"
import type { Browser } from "playwright-core"
import { SIGNIN_ERRORS } from "../../lib/core/error-messages.js"
import { complaintsOn, launchBrowser, openPage, type Watched } from "./harness.js"
import { PROVIDER_BUTTON, SESSION_COOKIE, startOAuthExample } from "./support/oauth-example.js"

const example = await startOAuthExample()
const { origin, idp, toIdpLogin, logInAtIdp } = example

let browser: Browser
const open: Watched[] = []

beforeAll(async () => {
  browser = await launchBrowser()
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((watched) => watched.context.close()))
})

afterAll(async () => {
  await browser?.close()
  await example.close()
  jest.restoreAllMocks()
})

async function newPage(): Promise<Watched> {
  const watched = await openPage(browser)
  open.push(watched)
  return watched
}

/** No console error, CSP violation, page error or dialog on Gatehouse's origin. */
function expectClean(watched: Watched) {
  const ours = complaintsOn(watched, origin)
  expect(ours.consoleErrors).toEqual([])
  expect(ours.violations).toEqual([])
  expect(ours.pageErrors).toEqual([])
  expect(ours.dialogs).toEqual([])
}

async function sessionCookie(watched: Watched) {
  return (await watched.context.cookies(origin)).find((cookie) => cookie.name === SESSION_COOKIE)
}

describe("examples/oauth in the browser (local OpenID provider)", () => {
  test("the sign-in page offers the local provider only, cleanly", async () => {
    const watched = await newPage()
    const { page } = watched
    const response = await page.goto(`${origin}/auth/signin`)
    expect(response!.status()).toBe(200)
    expect(response!.headers()["content-security-policy"]).toContain("default-src 'none'")
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor()
    expect(await page.getByRole("button").allInnerTexts()).toEqual([PROVIDER_BUTTON])
    expectClean(watched)
  })

  test("protected page → sign-in page → IdP login with demo/demo → back on /profile signed in; then sign-out", async () => {
    const watched = await newPage()
    const { page } = watched
    await toIdpLogin(page)
    expect(await sessionCookie(watched)).toBeUndefined()

    await logInAtIdp(page, "demo")
    await page.waitForURL(`${origin}/profile`)
    await page.getByRole("heading", { name: "Profile" }).waitFor()
    const profile = JSON.parse(await page.locator("pre").innerText()) as { provider?: string; user?: { name?: string; email?: string } }
    expect(profile).toMatchObject({ provider: "local", user: { name: "Demo User", email: "demo@example.com" } })
    expect(await sessionCookie(watched)).toMatchObject({ httpOnly: true, sameSite: "Lax" })

    await page.goto(`${origin}/`)
    await page.getByRole("heading", { name: "Hello, Demo User" }).waitFor()
    expect(await page.locator("body").innerText()).toContain("Signed in with local as demo@example.com.")

    // Sign out through the home page's link and the confirmation page.
    await page.getByRole("link", { name: "Sign out" }).click()
    await page.waitForURL(`${origin}/auth/signout`)
    const before = page.url()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL((url) => url.href !== before)
    expect(new URL(page.url()).origin).toBe(origin)
    expect(new URL(page.url()).searchParams.get("error")).toBeNull()
    expect(await sessionCookie(watched)).toBeUndefined()

    await page.goto(`${origin}/profile`)
    await page.waitForURL((url) => url.pathname === "/auth/signin")
    await page.getByRole("button", { name: PROVIDER_BUTTON }).waitFor()
    expectClean(watched)
  })

  test("a wrong password stays at the IdP's login page; the right one then signs in", async () => {
    const watched = await newPage()
    const { page } = watched
    await toIdpLogin(page)

    await logInAtIdp(page, "not-the-password")
    await page.waitForURL((url) => url.origin === idp.issuer && url.pathname.endsWith("/login"))
    expect((await page.getByRole("alert").innerText()).trim()).toBe("Wrong username or password.")
    expect(await sessionCookie(watched)).toBeUndefined()

    await logInAtIdp(page, "demo")
    await page.waitForURL(`${origin}/profile`)
    await page.getByRole("heading", { name: "Profile" }).waitFor()
    expect(await page.locator("pre").innerText()).toContain("demo@example.com")
    expectClean(watched)
  })

  test("cancelling at the IdP returns to the sign-in page with the OAuthCallbackError message, signed out", async () => {
    const watched = await newPage()
    const { page } = watched
    await toIdpLogin(page)

    await page.getByRole("link", { name: "Cancel" }).click()
    await page.waitForURL((url) => url.origin === origin && url.pathname === "/auth/signin" && url.searchParams.has("error"))
    const landed = new URL(page.url())
    expect(landed.searchParams.get("error")).toBe("OAuthCallbackError")
    expect((await page.getByRole("alert").innerText()).trim()).toBe(SIGNIN_ERRORS.OAuthCallbackError)
    // The provider's button is still there to try again, and nobody is signed in.
    await page.getByRole("button", { name: PROVIDER_BUTTON }).waitFor()
    expect(await sessionCookie(watched)).toBeUndefined()
    const me = await watched.context.request.get(`${origin}/profile`, { headers: { accept: "application/json" }, maxRedirects: 0 })
    expect(me.status()).toBe(401)
    expectClean(watched)
  })
})
