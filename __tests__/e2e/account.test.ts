/**
 * The account page (issue #15) in real Chromium, against examples/basic (SQLite in memory): a
 * person signs in with a magic link (password-less), lands on the account page, adds a passkey
 * (virtual authenticator), signs in with that passkey in a second browser, sees that device in
 * the list, signs it out from the first browser (the second then reads as signed out), and deletes
 * the account with the keyboard; nothing of theirs is left. Screenshots of the page (light, dark,
 * 390 px wide) go to test-results/.
 */
import { jest } from "@jest/globals"
import { mkdirSync } from "node:fs"
import type { Browser, Page } from "playwright-core"
import {
  addVirtualAuthenticator,
  exampleAdapter,
  launchBrowser,
  localhostOrigin,
  openPage,
  startExample,
  type ExampleAdapter,
  type ExampleServer,
  type Watched,
} from "./harness.js"

const EMAIL = "curie@example.com"
let server: ExampleServer
let browser: Browser
let adapter: ExampleAdapter
let origin: string
const open: Watched[] = []

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startExample(), launchBrowser()])
  adapter = await exampleAdapter()
  origin = localhostOrigin(server)
  mkdirSync("test-results", { recursive: true })
})

afterEach(async () => {
  jest.restoreAllMocks()
  await Promise.all(open.splice(0).map((watched) => watched.context.close()))
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function newContext(options: Parameters<typeof openPage>[1] = {}): Promise<Watched> {
  const watched = await openPage(browser, options)
  open.push(watched)
  return watched
}

/** Who the page's context is signed in as (GET /api/me), or null. */
async function signedInAs(watched: Watched): Promise<string | null> {
  const response = await watched.context.request.get(`${origin}/api/me`, { maxRedirects: 0 })
  if (response.status() !== 200) return null
  return ((await response.json()) as { user?: { email?: string } }).user?.email ?? null
}

/** The magic link the example prints, opened and confirmed: signed in, on the callback URL. */
async function signInByLink(page: Page, email: string, callbackUrl: string) {
  const printed = jest.spyOn(console, "log").mockImplementation(() => {})
  try {
    await page.goto(`${origin}/auth/signin?${new URLSearchParams({ callbackUrl })}`)
    await page.getByLabel("Email", { exact: true }).fill(email)
    await page.getByRole("button", { name: "Sign in with Email" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/verify-request")
    const mail = printed.mock.calls.map((args) => args.map(String).join(" ")).find((text) => text.includes(`To: ${email}`))
    const link = mail ? /Sign in: (\S+)/.exec(mail)?.[1] : undefined
    if (!link) throw new Error(`no link was printed for ${email}`)
    await page.goto(link)
    if (new URL(page.url()).pathname.startsWith("/auth/callback/")) await page.locator('form[method="post"] button[type="submit"]').first().click()
    await page.waitForURL((url) => url.href === callbackUrl)
  } finally {
    printed.mockRestore()
  }
}

const devices = (page: Page) => page.locator("section[aria-labelledby=account-devices] .device")

test("magic link, add a passkey, a second browser signs in with it and is signed out from the first, then the account is deleted by keyboard", async () => {
  const first = await newContext({ viewport: { width: 390, height: 1000 } })
  const authenticator = await addVirtualAuthenticator(first.page)
  const accountUrl = `${origin}/auth/account`
  await signInByLink(first.page, EMAIL, accountUrl)
  const { page } = first
  await page.getByRole("heading", { name: "Your account" }).waitFor()
  await page.getByText(EMAIL).waitFor()
  expect(await page.getByText("You have no passkey yet.").count()).toBe(1)

  // Add a passkey: the set-up page's ceremony, then back to the account page.
  await page.getByRole("link", { name: "Add a passkey" }).click()
  await page.waitForURL((url) => url.pathname === "/auth/passkey-setup")
  await page.getByRole("button", { name: "Create a passkey" }).click()
  await page.waitForURL((url) => url.pathname === "/auth/account")
  const user = (await adapter.getUserByEmail(EMAIL))!
  const [stored] = await adapter.listAuthenticatorsByUserId(user.id)
  expect(stored).toBeDefined()
  await page.getByText(`Passkey ${stored!.credentialID.slice(-8)}`, { exact: true }).waitFor()

  // A second browser with the same passkey (copied to its own authenticator) signs in with it.
  const second = await newContext()
  const other = await addVirtualAuthenticator(second.page)
  await other.addCredential((await authenticator.credentials())[0]!)
  await second.page.goto(`${origin}/auth/signin`, { waitUntil: "commit" })
  await second.page.waitForURL((url) => url.pathname !== "/auth/signin")
  expect(await signedInAs(second)).toBe(EMAIL)

  // The first browser sees two devices, signs the other out, and the second reads as signed out.
  await page.goto(accountUrl)
  expect(await devices(page).count()).toBe(2)
  expect(await devices(page).filter({ hasText: "(This device)" }).count()).toBe(1)
  await devices(page).filter({ hasNotText: "(This device)" }).getByRole("button", { name: "Sign out this device" }).click()
  await page.waitForURL((url) => url.pathname === "/auth/account")
  expect(await devices(page).count()).toBe(1)
  expect(await signedInAs(second)).toBeNull()
  expect(await signedInAs(first)).toBe(EMAIL)

  // Screenshots: light at 390 px, then dark.
  await page.screenshot({ path: "test-results/account-light-390.png", fullPage: true })
  await page.emulateMedia({ colorScheme: "dark" })
  await page.screenshot({ path: "test-results/account-dark-390.png", fullPage: true })
  await page.setViewportSize({ width: 1024, height: 1000 })
  await page.screenshot({ path: "test-results/account-dark.png", fullPage: true })

  // Delete, keyboard only: the confirmation box (Space), then the button (Tab, Enter).
  await page.getByLabel("I understand that this cannot be undone").focus()
  await page.keyboard.press("Space")
  await page.keyboard.press("Tab")
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Delete my account")
  await page.keyboard.press("Enter")
  await page.waitForURL((url) => !url.pathname.startsWith("/auth/account"))
  expect(await signedInAs(first)).toBeNull()
  expect(await adapter.getUserByEmail(EMAIL)).toBeNull()
  expect(await adapter.getUser(user.id)).toBeNull()
  expect(await adapter.getAuthenticator(stored!.credentialID)).toBeNull()
})
