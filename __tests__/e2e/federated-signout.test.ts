/**
 * Issue #17, federated sign-out in real Chromium: the OAuth example with its local OpenID
 * provider and `federatedSignOut` on (FEDERATED_SIGNOUT=1). Signed in at the IdP's login page,
 * the user signs out of the app; the browser goes to the IdP's end_session page (RP-Initiated
 * Logout, with id_token_hint), confirms there, and comes back to the app's home page signed out.
 * The IdP's session is over too: signing in again shows the IdP's login form, not an immediate
 * return. (Without federatedSignOut, e2e/oauth.test.ts signs out of the app only.)
 */
import { jest } from "@jest/globals"
import type { Browser } from "playwright-core"
import { complaintsOn, launchBrowser, openPage, type Watched } from "./harness.js"
import { PROVIDER_BUTTON, SESSION_COOKIE, startOAuthExample } from "./support/oauth-example.js"

const example = await startOAuthExample({ FEDERATED_SIGNOUT: "1" })
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

describe("federated sign-out in the browser (examples/oauth, local OpenID provider)", () => {
  test("sign-out ends the IdP session: end_session page, back to the app, and the next sign-in asks for the password again", async () => {
    const watched = await newPage()
    const { page } = watched
    await toIdpLogin(page)
    await logInAtIdp(page, "demo")
    await page.waitForURL(`${origin}/profile`)
    expect(await sessionCookie(watched)).toBeDefined()

    await page.goto(`${origin}/`)
    await page.getByRole("link", { name: "Sign out" }).click()
    await page.waitForURL(`${origin}/auth/signout`)
    await page.getByRole("button", { name: "Sign out" }).click()
    // At the IdP: its sign-out question, reached with an id_token_hint and this client's id.
    await page.waitForURL((url) => url.origin === idp.issuer)
    await page.getByText("Sign out of the Local IdP too?").waitFor()
    expect(await sessionCookie(watched)).toBeUndefined()
    await page.getByRole("button", { name: "Yes, sign me out" }).click()
    await page.waitForURL(`${origin}/`)
    await page.getByRole("link", { name: "Sign in" }).first().waitFor()
    expect(await sessionCookie(watched)).toBeUndefined()

    // Signing in again: the IdP shows its login form (its session ended), and demo/demo works.
    await toIdpLogin(page)
    await page.getByLabel("Password").waitFor()
    await logInAtIdp(page, "demo")
    await page.waitForURL(`${origin}/profile`)
    expect(await page.locator("pre").innerText()).toContain("demo@example.com")
    expectClean(watched)
  })

  test("the IdP session survives a sign-out that is not federated: control (a second sign-in in the same browser needs no password)", async () => {
    const watched = await newPage()
    const { page } = watched
    await toIdpLogin(page)
    await logInAtIdp(page, "demo")
    await page.waitForURL(`${origin}/profile`)
    // The app's cookie alone is dropped (as a sign-out that never reaches the IdP would).
    await watched.context.clearCookies({ name: SESSION_COOKIE })
    await page.goto(`${origin}/profile`)
    await page.waitForURL((url) => url.pathname === "/auth/signin")
    await page.getByRole("button", { name: PROVIDER_BUTTON }).click()
    await page.waitForURL(`${origin}/profile`)
    expectClean(watched)
  })
})
