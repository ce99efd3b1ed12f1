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
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Express } from "express"
import { jest } from "@jest/globals"
import type { Browser, Page } from "playwright-core"
import { SIGNIN_ERRORS } from "../../lib/pages/messages.js"
import { complaintsOn, launchBrowser, openPage, type Watched } from "./harness.js"

const EXAMPLE_MODULE = "../../examples/oauth/index.js"
const SESSION_COOKIE = "authjs.session-token"
const PROVIDER_BUTTON = "Sign in with Local IdP (demo)"
const E2E_SECRET = "e2e-secret-oauth-4f1d2c3b5a69788796a5b4c3d2e1f0a9"

// oidc-provider's development notices (in-memory adapter, default TTLs, Node.js version) are left
// out of the output; everything else is logged as usual.
const fromOidcProvider = (args: unknown[]) => typeof args[0] === "string" && args[0].startsWith("oidc-provider ")
const originalWarn = console.warn.bind(console)
const originalInfo = console.info.bind(console)
jest.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
  if (!fromOidcProvider(args)) originalWarn(...args)
})
jest.spyOn(console, "info").mockImplementation((...args: unknown[]) => {
  if (!fromOidcProvider(args)) originalInfo(...args)
})

// The app's port is chosen before the example is imported: the example registers
// <origin>/auth/callback/local as the redirect URI at the IdP it starts.
const site: { app?: Express } = {}
const server: Server = createServer((req, res) => site.app!(req, res))
await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

// The example reads its configuration from the environment when it is imported; what this file
// sets is put back afterwards.
const ENV = {
  PORT: String((server.address() as AddressInfo).port),
  LOCAL_IDP: "1",
  LOCAL_IDP_PORT: "0",
  AUTH_SECRET: E2E_SECRET,
  AUTH_GITHUB_ID: undefined,
  AUTH_GITHUB_SECRET: undefined,
  AUTH_GOOGLE_ID: undefined,
  AUTH_GOOGLE_SECRET: undefined,
  AUTH_URL: undefined,
}
const saved = Object.fromEntries(Object.keys(ENV).map((name) => [name, process.env[name]]))
for (const [name, value] of Object.entries(ENV)) {
  if (value === undefined) delete process.env[name]
  else process.env[name] = value
}
let example: { app: Express; localIdp: { issuer: string; close(): Promise<void> } }
try {
  example = (await import(EXAMPLE_MODULE)) as typeof example
} finally {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
}
site.app = example.app
const idp = example.localIdp

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
  await new Promise<void>((closed) => {
    server.closeAllConnections()
    server.close(() => closed())
  })
  await idp?.close()
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

const atIdpLogin = (url: URL) => url.origin === idp.issuer && /^\/interaction\/[^/]+$/.test(url.pathname)

/**
 * /profile, signed out → the built-in sign-in page → the local provider's button → the IdP's
 * login page. Returns the sign-in page's URL.
 */
async function toIdpLogin(page: Page): Promise<URL> {
  await page.goto(`${origin}/profile`)
  await page.waitForURL((url) => url.origin === origin && url.pathname === "/auth/signin")
  const signin = new URL(page.url())
  expect(signin.searchParams.get("callbackUrl")).toBe(`${origin}/profile`)
  await page.getByRole("button", { name: PROVIDER_BUTTON }).click()
  await page.waitForURL(atIdpLogin)
  await page.getByRole("heading", { name: "Local IdP" }).waitFor()
  return signin
}

/** Types `password` for demo at the IdP's login page and submits it. */
async function logInAtIdp(page: Page, password: string) {
  await page.getByLabel("Username").fill("demo")
  await page.getByLabel("Password").fill(password)
  await page.getByRole("button", { name: "Sign in" }).click()
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
