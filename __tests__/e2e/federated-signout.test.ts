/**
 * Issue #17, federated sign-out in real Chromium: the OAuth example with its local OpenID
 * provider and `federatedSignOut` on (FEDERATED_SIGNOUT=1). Signed in at the IdP's login page,
 * the user signs out of the app; the browser goes to the IdP's end_session page (RP-Initiated
 * Logout, with id_token_hint), confirms there, and comes back to the app's home page signed out.
 * The IdP's session is over too: signing in again shows the IdP's login form, not an immediate
 * return. (Without federatedSignOut, e2e/oauth.test.ts signs out of the app only.)
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Express } from "express"
import { jest } from "@jest/globals"
import type { Browser, Page } from "playwright-core"
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
  FEDERATED_SIGNOUT: "1",
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
