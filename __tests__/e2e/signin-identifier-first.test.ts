/**
 * Identifier-first sign-in in real Chromium (issue #26), against an app built here with the
 * router: GitHub (a button only), password accounts with sign-up, magic links and codes, and
 * passkeys, users in memory, on http://localhost (passkeys need a host name). Step one is one
 * field and "Continue"; step two offers what that identifier can use. Journeys: a password
 * sign-in (keyboard only), the link from the mail, a passkey (Chromium's virtual authenticator),
 * "Last used" after a sign-in, a wrong password told beside its field with the address kept, and
 * an app with one method whose page stays one step. Each step is screenshotted for the gallery
 * and checked with axe-core (WCAG 2.2 AA, light and dark); no page logs an error or breaks the CSP.
 */
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import type { Browser, Page } from "playwright-core"
import { authRouter, authSession, requireAuth } from "gatehouse"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import Credentials from "gatehouse/providers/credentials"
import GitHub from "gatehouse/providers/github"
import Nodemailer from "gatehouse/providers/nodemailer"
import Passkey from "gatehouse/providers/passkey"
import Password, { hashPassword } from "gatehouse/providers/password"
import { addVirtualAuthenticator, complaintsOn, focusArrives, holdConditionalRequests, inputNamed, launchBrowser, openPage, recordCeremonies, tabTo, type Watched } from "./harness.js"
import { describeGallery, galleryShot } from "./support/gallery.js"

const SECRET = "e2e-secret-identifier-first-4b3a2f1e0d9c8b7a6f5e"
const SESSION_COOKIE = "authjs.session-token"
const ADA = { email: "ada@example.com", password: "correct horse battery staple" }

/** The links the magic-link provider "sends", newest last. */
const mails: Array<{ to: string; url: string }> = []
const adapter = MemoryAdapter()
const config = {
  secret: SECRET,
  adapter,
  logLevel: "silent" as const,
  rateLimit: false as const,
  providers: [
    GitHub({ clientId: "e2e-client", clientSecret: "e2e-secret" }),
    Password({ sendMail: async () => undefined }),
    Nodemailer({
      async sendVerificationRequest({ identifier, url }: { identifier: string; url: string }) {
        mails.push({ to: identifier, url })
      },
    }),
    Passkey(),
  ],
}
/** One method only: a credentials form, shown at once. */
const singleConfig = {
  secret: SECRET,
  logLevel: "silent" as const,
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }: Partial<Record<string, string>>) => (username === "solo" && password === "solo-password" ? { id: "solo", name: "Solo", email: "solo@example.com" } : null),
    }),
  ],
}

function appFor(authConfig: typeof config | typeof singleConfig) {
  const app = express()
  app.use("/auth", authRouter(authConfig))
  app.use(authSession(authConfig))
  app.get("/dashboard", requireAuth(authConfig), (req, res) => {
    res.type("html").send(`<!doctype html><html lang="en"><title>Dashboard</title><main><h1>Dashboard of ${req.auth?.user?.email}</h1></main></html>`)
  })
  return app
}

async function listen(app: express.Express): Promise<{ server: Server; origin: string }> {
  const server = app.listen(0, "127.0.0.1")
  await new Promise<void>((listening, failed) => server.once("listening", listening).once("error", failed))
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` }
}

let full: { server: Server; origin: string }
let single: { server: Server; origin: string }
let browser: Browser
const open: Watched[] = []

beforeAll(async () => {
  const user = await adapter.createUser!({ id: "user-ada", email: ADA.email, emailVerified: new Date(), name: "Ada" })
  await adapter.setPasswordHash!(user.id, await hashPassword(ADA.password))
  // A password account, as sign-up and its confirmation leave it.
  await adapter.linkAccount!({ userId: user.id, type: "credentials", provider: "password", providerAccountId: user.id } as unknown as Parameters<NonNullable<typeof adapter.linkAccount>>[0])
  full = await listen(appFor(config))
  single = await listen(appFor(singleConfig))
  browser = await launchBrowser()
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((watched) => watched.context.close()))
})

afterAll(async () => {
  await browser?.close()
  for (const { server } of [full, single]) {
    server?.closeAllConnections()
    await new Promise<void>((closed) => (server ? server.close(() => closed()) : closed()))
  }
})

async function newPage(): Promise<Watched> {
  const watched = await openPage(browser)
  open.push(watched)
  return watched
}

function expectClean(watched: Watched, origin = full.origin) {
  const ours = complaintsOn(watched, origin)
  expect(ours.consoleErrors).toEqual([])
  expect(ours.violations).toEqual([])
  expect(ours.pageErrors).toEqual([])
  expect(ours.dialogs).toEqual([])
}

const dashboard = () => `${full.origin}/dashboard`
const signinUrl = (origin = full.origin) => `${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`
// Every method of this app takes an address (password accounts, links, passkeys): the field is "Email".
const identifierField = (page: Page) => page.getByLabel("Email", { exact: true })

/** Step one: the identifier typed, Continue pressed; resolves on step two. */
async function continueAs(page: Page, identifier: string) {
  await identifierField(page).fill(identifier)
  await Promise.all([page.waitForURL((url) => url.searchParams.get("login_hint") === identifier), page.getByRole("button", { name: "Continue" }).click()])
}

async function signedInAs(watched: Watched): Promise<string | null> {
  const response = await watched.context.request.get(`${full.origin}/auth/session`)
  const body = (await response.json()) as { user?: { email?: string } } | null
  return body?.user?.email ?? null
}

describe("identifier-first sign-in", () => {
  test("step one: one field, Continue, the GitHub button and the passkey; the sign-up page is a link; both pass axe in light and dark", async () => {
    const watched = await newPage()
    const { page } = watched
    await page.goto(signinUrl())
    expect(await page.locator("input:not([type=hidden])").count()).toBe(1)
    expect(await identifierField(page).getAttribute("autocomplete")).toBe("username webauthn")
    expect(await page.getByRole("button").allTextContents()).toEqual(["Sign in with GitHub", "Continue", "Sign in with a passkey"])
    expect(describeGallery(await galleryShot(page, "signin-step1"))).toBe("")

    await Promise.all([page.waitForURL(/\/auth\/signup/), page.getByRole("link", { name: "Create an account" }).click()])
    expect(describeGallery(await galleryShot(page, "signup"))).toBe("")
    expectClean(watched)
  })

  test("password, keyboard only: Tab to the field, type, Enter; step two focuses the password; Enter signs in", async () => {
    const watched = await newPage()
    const { page } = watched
    await page.goto(signinUrl())
    await tabTo(page, inputNamed("login_hint"))
    await page.keyboard.type(ADA.email)
    await Promise.all([page.waitForURL((url) => url.searchParams.get("login_hint") === ADA.email), page.keyboard.press("Enter")])
    // Step two: the address is shown (with a way back), not asked again; the password takes the focus.
    await page.getByText(`Signing in as ${ADA.email}`).waitFor()
    expect(await page.getByRole("link", { name: "Use another account" }).count()).toBe(1)
    expect(await page.getByRole("button").allTextContents()).toEqual(["Sign in with a passkey", "Email me a link or code", "Sign in", "Email me a link to create a passkey"])
    expect(describeGallery(await galleryShot(page, "signin-step2"))).toBe("")
    const password = page.getByLabel("Password", { exact: true })
    expect(await focusArrives(password)).toBe(true)
    await page.keyboard.type(ADA.password)
    await Promise.all([page.waitForURL(dashboard()), page.keyboard.press("Enter")])
    await page.getByRole("heading", { name: `Dashboard of ${ADA.email}` }).waitFor()
    expectClean(watched)
  })

  test("a wrong password: the error beside the password field (announced, described), the address kept, the password not", async () => {
    const watched = await newPage()
    const { page } = watched
    await page.goto(signinUrl())
    await continueAs(page, ADA.email)
    await page.getByLabel("Password", { exact: true }).fill("not the password")
    await Promise.all([page.waitForURL((url) => url.searchParams.get("error") === "CredentialsSignin"), page.getByRole("button", { name: "Sign in", exact: true }).click()])
    expect(new URL(page.url()).searchParams.get("login_hint")).toBe(ADA.email)
    const password = page.getByLabel("Password", { exact: true })
    expect(await password.getAttribute("aria-invalid")).toBe("true")
    const error = page.locator(`#${await password.getAttribute("aria-describedby")}`)
    expect(await error.textContent()).toBe("Those details did not match. Check them and try again.")
    expect(await error.getAttribute("role")).toBe("alert")
    // The field's accessible description is the error; the typed address is still there; the password is not.
    expect(await password.evaluate((element) => (element as HTMLInputElement).value)).toBe("")
    await page.getByText(`Signing in as ${ADA.email}`).waitFor()
    expect(await focusArrives(password)).toBe(true)
    expect(describeGallery(await galleryShot(page, "signin-step2-error"))).toBe("")
    // Right this time.
    await password.fill(ADA.password)
    await Promise.all([page.waitForURL(dashboard()), password.press("Enter")])
    expectClean(watched, full.origin)
  })

  test("only addresses here: a username (sent without the browser's check) is refused beside the field is refused beside the field, what was typed kept", async () => {
    const watched = await newPage()
    const { page } = watched
    await page.goto(signinUrl())
    expect(await identifierField(page).getAttribute("type")).toBe("email")
    await page.goto(`${full.origin}/auth/signin?login_hint=just-a-name`)
    const field = identifierField(page)
    expect(await field.inputValue()).toBe("just-a-name")
    expect(await field.getAttribute("aria-invalid")).toBe("true")
    expect(await page.locator(`#${await field.getAttribute("aria-describedby")}`).textContent()).toBe("Enter an email address, like name@example.com.")
    expectClean(watched)
  })

  test("a link or code by email: step two sends it for the typed address; the link signs in", async () => {
    const watched = await newPage()
    const { page } = watched
    const address = "lin@example.com"
    await page.goto(signinUrl())
    await continueAs(page, address)
    await Promise.all([page.waitForURL((url) => url.pathname === "/auth/verify-request"), page.getByRole("button", { name: "Email me a link or code" }).click()])
    const mail = mails.filter((sent) => sent.to === address).at(-1)
    expect(mail).toBeDefined()
    await page.goto(mail!.url)
    // Links are scanner-safe: the confirm page's button signs in.
    if (new URL(page.url()).pathname.startsWith("/auth/callback/")) await page.locator('form[method="post"] button[type="submit"]').first().click()
    await page.waitForURL(dashboard())
    expect(await signedInAs(watched)).toBe(address)
    expectClean(watched)
  })

  test("a passkey: created from step two (the address proved by a link first), then signed in with from step two; Last used marks it", async () => {
    const watched = await newPage()
    const { page } = watched
    // The ceremonies are wrapped so that step one's autofill request can be held below.
    await recordCeremonies(watched.context)
    const authenticator = await addVirtualAuthenticator(page)
    const address = "grace@example.com"
    // Creating: step two's secondary button, for the typed address: no second address field.
    await page.goto(signinUrl())
    await continueAs(page, address)
    expect(await page.locator('input[name="email"]:visible').count()).toBe(0)
    await Promise.all([page.waitForURL((url) => url.pathname === "/auth/verify-request"), page.getByRole("button", { name: "Email me a link to create a passkey" }).click()])
    await page.goto(mails.filter((sent) => sent.to === address).at(-1)!.url)
    if (new URL(page.url()).pathname.startsWith("/auth/callback/")) await page.locator('form[method="post"] button[type="submit"]').first().click()
    await page.waitForURL((url) => url.pathname === "/auth/passkey-setup/passkey")
    await Promise.all([page.waitForURL(dashboard()), page.getByRole("button", { name: "Create a passkey" }).click()])
    expect(await authenticator.credentials()).toHaveLength(1)

    // Signed out; step one's autofill request is held (as until a person picks the passkey).
    await watched.context.clearCookies({ name: SESSION_COOKIE })
    await holdConditionalRequests(page)
    await page.goto(signinUrl())
    await continueAs(page, address)
    await Promise.all([page.waitForURL(dashboard()), page.getByRole("button", { name: "Sign in with a passkey" }).click()])
    expect(await signedInAs(watched)).toBe(address)

    // Last used: the passkey, marked on both steps.
    await watched.context.clearCookies({ name: SESSION_COOKIE })
    await page.goto(signinUrl())
    expect(await page.getByRole("button", { name: "Sign in with a passkey Last used" }).count()).toBe(1)
    await continueAs(page, address)
    expect((await page.getByRole("button").allTextContents())[0]).toBe("Sign in with a passkey Last used")
    await authenticator.remove()
    expectClean(watched)
  })

  test("Last used: after a password sign-in, step two marks the password form and lists it first", async () => {
    const watched = await newPage()
    const { page } = watched
    await page.goto(signinUrl())
    expect(await page.getByText("Last used").count()).toBe(0)
    await continueAs(page, ADA.email)
    expect(await page.getByText("Last used").count()).toBe(0)
    await page.getByLabel("Password", { exact: true }).fill(ADA.password)
    await Promise.all([page.waitForURL(dashboard()), page.getByLabel("Password", { exact: true }).press("Enter")])
    const cookie = (await watched.context.cookies(full.origin)).find((candidate) => candidate.name === "gatehouse.last-used")
    expect(cookie).toMatchObject({ value: "credentials.password", httpOnly: true, sameSite: "Lax" })

    await watched.context.clearCookies({ name: SESSION_COOKIE })
    await page.goto(signinUrl())
    await continueAs(page, ADA.email)
    expect(await page.getByRole("button").allTextContents()).toEqual(["Sign in Last used", "Sign in with a passkey", "Email me a link or code", "Email me a link to create a passkey"])
    expect(describeGallery(await galleryShot(page, "signin-step2-last-used"))).toBe("")
    expectClean(watched)
  })
})

describe("a single method stays one step", () => {
  test("only a credentials form: its fields at once, and a sign-in with them", async () => {
    const watched = await newPage()
    const { page } = watched
    await page.goto(signinUrl(single.origin))
    expect(await page.getByRole("button", { name: "Continue" }).count()).toBe(0)
    await page.getByLabel("Username", { exact: true }).fill("solo")
    await page.getByLabel("Password", { exact: true }).fill("solo-password")
    await Promise.all([page.waitForURL(`${single.origin}/dashboard`), page.getByRole("button", { name: "Sign in", exact: true }).click()])
    await page.getByRole("heading", { name: "Dashboard of solo@example.com" }).waitFor()
    expectClean(watched, single.origin)
  })
})
