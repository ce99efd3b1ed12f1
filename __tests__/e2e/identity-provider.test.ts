/**
 * Gatehouse as an identity provider in real Chromium (issue #32). A second app (a small Express
 * app on a port and host of its own, http://localhost:<port>, a confidential OpenID Connect client
 * built with openid-client: authorization code with PKCE and state) signs a person in through
 * Gatehouse (http://127.0.0.1:<port>, `oidcProvider`, the password provider, two-step
 * verification):
 * 1. "Sign in with Gatehouse" on the second app -> Gatehouse's sign-in page -> the password -> the
 *    two-step code page -> the code an authenticator app shows -> the consent page (the app's
 *    name, what it asks for) -> Allow -> the second app shows who signed in.
 * 2. Signing in from the second app again: no consent page (remembered), straight back.
 * 3. The account page lists the second app under "Connected apps"; Revoke; the next sign-in from
 *    the second app asks consent again.
 * 4. The device flow: a CLI starts it with plain HTTP, the person types the code on `<issuer>/device`,
 *    confirms, allows; the CLI's polling then gets tokens.
 * Sign-in, two-step, consent, device and connected-apps pages are photographed (1280x800 and
 * 390x844, light and dark) and checked with axe-core (WCAG 2.2 AA); no page of either site logs
 * an error or breaks its Content-Security-Policy.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { randomBytes } from "node:crypto"
import express from "express"
import * as client from "openid-client"
import type { Browser, Page, Response as PageResponse } from "playwright-core"
import { authRouter, authSession } from "../../lib/index.js"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import Password, { hashPassword } from "../../lib/providers/password.js"
import type { AuthConfig } from "../../lib/types.js"
import { codeAt } from "../../lib/two-factor/totp.js"
import { complaintsOn, launchBrowser, openPage, type Watched } from "./harness.js"
import { describeGallery, galleryShot, screenshot, VIEWPORTS } from "./support/gallery.js"

const PERSON = { id: "user-ida", email: "ida.idp@example.test", name: "Ida Provider", password: "ida long passphrase 32" }
const SECOND_APP = { id: "second-app", name: "Second App", secret: randomBytes(24).toString("hex") }
const CLI = "cli"
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
const JOURNEY_MS = 120_000

/** Starts an Express app on 127.0.0.1 and a free port. */
async function listen(handler: express.Express): Promise<{ server: Server; port: number }> {
  const server = createServer(handler)
  await new Promise<void>((resolve, reject) => server.listen(0, "127.0.0.1", resolve).once("error", reject))
  return { server, port: (server.address() as AddressInfo).port }
}

function stop(server: Server | undefined): Promise<void> {
  if (!server) return Promise.resolve()
  return new Promise<void>((closed) => {
    server.closeAllConnections()
    server.close(() => closed())
  })
}

function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? "").split(";")) {
    const at = pair.indexOf("=")
    if (at > 0 && pair.slice(0, at).trim() === name) return decodeURIComponent(pair.slice(at + 1).trim())
  }
  return undefined
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function secondAppPage(body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${SECOND_APP.name}</title></head><body><main><h1>${SECOND_APP.name}</h1>${body}</main></body></html>`
}

/**
 * The second app: `/` with a "Sign in with Gatehouse" link, `/login` (the authorization URL with
 * PKCE and state; the verifier and state kept in a cookie of its own, as a server-side session
 * would), `/callback` (the code redeemed at Gatehouse's token endpoint, the user from userinfo).
 */
function secondApp(site: { origin: string; issuer: string }): express.Express {
  const app = express()
  const pending = new Map<string, { verifier: string; state: string }>()
  let discovered: Promise<client.Configuration> | undefined
  const configuration = () => (discovered ??= client.discovery(new URL(site.issuer), SECOND_APP.id, SECOND_APP.secret, undefined, { execute: [client.allowInsecureRequests] }))
  app.get("/", (_req, res) => {
    res.type("html").send(secondAppPage(`<p id="who">Signed out.</p><p><a href="/login" id="sign-in">Sign in with Gatehouse</a></p>`))
  })
  app.get("/login", async (_req, res, next) => {
    try {
      const config = await configuration()
      const verifier = client.randomPKCECodeVerifier()
      const state = client.randomState()
      const login = randomBytes(16).toString("hex")
      pending.set(login, { verifier, state })
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: `${site.origin}/callback`,
        scope: "openid email profile",
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
      })
      res.setHeader("Set-Cookie", `second-app.login=${login}; Path=/; HttpOnly; SameSite=Lax`)
      res.redirect(url.href)
    } catch (error) {
      next(error)
    }
  })
  app.get("/callback", async (req, res) => {
    const login = cookieOf(req.headers.cookie, "second-app.login")
    const started = login ? pending.get(login) : undefined
    if (!login || !started) {
      res.status(400).type("html").send(secondAppPage(`<p id="error">No sign-in was started in this browser.</p>`))
      return
    }
    pending.delete(login)
    try {
      const config = await configuration()
      const tokens = await client.authorizationCodeGrant(config, new URL(req.originalUrl, site.origin), { pkceCodeVerifier: started.verifier, expectedState: started.state })
      const claims = tokens.claims()
      if (!claims) throw new Error("no ID token")
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub)
      res.type("html").send(secondAppPage(`<p id="who">Signed in as ${escapeHtml(String(info.email))}</p>`))
    } catch (error) {
      res.status(502).type("html").send(secondAppPage(`<p id="error">${escapeHtml(error instanceof Error ? `${error.name}: ${error.message}` : String(error))}</p>`))
    }
  })
  return app
}

let browser: Browser
let gatehouse: Server | undefined
let second: Server | undefined
/** http://127.0.0.1:<port> */
let origin = ""
let issuer = ""
/** http://localhost:<port>: another site than Gatehouse's. */
let secondOrigin = ""
let totpSecret = ""
/** The person's browser, kept from one step of the journey to the next. */
let person: Watched

const adapter = MemoryAdapter()

beforeAll(async () => {
  const site = { origin: "", issuer: "" }
  const rp = await listen(secondApp(site))
  second = rp.server
  secondOrigin = site.origin = `http://localhost:${rp.port}`

  const config: AuthConfig = {
    secret: "e2e-secret-identity-provider-3c1d5e7f9a2b4c6d8e0f",
    adapter,
    providers: [Password({ sendMail: async () => undefined })],
    twoFactor: { issuer: "Gatehouse E2E" },
    oidcProvider: {
      clients: [
        { client_id: SECOND_APP.id, client_secret: SECOND_APP.secret, client_name: SECOND_APP.name, redirect_uris: [`${secondOrigin}/callback`] },
        { client_id: CLI, token_endpoint_auth_method: "none", client_name: "Command Line", grant_types: [DEVICE_GRANT, "refresh_token"], redirect_uris: [], response_types: [] },
      ],
    },
    theme: { appName: "Gatehouse" },
    logLevel: "silent",
    rateLimit: false,
  }
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  const op = await listen(app)
  gatehouse = op.server
  origin = `http://127.0.0.1:${op.port}`
  issuer = site.issuer = `${origin}/auth/oidc`

  const user = await adapter.createUser!({ id: PERSON.id, email: PERSON.email, name: PERSON.name, emailVerified: new Date() })
  await adapter.setPasswordHash!(user.id, await hashPassword(PERSON.password))
  await adapter.linkAccount!({ userId: user.id, type: "credentials", provider: "password", providerAccountId: user.id } as unknown as Parameters<NonNullable<typeof adapter.linkAccount>>[0])

  browser = await launchBrowser()
  // Two-step verification turned on beforehand, as the person would on the setup page (another browser).
  const setup = await openPage(browser, { locale: "en-US" })
  try {
    await signInOnPage(setup.page, `${origin}/auth/two-factor/setup`, (url) => url.pathname === "/auth/two-factor/setup")
    totpSecret = ((await setup.page.locator("#two-factor-secret").textContent()) ?? "").replace(/\s/g, "")
    await setup.page.getByLabel("Code your app shows now").fill(await currentCode(totpSecret))
    await setup.page.getByRole("button", { name: "Turn on" }).click()
    await setup.page.locator("#recovery-codes").waitFor()
  } finally {
    await setup.context.close()
  }
  person = await openPage(browser, { locale: "en-US" })
}, JOURNEY_MS)

afterAll(async () => {
  await person?.context.close()
  await browser?.close()
  await stop(gatehouse)
  await stop(second)
})

/** A code computed away from a step's edge, so the server checks it in the same step. */
async function currentCode(secret: string, steps = 0): Promise<string> {
  const into = Date.now() % 30_000
  if (into > 27_000) await new Promise((resume) => setTimeout(resume, 30_200 - into))
  return codeAt(secret, Date.now() + steps * 30_000)
}

/** Gatehouse's sign-in page, coming back to `back`: email, password, Sign in. */
async function signInOnPage(page: Page, back: string, landed: (url: URL) => boolean): Promise<void> {
  await page.goto(`${origin}/auth/signin?${new URLSearchParams({ callbackUrl: back })}`)
  await fillSignIn(page, landed)
}

async function fillSignIn(page: Page, landed: (url: URL) => boolean): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(PERSON.email)
  await page.getByLabel("Password", { exact: true }).fill(PERSON.password)
  await Promise.all([page.waitForURL(landed), page.getByRole("button", { name: "Sign in", exact: true }).click()])
}

/** The Gatehouse pages checked with axe, by name: compared at the end of each step so every page is told. */
const accessibility: Record<string, string> = {}
async function gallery(page: Page, name: string): Promise<void> {
  const found = describeGallery(await galleryShot(page, name))
  if (found) accessibility[name] = found
}

/** The second app's page, photographed like Gatehouse's (it is not Gatehouse's to check with axe). */
async function photograph(page: Page, name: string): Promise<void> {
  for (const viewport of Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>) {
    for (const scheme of ["light", "dark"] as const) await screenshot(page, name, viewport, scheme)
  }
  await page.setViewportSize(VIEWPORTS.desktop)
  await page.emulateMedia({ colorScheme: "light" })
}

/** Records every document the browser is shown with status 200 at Gatehouse's interaction path (the consent page) until `stop`. */
function watchConsentPages(page: Page): { shown: string[]; stop(): void } {
  const shown: string[] = []
  const listener = (response: PageResponse) => {
    if (response.request().isNavigationRequest() && response.status() === 200 && new URL(response.url()).pathname.startsWith("/auth/oidc-interaction/")) shown.push(response.url())
  }
  page.on("response", listener)
  return { shown, stop: () => page.off("response", listener) }
}

const atSecondApp = (path: string) => (url: URL) => url.origin === secondOrigin && url.pathname === path
const consent = (page: Page) => page.locator("#oidc-consent-heading")

function expectClean(): void {
  expect(accessibility).toEqual({})
  for (const site of [origin, secondOrigin]) expect(complaintsOn(person, site)).toEqual({ consoleErrors: [], violations: [], pageErrors: [], dialogs: [] })
}

test(
  "the second app signs the person in through Gatehouse: password, two-step code, consent, back with their email",
  async () => {
    const { page } = person
    await page.goto(secondOrigin)
    await Promise.all([page.waitForURL((url) => url.origin === origin && url.pathname === "/auth/signin"), page.getByRole("link", { name: "Sign in with Gatehouse" }).click()])
    await gallery(page, "identity-provider-signin")

    await fillSignIn(page, (url) => url.origin === origin && url.pathname === "/auth/two-factor")
    expect(await page.locator("h1").innerText()).toBe("Two-step verification")
    await gallery(page, "identity-provider-two-factor")

    // The next step's code: the one of the step two-step verification was turned on in is spent.
    await page.getByLabel("Code", { exact: true }).fill(await currentCode(totpSecret, 1))
    await Promise.all([page.waitForURL((url) => url.origin === origin && url.pathname.startsWith("/auth/oidc-interaction/")), page.getByRole("button", { name: "Verify" }).click()])
    expect(await consent(page).innerText()).toBe(`${SECOND_APP.name} wants to access your account`)
    expect(await page.locator("#oidc-consent-user").innerText()).toContain(PERSON.email)
    expect(await page.locator("#oidc-consent-scopes li").allInnerTexts()).toEqual(expect.arrayContaining(["Know who you are", "See your email address", "See your name and picture"]))
    await gallery(page, "identity-provider-consent")

    await Promise.all([page.waitForURL(atSecondApp("/callback")), page.getByRole("button", { name: "Allow" }).click()])
    expect(await page.locator("#who").innerText()).toBe(`Signed in as ${PERSON.email}`)
    await photograph(page, "identity-provider-second-app")
    expectClean()
  },
  JOURNEY_MS,
)

test("signing in from the second app again: no consent page, straight back", async () => {
  const { page } = person
  const consentPages = watchConsentPages(page)
  await page.goto(secondOrigin)
  await Promise.all([page.waitForURL(atSecondApp("/callback")), page.getByRole("link", { name: "Sign in with Gatehouse" }).click()])
  consentPages.stop()
  expect(await page.locator("#who").innerText()).toBe(`Signed in as ${PERSON.email}`)
  expect(consentPages.shown).toEqual([])
  expectClean()
})

test(
  "the account page lists the second app under Connected apps; revoked, the next sign-in asks consent again",
  async () => {
    const { page } = person
    await page.goto(`${origin}/auth/account`)
    const section = page.locator("#connected-apps")
    expect(await section.getByRole("heading", { level: 2 }).innerText()).toBe("Connected apps")
    expect(await section.locator("#connected-apps-list h3").allInnerTexts()).toEqual([SECOND_APP.name])
    expect((await section.locator("#connected-app-0-access li").allInnerTexts()).sort()).toEqual(["Know who you are", "See your email address", "See your name and picture"])
    await gallery(page, "identity-provider-connected-apps")

    await Promise.all([page.waitForURL((url) => url.searchParams.get("saved") === "app-revoked"), section.getByRole("button", { name: `Revoke access of ${SECOND_APP.name}` }).click()])
    expect(await page.locator("#connected-apps-status").innerText()).toBe("The app's access was revoked.")
    expect(await page.locator("#connected-apps-none").innerText()).toBe("No apps yet.")
    expect(await page.locator("#connected-apps-list").count()).toBe(0)
    await gallery(page, "identity-provider-connected-apps-revoked")

    // Still signed in to Gatehouse: no sign-in page, but the consent page again.
    const consentPages = watchConsentPages(page)
    await page.goto(secondOrigin)
    await Promise.all([page.waitForURL((url) => url.origin === origin && url.pathname.startsWith("/auth/oidc-interaction/")), page.getByRole("link", { name: "Sign in with Gatehouse" }).click()])
    consentPages.stop()
    expect(consentPages.shown).toHaveLength(1)
    expect(await consent(page).innerText()).toBe(`${SECOND_APP.name} wants to access your account`)
    await Promise.all([page.waitForURL(atSecondApp("/callback")), page.getByRole("button", { name: "Allow" }).click()])
    expect(await page.locator("#who").innerText()).toBe(`Signed in as ${PERSON.email}`)
    expectClean()
  },
  JOURNEY_MS,
)

interface DeviceAuthorization {
  device_code: string
  user_code: string
  verification_uri: string
  verification_uri_complete: string
  interval: number
}

async function pollToken(deviceCode: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: CLI }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

test(
  "the device flow: a CLI starts it, the person types the code on the device page, confirms and allows; the CLI gets tokens",
  async () => {
    const started = await fetch(`${issuer}/device/auth`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ client_id: CLI, scope: "openid email offline_access" }),
    })
    expect(started.status).toBe(200)
    const device = (await started.json()) as DeviceAuthorization
    expect(device.verification_uri).toBe(`${issuer}/device`)
    const waiting = await pollToken(device.device_code)
    expect({ status: waiting.status, error: waiting.body.error }).toEqual({ status: 400, error: "authorization_pending" })

    const { page } = person
    await page.goto(device.verification_uri)
    expect(await page.locator("h1").innerText()).toBe("Connect a device")
    await page.getByLabel("Code", { exact: true }).fill(device.user_code)
    await gallery(page, "identity-provider-device-code")
    await Promise.all([page.locator("#oidc-device-confirm-heading").waitFor(), page.getByRole("button", { name: "Continue" }).click()])
    expect(await page.locator("#oidc-device-confirm-intro").innerText()).toBe("Command Line wants to use your account on a device.")
    expect(await page.locator("#oidc-device-confirm-code").innerText()).toBe(device.user_code)
    await gallery(page, "identity-provider-device-confirm")

    await Promise.all([page.waitForURL((url) => url.origin === origin && url.pathname.startsWith("/auth/oidc-interaction/")), page.getByRole("button", { name: "Yes, connect the device" }).click()])
    expect(await consent(page).innerText()).toBe("Command Line wants to access your account")
    await gallery(page, "identity-provider-device-consent")
    await Promise.all([page.locator("#oidc-device-done-heading").waitFor(), page.getByRole("button", { name: "Allow" }).click()])
    expect(await page.locator("#oidc-device-done-heading").innerText()).toBe("Device connected")
    await gallery(page, "identity-provider-device-done")

    const tokens = await pollToken(device.device_code)
    expect(tokens.status).toBe(200)
    expect(tokens.body).toEqual(expect.objectContaining({ token_type: "Bearer", access_token: expect.any(String), id_token: expect.any(String), refresh_token: expect.any(String) }))
    const userinfo = await fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${String(tokens.body.access_token)}` } })
    expect(((await userinfo.json()) as { email?: string }).email).toBe(PERSON.email)
    expectClean()
  },
  JOURNEY_MS,
)
