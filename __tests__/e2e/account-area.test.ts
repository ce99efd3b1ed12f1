/**
 * The account area in real Chromium (issue #26): a page of its own with a header (the app's name,
 * "Back to" the app's `pages.home`, sign out), in-page navigation to Profile, Security, Devices and
 * Danger zone; two columns on a desktop, one on a phone. Two-step verification from its section:
 * set up (the code computed with otpauth from the secret read off the page), the codes confirmed,
 * downloaded as a text file; new recovery codes; the challenge on another browser; turned off with
 * its confirmation. Devices as people read them, "Sign out everywhere else" on its own. A journey
 * by keyboard alone. Each section, the setup and the challenge pages photographed at 1280x800 and
 * 390x844, light and dark, and checked with axe-core (WCAG 2.2 AA) in each.
 */
import { readFile } from "node:fs/promises"
import express from "express"
import { Secret, TOTP } from "otpauth"
import type { Page } from "playwright-core"
import { authRouter, authSession, requireAuth } from "gatehouse"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import Credentials from "gatehouse/providers/credentials"
import Passkey from "gatehouse/providers/passkey"
import { complaintsOn, browserSuite, tabTo, type Watched } from "./harness.js"
import { describeGallery, galleryShot } from "./support/gallery.js"

const MAC_CHROME = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const WINDOWS_EDGE = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0"
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
const JOURNEY_TIMEOUT = 240_000

const config = {
  secret: "e2e-secret-account-area-5f1e2d3c4b5a69788796a5b4",
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: async (fields: Partial<Record<string, unknown>>) =>
        fields.password === "pw" && typeof fields.username === "string" ? { id: `u-${fields.username}`, name: fields.username, email: `${fields.username}@example.test` } : null,
    }),
    Passkey(),
  ],
  adapter: MemoryAdapter(),
  twoFactor: { issuer: "Acme" },
  pages: { home: "/home" },
  theme: { appName: "Acme" },
  logLevel: "silent" as const,
}
const app = express()
app.use("/auth", authRouter(config))
app.use(authSession(config))
app.get("/home", requireAuth(config), (req, res) => {
  res.type("html").send(`<!doctype html><html lang="en"><title>Acme</title><h1>Home of ${req.auth?.user?.name}</h1>`)
})

const suite = browserSuite(app, "localhost")

const accountUrl = () => `${suite.origin}/auth/account`

function browserFor(userAgent: string, viewport = { width: 1280, height: 800 }): Promise<Watched> {
  return suite.newPage({ userAgent, viewport, locale: "en-US", acceptDownloads: true })
}

/**
 * Signs the browser in with the credentials form's POST through the context's request API (its
 * cookies are the browser's): the subject here is the account area, not the sign-in page. Returns
 * where the sign-in leads (the account page, or the two-factor step).
 */
async function signIn(watched: Watched, username: string): Promise<string> {
  const api = watched.context.request
  const { csrfToken } = (await (await api.get(`${suite.origin}/auth/csrf`)).json()) as { csrfToken: string }
  const response = await api.post(`${suite.origin}/auth/callback/credentials`, { form: { csrfToken, username, password: "pw", callbackUrl: accountUrl() }, maxRedirects: 0 })
  expect(response.status()).toBe(302)
  return new URL(response.headers().location!, suite.origin).href
}

/** The code an authenticator app shows for `secret` (otpauth), away from a step's edge. */
async function appCode(secret: string, steps = 0): Promise<string> {
  const into = Date.now() % 30_000
  if (into > 26_000) await new Promise((resume) => setTimeout(resume, 30_500 - into))
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" })
  return totp.generate({ timestamp: Date.now() + steps * 30_000 })
}

const status = (page: Page) => page.getByRole("status")
const section = (page: Page, id: string) => page.locator(`main section#${id}`)

function expectClean(watched: Watched): void {
  expect(complaintsOn(watched, suite.origin)).toEqual({ consoleErrors: [], violations: [], pageErrors: [], dialogs: [] })
}

async function expectGallery(page: Page, name: string): Promise<void> {
  const found = await galleryShot(page, name)
  expect(describeGallery(found)).toBe("")
}

test("each section from the navigation, two-step verification set up, renewed, challenged and turned off, devices signed out elsewhere; every page passes axe", async () => {
  const desk = await browserFor(MAC_CHROME)
  const { page } = desk
  expect(await signIn(desk, "ada")).toBe(accountUrl())
  const laptop = await browserFor(WINDOWS_EDGE)
  await signIn(laptop, "ada")

  // The header: the app's name, back to the app, sign out.
  await page.goto(accountUrl())
  const header = page.getByRole("banner")
  expect(await header.getByText("Acme", { exact: true }).count()).toBe(1)
  expect(await header.getByRole("link", { name: "Back to Acme" }).getAttribute("href")).toBe(`${suite.origin}/home`)
  expect(await header.getByRole("link", { name: "Sign out" }).getAttribute("href")).toBe(`${suite.origin}/auth/signout`)

  // A layout made for it: navigation beside the sections on a desktop, wider than the sign-in card, not the whole screen.
  const nav = page.getByRole("navigation", { name: "Account sections" })
  const main = page.getByRole("main")
  const [navBox, mainBox] = [(await nav.boundingBox())!, (await main.boundingBox())!]
  expect(navBox.x + navBox.width).toBeLessThanOrEqual(mainBox.x)
  expect(mainBox.width).toBeGreaterThan(600)
  expect(mainBox.width).toBeLessThanOrEqual(800)
  expect(await nav.getByRole("link").allInnerTexts()).toEqual(["Profile", "Security", "Devices", "Danger zone"])

  // Profile: from the navigation; the name saved and confirmed.
  await nav.getByRole("link", { name: "Profile" }).click()
  await page.waitForURL((url) => url.hash === "#profile")
  await section(page, "profile").getByLabel("Name").fill("Ada Lovelace")
  await section(page, "profile").getByRole("button", { name: "Save name" }).click()
  await page.waitForURL((url) => url.searchParams.get("saved") === "name")
  expect((await status(page).innerText()).trim()).toBe("Saved.")
  await expectGallery(page, "account-profile")

  // Security: two-step verification is off; set it up from its section.
  await nav.getByRole("link", { name: "Security" }).click()
  await page.waitForURL((url) => url.hash === "#security")
  const security = section(page, "security")
  expect(await security.locator("#two-factor-status").innerText()).toBe("Off")
  await security.getByRole("link", { name: "Set up two-step verification" }).click()
  await page.waitForURL((url) => url.pathname === "/auth/two-factor/setup")
  await expectGallery(page, "two-factor-setup")
  const secret = ((await page.locator("#two-factor-secret").textContent()) ?? "").replace(/\s/g, "")
  await page.getByLabel("Code your app shows now").fill(await appCode(secret))
  await page.getByRole("button", { name: "Turn on" }).click()
  expect((await status(page).innerText()).trim()).toBe("Two-step verification is now on.")
  const codes = (await page.locator("#recovery-codes li").allInnerTexts()).map((code) => code.trim())
  expect(codes).toHaveLength(10)

  // The codes: in a read-only field to copy, and as a text file.
  await page.getByText("Copy as text").click()
  expect(await page.getByLabel("Recovery codes, one per line: select them to copy").inputValue()).toBe(codes.join("\n"))
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download as a text file" }).click()])
  expect(download.suggestedFilename()).toMatch(/^recovery-codes-localhost_\d+\.txt$/)
  const file = await readFile((await download.path())!, "utf8")
  for (const code of codes) expect(file).toContain(code)
  await page.getByRole("link", { name: "Continue" }).click()
  await page.waitForURL((url) => url.pathname === "/auth/account")
  expect(await security.locator("#two-factor-status").innerText()).toBe("On")
  expect(await security.locator("#two-factor-remaining").innerText()).toBe("Unused recovery codes: 10")

  // New recovery codes, with a recovery code as the proof: confirmed, the old ones gone.
  await security.getByLabel("Current code or a recovery code").first().fill(codes[0]!)
  await security.getByRole("button", { name: "Get new recovery codes" }).click()
  expect((await status(page).innerText()).trim()).toBe("New recovery codes were made. The old ones no longer work.")
  const renewed = (await page.locator("#recovery-codes li").allInnerTexts()).map((code) => code.trim())
  expect(renewed).toHaveLength(10)
  expect(renewed.filter((code) => codes.includes(code))).toEqual([])
  await page.getByRole("link", { name: "Continue" }).click()
  await page.waitForURL((url) => url.pathname === "/auth/account")
  await nav.getByRole("link", { name: "Security" }).click()
  await expectGallery(page, "account-security")

  // A phone signs in: the second step asks for a code; a recovery code passes it.
  const phone = await browserFor(IPHONE, { width: 390, height: 844 })
  const step = await signIn(phone, "ada")
  expect(new URL(step).pathname).toBe("/auth/two-factor")
  await phone.page.goto(step)
  await expectGallery(phone.page, "two-factor-challenge")
  await phone.page.getByLabel("Code", { exact: true }).fill(renewed[0]!)
  await Promise.all([phone.page.waitForURL(accountUrl()), phone.page.getByRole("button", { name: "Verify" }).click()])

  // Devices: three, as people read them; this one marked.
  await page.goto(accountUrl())
  await nav.getByRole("link", { name: "Devices" }).click()
  await page.waitForURL((url) => url.hash === "#devices")
  const devices = section(page, "devices").locator("li.device")
  expect(await devices.count()).toBe(3)
  const labels = await devices.locator("strong").allInnerTexts()
  expect(labels.sort()).toEqual(["Chrome on macOS", "Edge on Windows", "Safari on iOS"])
  const mine = devices.filter({ has: page.locator(".account-badge", { hasText: "This device" }) })
  expect(await mine.locator("strong").innerText()).toBe("Chrome on macOS")
  expect(await mine.innerText()).toContain("Last active now")
  expect(await mine.innerText()).toContain("Place: This computer")
  expect(await section(page, "devices").innerText()).not.toMatch(/::\/64|127\.0\.0|0:0:0:0/)
  // "Sign out everywhere else" is its own block, after the list, in no device's row.
  const everywhere = section(page, "devices").getByRole("button", { name: "Sign out everywhere else" })
  expect(await devices.getByRole("button", { name: "Sign out everywhere else" }).count()).toBe(0)
  expect((await everywhere.boundingBox())!.y).toBeGreaterThan((await devices.last().boundingBox())!.y)
  await expectGallery(page, "account-devices")
  await everywhere.click()
  await page.waitForURL((url) => url.searchParams.get("saved") === "others-signed-out")
  expect((await status(page).innerText()).trim()).toBe("Every other device was signed out.")
  expect(await devices.count()).toBe(1)
  for (const other of [laptop, phone]) {
    await other.page.goto(accountUrl())
    expect(new URL(other.page.url()).pathname).toBe("/auth/signin")
  }

  // Turning two-step verification off: the code and the confirmation box; confirmed on the page.
  await page.goto(accountUrl())
  await nav.getByRole("link", { name: "Security" }).click()
  const off = security.locator("form", { has: page.getByRole("button", { name: "Turn off" }) })
  await off.getByLabel("Current code or a recovery code").fill(renewed[1]!)
  await off.getByRole("button", { name: "Turn off" }).click()
  // The box is required: nothing was sent.
  expect(new URL(page.url()).searchParams.get("saved")).toBeNull()
  await off.getByLabel("I understand that signing in will need only the first step").check()
  await off.getByRole("button", { name: "Turn off" }).click()
  await page.waitForURL((url) => url.searchParams.get("saved") === "two-factor-off")
  expect((await status(page).innerText()).trim()).toBe("Two-step verification is off.")
  expect(await security.locator("#two-factor-status").innerText()).toBe("Off")

  // Danger zone, last.
  await nav.getByRole("link", { name: "Danger zone" }).click()
  await page.waitForURL((url) => url.hash === "#danger")
  expect(await section(page, "danger").getByRole("button", { name: "Delete my account" }).count()).toBe(1)
  await expectGallery(page, "account-danger")

  // Back to the app.
  await header.getByRole("link", { name: "Back to Acme" }).click()
  await page.waitForURL(`${suite.origin}/home`)
  expect(await page.locator("h1").innerText()).toMatch(/^Home of /)
  for (const watched of [desk, phone]) expectClean(watched)
}, JOURNEY_TIMEOUT)

test("on a phone the account area is one column", async () => {
  const phone = await browserFor(IPHONE, { width: 390, height: 844 })
  await signIn(phone, "grace")
  await phone.page.goto(accountUrl())
  const nav = (await phone.page.getByRole("navigation", { name: "Account sections" }).boundingBox())!
  const main = (await phone.page.getByRole("main").boundingBox())!
  expect(nav.y + nav.height).toBeLessThanOrEqual(main.y)
  expect(main.width).toBeLessThanOrEqual(390)
  expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  expectClean(phone)
})

test("keyboard only: the header, the navigation to a section, two-step verification set up and turned off", async () => {
  const watched = await browserFor(MAC_CHROME)
  const { page } = watched
  await signIn(watched, "linus")
  await page.goto(accountUrl())
  /** What has focus: its tag and its text (or label). */
  const focused = () =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null
      const label = element?.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : undefined
      return `${element?.tagName.toLowerCase()}:${(label ?? element?.textContent ?? "").trim()}`
    })

  // From the top: back to the app, sign out, then the sections.
  await page.locator("body").focus()
  const order: string[] = []
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab")
    order.push(await focused())
  }
  expect(order).toEqual(["a:Back to Acme", "a:Sign out", "a:Profile", "a:Security", "a:Devices", "a:Danger zone"])

  // Enter on "Security": the page goes there, and the next Tab is in that section.
  await page.keyboard.press("Shift+Tab")
  await page.keyboard.press("Shift+Tab")
  expect(await focused()).toBe("a:Security")
  await page.keyboard.press("Enter")
  await page.waitForURL((url) => url.hash === "#security")
  await page.keyboard.press("Tab")
  expect(await focused()).toBe("a:Set up two-step verification")
  await page.keyboard.press("Enter")
  await page.waitForURL((url) => url.pathname === "/auth/two-factor/setup")

  const secret = ((await page.locator("#two-factor-secret").textContent()) ?? "").replace(/\s/g, "")
  await tabTo(page, (element) => element.tag === "input" && element.name === "code")
  await page.keyboard.type(await appCode(secret))
  await page.keyboard.press("Enter")
  await page.locator("#recovery-codes").waitFor()
  const codes = (await page.locator("#recovery-codes li").allInnerTexts()).map((code) => code.trim())
  await tabTo(page, (element) => element.tag === "a" && element.text === "Continue")
  await page.keyboard.press("Enter")
  await page.waitForURL((url) => url.pathname === "/auth/account")
  expect(await page.locator("#two-factor-status").innerText()).toBe("On")

  // Turn off: the code, Space on the confirmation box, Enter on the button.
  await tabTo(page, (element) => element.tag === "input" && element.name === "code")
  // The first code field is the new codes' form: move on to the one of "Turn off".
  await page.keyboard.press("Tab")
  await page.keyboard.press("Tab")
  expect(await focused()).toBe("input:Current code or a recovery code")
  await page.keyboard.type(codes[0]!)
  await page.keyboard.press("Tab")
  expect(await focused()).toBe("input:I understand that signing in will need only the first step")
  await page.keyboard.press("Space")
  await page.keyboard.press("Tab")
  expect(await focused()).toBe("button:Turn off")
  await page.keyboard.press("Enter")
  await page.waitForURL((url) => url.searchParams.get("saved") === "two-factor-off")
  expect((await status(page).innerText()).trim()).toBe("Two-step verification is off.")
  expectClean(watched)
}, JOURNEY_TIMEOUT)
