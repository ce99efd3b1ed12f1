/**
 * The single-page app example (examples/spa, issue #35) in real Chromium: the React app built
 * once with Vite's JavaScript API (into a temporary directory), served by the example's Express
 * server with mail going to a real SMTP sink started here, users and sessions in SQLite in memory.
 * It signs in through `gatehouse/client` and `gatehouse/react` only (no Gatehouse page), except
 * where the app itself links to one (setting up two-step verification):
 *   - email and password (a wrong password first: the error type's message);
 *   - an email code read from the mail;
 *   - adding a passkey, then signing in with it through conditional UI (autofill) and the button;
 *   - two-step verification: the app shows its second step (status "pending-second-factor")
 *     until the authenticator app's code is typed;
 *   - signing out in one tab: the other tab of the same browser follows without a reload;
 *   - the device list: two browsers signed in, one signs the other out.
 * The sign-in, email-code, second-step and home screens are photographed (docs/screenshots/spa-*.png) and
 * checked with axe-core; no page logs an error, breaks its CSP or opens a dialog.
 *
 * The site is browsed as http://localhost:<port> (passkeys need a host name) while the server
 * listens on 127.0.0.1.
 */
import { rmSync } from "node:fs"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Express } from "express"
import type { Browser, Page } from "playwright-core"
import { hashPassword } from "gatehouse/providers/password"
import { codeAt } from "../../lib/two-factor/totp.js"
import { startSmtp } from "../helpers/smtp.js"
import { addVirtualAuthenticator, complaintsOn, launchBrowser, openPage, recordCeremonies, type Watched } from "./harness.js"
import { axeViolations, describeGallery, describeViolations, galleryShot } from "./support/gallery.js"
import { buildSpa } from "./support/spa-build.js"

interface SpaAdapter {
  createUser(user: { id: string; email: string; emailVerified: Date; name: string }): Promise<{ id: string }>
  setPasswordHash(userId: string, hash: string): Promise<void>
  linkAccount(account: { userId: string; type: string; provider: string; providerAccountId: string }): Promise<unknown>
}

// Built before the example is imported: it reads SPA_DIST's index.html when it starts.
const webRoot = await buildSpa()
const smtp = await startSmtp()

const ENV: Record<string, string | undefined> = {
  DATABASE_URL: "sqlite::memory:",
  SMTP_URL: smtp.url,
  EMAIL_FROM: undefined,
  SPA_DIST: webRoot,
  AUTH_SECRET: "e2e-secret-spa-4f1e2d3c4b5a69788796a5b4c3d2e1f0",
  AUTH_URL: undefined,
}
const saved = Object.fromEntries(Object.keys(ENV).map((name) => [name, process.env[name]]))
for (const [name, value] of Object.entries(ENV)) {
  if (value === undefined) delete process.env[name]
  else process.env[name] = value
}
let example: { app: Express; adapter: SpaAdapter; DEMO: { email: string; password: string; name: string } }
try {
  // A specifier in a variable: the example is plain JavaScript without declarations.
  const EXAMPLE_MODULE = "../../examples/spa/server.js"
  example = (await import(EXAMPLE_MODULE)) as typeof example
} finally {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
}

let server: Server
let browser: Browser
/** http://localhost:<port> */
let origin: string
const open: Watched[] = []

beforeAll(async () => {
  server = example.app.listen(0, "127.0.0.1")
  await new Promise<void>((listening, failed) => server.once("listening", listening).once("error", failed))
  origin = `http://localhost:${(server.address() as AddressInfo).port}`
  browser = await launchBrowser()
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((watched) => watched.context.close()))
})

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((closed) => {
    server?.closeAllConnections()
    server?.close(() => closed())
  })
  await smtp.close()
  rmSync(webRoot, { recursive: true, force: true })
})

async function newPage(): Promise<Watched> {
  const watched = await openPage(browser)
  open.push(watched)
  return watched
}

const PASSWORD = "a-long-enough-password"

/** A password account with a confirmed address, as the example makes its demo account. */
async function passwordUser(email: string, name: string): Promise<string> {
  const user = await example.adapter.createUser({ id: crypto.randomUUID(), email, emailVerified: new Date(), name })
  await example.adapter.setPasswordHash(user.id, await hashPassword(PASSWORD))
  await example.adapter.linkAccount({ userId: user.id, type: "credentials", provider: "password", providerAccountId: user.id })
  return email
}

const heading = (page: Page, name: string | RegExp) => page.getByRole("heading", { level: 1, name })

/** The app's sign-in screen, once React has drawn it. */
async function openApp(page: Page): Promise<void> {
  await page.goto(`${origin}/`)
  await heading(page, "Sign in").waitFor()
}

/** Types the address and password into the app's password form and presses its button. */
async function submitPassword(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByRole("form", { name: "Email and password" })
  await form.getByLabel("Email").fill(email)
  await form.getByLabel("Password").fill(password)
  await form.getByRole("button", { name: "Sign in" }).click()
}

async function signInWithPassword(page: Page, email: string): Promise<void> {
  await openApp(page)
  await submitPassword(page, email, PASSWORD)
  await heading(page, /^Hello, /).waitFor()
}

/** Who the browser's session belongs to, by the example's own API (GET /api/notes), or null. */
async function apiUser(watched: Watched): Promise<string | null> {
  const response = await watched.context.request.get(`${origin}/api/notes`)
  return response.status() === 200 ? ((await response.json()) as { user: string }).user : null
}

/** A code computed away from a step's edge, so the server checks it in the same step. */
async function currentCode(secret: string, steps = 0): Promise<string> {
  const into = Date.now() % 30_000
  if (into > 27_000) await new Promise((resume) => setTimeout(resume, 30_200 - into))
  return codeAt(secret, Date.now() + steps * 30_000)
}

function expectClean(...pages: Watched[]) {
  for (const watched of pages) expect(complaintsOn(watched, origin)).toEqual({ consoleErrors: [], violations: [], pageErrors: [], dialogs: [] })
}

test("email and password: a wrong password is told by its error type, the right one shows the user and the API's answer", async () => {
  const watched = await newPage()
  const { page } = watched
  await openApp(page)
  expect(describeGallery(await galleryShot(page, "spa-signin"))).toBe("")

  await submitPassword(page, example.DEMO.email, "not-the-password")
  await expect(page.getByRole("alert").textContent()).resolves.toBe("That address and password do not match an account.")
  expect(await apiUser(watched)).toBeNull()

  await submitPassword(page, example.DEMO.email, example.DEMO.password)
  await heading(page, `Hello, ${example.DEMO.name}`).waitFor()
  // The app's own JSON API answers the same session.
  await page.locator("#notes li").first().waitFor()
  expect(await page.locator("#notes li").first().textContent()).toContain("GET /api/notes")
  expect(await apiUser(watched)).toBe(example.DEMO.email)
  expectClean(watched)
})

test("email code: the code from the mail signs in a new user", async () => {
  const watched = await newPage()
  const { page } = watched
  const email = "reader@example.test"
  await openApp(page)
  const form = page.getByRole("form", { name: "Email code" })
  await form.getByLabel("Email").fill(email)
  const before = smtp.messages.length
  await form.getByRole("button", { name: "Email me a code" }).click()
  await form.getByRole("status").filter({ hasText: `We sent a code to ${email}` }).waitFor()
  expect(describeGallery(await galleryShot(page, "spa-email-code"))).toBe("")
  const mail = (await smtp.waitFor(before + 1)).slice(before).find((received) => received.envelope.to.includes(email))
  const code = /: ([0-9 ]+)$/m.exec(mail?.mail.text ?? "")?.[1]?.replaceAll(" ", "")
  expect(code).toMatch(/^\d{6}$/)
  await form.getByLabel("Code").fill(code!)
  await form.getByRole("button", { name: "Sign in with the code" }).click()
  await heading(page, `Hello, ${email}`).waitFor()
  expect(await apiUser(watched)).toBe(email)
  expectClean(watched)
})

test("passkeys: added by a signed-in user, then signing in through autofill (conditional UI) and through the button", async () => {
  const watched = await newPage()
  const { page } = watched
  const ceremonies = await recordCeremonies(watched.context)
  const authenticator = await addVirtualAuthenticator(page)
  const email = await passwordUser("keyholder@example.test", "Key Holder")
  await signInWithPassword(page, email)

  await page.getByRole("button", { name: "Add a passkey" }).click()
  await page.getByRole("status").filter({ hasText: "Passkey added" }).waitFor()
  const [credential] = await authenticator.credentials()
  expect(credential?.isResidentCredential).toBe(true)
  expect(credential?.rpId).toBe("localhost")

  // Signed out, the sign-in screen asks for a conditional request; the virtual authenticator
  // answers it at once (as a person picking the passkey from the autofill list) and the app is
  // signed in again without a click.
  const calls = ceremonies.calls.length
  await page.getByRole("button", { name: "Sign out", exact: true }).click()
  await ceremonies.waitFor((call) => ceremonies.calls.indexOf(call) >= calls && call.mediation === "conditional" && call.outcome === "resolved", "conditional, resolved")
  await heading(page, "Hello, Key Holder").waitFor()
  expect(await apiUser(watched)).toBe(email)

  // With the autofill request held (nobody picks from the list: set in this document, where the
  // next sign-in screen is drawn), the button's modal request aborts it and signs in.
  await page.evaluate(() => {
    window.__gatehouseHoldConditional = true
  })
  const held = ceremonies.calls.length
  await page.getByRole("button", { name: "Sign out", exact: true }).click()
  await heading(page, "Sign in").waitFor()
  await ceremonies.waitFor((call) => ceremonies.calls.indexOf(call) >= held && call.mediation === "conditional", "conditional, held")
  expect(await apiUser(watched)).toBeNull()
  await page.getByRole("button", { name: "Sign in with a passkey" }).click()
  await heading(page, "Hello, Key Holder").waitFor()
  const modal = await ceremonies.waitFor((call) => ceremonies.calls.indexOf(call) >= held && call.method === "get" && call.mediation === "modal", "modal get")
  expect(modal.outcome).toBe("resolved")
  expect(ceremonies.calls.slice(held).find((call) => call.mediation === "conditional")?.outcome).toBe("rejected")
  expect(await page.getByRole("alert").count()).toBe(0)
  expectClean(watched)
})

test("two-step verification: after the password the app shows its second step until the code is typed", async () => {
  const email = await passwordUser("careful@example.test", "Careful User")
  const first = await newPage()
  await signInWithPassword(first.page, email)
  // Set up on Gatehouse's own page, as the app's link leads there: the secret read off the page.
  await first.page.goto(`${origin}/auth/two-factor/setup?callbackUrl=${encodeURIComponent(`${origin}/`)}`)
  const secret = ((await first.page.locator("#two-factor-secret").textContent()) ?? "").replace(/\s/g, "")
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  await first.page.locator('input[name="code"]').fill(await currentCode(secret))
  await first.page.locator('input[name="code"]').press("Enter")
  await first.page.locator("#recovery-codes").waitFor()

  const watched = await newPage()
  const { page } = watched
  await openApp(page)
  await submitPassword(page, email, PASSWORD)
  await heading(page, "Two-step verification").waitFor()
  expect(await apiUser(watched)).toBeNull()
  expect(describeGallery(await galleryShot(page, "spa-two-factor"))).toBe("")

  await page.getByLabel("Code", { exact: true }).fill(await currentCode(secret, 1))
  await page.getByRole("button", { name: "Verify" }).click()
  await heading(page, "Hello, Careful User").waitFor()
  expect(await apiUser(watched)).toBe(email)
  expectClean(watched)
})

test("signing out in one tab signs out the other tab of the browser, without a reload", async () => {
  const watched = await newPage()
  const email = await passwordUser("two-tabs@example.test", "Two Tabs")
  await signInWithPassword(watched.page, email)
  const other = await watched.context.newPage()
  await other.goto(`${origin}/`)
  await heading(other, "Hello, Two Tabs").waitFor()

  await watched.page.getByRole("button", { name: "Sign out", exact: true }).click()
  await heading(watched.page, "Sign in").waitFor()
  await heading(other, "Sign in").waitFor()
  expect(await apiUser(watched)).toBeNull()
  expectClean(watched)
})

test("the device list: two browsers signed in, one signs the other out", async () => {
  const email = await passwordUser("devices@example.test", "Device Owner")
  const laptop = await newPage()
  const phone = await newPage()
  await signInWithPassword(phone.page, email)
  await signInWithPassword(laptop.page, email)

  const list = laptop.page.getByRole("list", { name: "Signed-in devices" })
  await list.getByRole("listitem").nth(1).waitFor()
  expect(await list.getByRole("listitem").count()).toBe(2)
  expect(await list.locator("li[data-current]").textContent()).toContain("This device")
  expect(describeGallery(await galleryShot(laptop.page, "spa-home"))).toBe("")

  await list.locator("li:not([data-current])").getByRole("button", { name: /^Sign out/ }).click()
  await list.getByRole("listitem").nth(1).waitFor({ state: "detached" })
  expect(await list.getByRole("listitem").count()).toBe(1)
  expect(await apiUser(phone)).toBeNull()
  expect(await apiUser(laptop)).toBe(email)
  await phone.page.reload()
  await heading(phone.page, "Sign in").waitFor()
  expect(describeViolations(await axeViolations(laptop.page))).toBe("")
  expectClean(laptop, phone)
})
