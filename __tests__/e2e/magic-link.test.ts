/**
 * Email magic links in real Chromium, against examples/postgres (users, sessions and verification
 * tokens in PostgreSQL under a table prefix of this file's own, dropped afterwards) with SMTP_URL
 * pointing at a real SMTP sink started here: the browser asks for a link on the built-in sign-in
 * page and sees the verify-request page; the mail that arrives has the link as a button in its
 * HTML part and as text in its plain part; opening the link shows the confirm page (issue #19:
 * scanner-safe links), whose button signs the browser in on the callbackUrl (a session row holds
 * the cookie's token); opening it again and pressing the button shows the Verification error
 * page. The one-time code journey: the code from the mail typed on the verify-request page, with
 * the keyboard only. Every Gatehouse page on the way is clean (no console error, no CSP violation).
 */
import { randomBytes } from "node:crypto"
import type { Server } from "node:http"
import type { Express } from "express"
import type { Browser, Page } from "playwright-core"
import { dropTables, type SqlAdapterInstance } from "gatehouse/adapters/sql"
import { ERROR_PAGES } from "../../lib/core/error-messages.js"
import { linkIn, startSmtp, type ReceivedMail } from "../helpers/smtp.js"
import { complaintsOn, focusArrives, isStatusLineFor, launchBrowser, openPage, type Watched } from "./harness.js"
import { continueAs } from "./support/signin.js"

const EXAMPLE_MODULE = "../../examples/postgres/index.js"
const SESSION_COOKIE = "authjs.session-token"
// Identifier-first (issue #26): the address on step one, then step two's email button.
const EMAIL_BUTTON = "Email me a link or code"

const smtp = await startSmtp()
const prefix = `e2e_ml_${randomBytes(4).toString("hex")}_`

// The example reads its configuration from the environment when it is imported; what this file
// sets is put back afterwards.
const ENV: Record<string, string | undefined> = {
  DATABASE_URL: process.env.GATEHOUSE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  TABLE_PREFIX: prefix,
  SMTP_URL: smtp.url,
  EMAIL_FROM: undefined,
  AUTH_SECRET: "e2e-secret-magic-link-8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a",
  AUTH_URL: undefined,
}
const saved = Object.fromEntries(Object.keys(ENV).map((name) => [name, process.env[name]]))
for (const [name, value] of Object.entries(ENV)) {
  if (value === undefined) delete process.env[name]
  else process.env[name] = value
}
let example: { app: Express; adapter: SqlAdapterInstance; migrateDatabase: () => Promise<string[]> }
try {
  example = (await import(EXAMPLE_MODULE)) as typeof example
} finally {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
}
const db = example.adapter.db

let server: Server
let origin: string
let browser: Browser
const open: Watched[] = []

beforeAll(async () => {
  await example.migrateDatabase()
  server = example.app.listen(0, "127.0.0.1")
  await new Promise<void>((listening, failed) => server.once("listening", listening).once("error", failed))
  const address = server.address()
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`
  browser = await launchBrowser()
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((watched) => watched.context.close()))
})

afterAll(async () => {
  await browser?.close()
  if (server) {
    await new Promise<void>((closed) => {
      server.closeAllConnections()
      server.close(() => closed())
    })
  }
  await dropTables(db, { tablePrefix: prefix })
  await example.adapter.close()
  await smtp.close()
})

async function newPage(): Promise<Watched> {
  const watched = await openPage(browser)
  open.push(watched)
  return watched
}

/** No console error (but `allowed` ones), CSP violation, page error or dialog on the site's pages. */
function expectClean(watched: Watched, allowed: (entry: Watched["consoleErrors"][number]) => boolean = () => false) {
  const ours = complaintsOn(watched, origin)
  expect(ours.consoleErrors.filter((entry) => !allowed(entry))).toEqual([])
  expect(ours.violations).toEqual([])
  expect(ours.pageErrors).toEqual([])
  expect(ours.dialogs).toEqual([])
}

async function sessionCookie(watched: Watched) {
  return (await watched.context.cookies(origin)).find((cookie) => cookie.name === SESSION_COOKIE)
}

/** Asks for a link for `email` on the sign-in page `/dashboard` sends the browser to; returns the mail. */
async function requestLink(page: Page, email: string): Promise<ReceivedMail> {
  const before = smtp.messages.length
  await page.goto(`${origin}/dashboard`)
  await page.waitForURL((url) => url.pathname === "/auth/signin")
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${origin}/dashboard`)
  await continueAs(page, email)
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${origin}/dashboard`)
  await page.getByRole("button", { name: EMAIL_BUTTON }).click()
  await page.waitForURL((url) => url.pathname === "/auth/verify-request")
  await page.getByRole("heading", { level: 1, name: "Check your email" }).waitFor()
  const mails = await smtp.waitFor(before + 1)
  const mail = mails.find((received) => received.envelope.to.includes(email))
  if (!mail) throw new Error(`no mail to ${email}; got mail to ${mails.map((received) => received.envelope.to.join(",")).join(" ")}`)
  return mail
}

describe("examples/postgres: an email magic link in the browser", () => {
  test("ask on the sign-in page, read the mail, open the link: signed in on the callbackUrl; the link works once", async () => {
    const email = `e2e-${randomBytes(4).toString("hex")}@example.com`
    const watched = await newPage()
    const { page } = watched
    const mail = await requestLink(page, email)
    expect(await sessionCookie(watched)).toBeUndefined()

    // The plain-text part carries the link; it leads to the email callback, back to the dashboard.
    const link = linkIn(mail)
    expect(link.origin).toBe(origin)
    expect(link.pathname).toBe("/auth/callback/nodemailer")
    expect(link.searchParams.get("email")).toBe(email)
    expect(link.searchParams.get("callbackUrl")).toBe(`${origin}/dashboard`)
    expect(link.searchParams.get("token")).toMatch(/^[0-9a-f]{64}$/)
    expect(mail.mail.subject).toBe(`Sign in to ${link.host}`)

    // The HTML part, shown in the browser as a mail client would: a "Sign in" link button to the same URL.
    const reader = await newPage()
    await reader.page.setContent(mail.mail.html ?? "")
    const button = reader.page.getByRole("link", { name: "Sign in", exact: true })
    expect(await button.count()).toBe(1)
    expect(await button.getAttribute("href")).toBe(link.href)
    expect(await button.evaluate((element) => getComputedStyle(element).display)).toBe("inline-block")
    expect(await reader.page.locator("body").innerText()).toContain(email)

    // The browser that asked opens the link: the confirm page, which changes nothing until its button.
    await page.goto(link.href)
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor()
    expect(await page.locator("body").innerText()).toContain(`Sign in as ${email.slice(0, 1)}…@example.com?`)
    expect(await sessionCookie(watched)).toBeUndefined()
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.waitForURL(`${origin}/dashboard`)
    await page.getByRole("heading", { name: "Dashboard" }).waitFor()
    expect(await page.locator("body").innerText()).toContain(`Hello ${email};`)
    const cookie = await sessionCookie(watched)
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" })
    const row = await db.selectFrom(`${prefix}sessions`).selectAll().where("session_token", "=", cookie!.value).executeTakeFirstOrThrow()
    const user = await db.selectFrom(`${prefix}users`).selectAll().where("id", "=", row.user_id as string).executeTakeFirstOrThrow()
    expect(user.email).toBe(email)
    expect(user.email_verified).not.toBeNull()
    expectClean(watched)

    // The same link, opened again and confirmed: the Verification error page (403), and still only one session.
    watched.reset()
    await page.goto(link.href)
    const [again] = await Promise.all([page.waitForResponse((response) => new URL(response.url()).pathname === "/auth/error"), page.getByRole("button", { name: "Sign in" }).click()])
    await page.waitForURL((url) => url.pathname === "/auth/error")
    expect(new URL(page.url()).searchParams.get("error")).toBe("Verification")
    expect(again.status()).toBe(403)
    expect((await page.getByRole("heading", { level: 1 }).innerText()).trim()).toBe(ERROR_PAGES.Verification!.heading)
    expect(await page.locator("body").innerText()).toContain(ERROR_PAGES.Verification!.message)
    expect(await db.selectFrom(`${prefix}sessions`).selectAll().where("user_id", "=", row.user_id as string).execute()).toHaveLength(1)
    // Chromium logs the document's 403 as a "Failed to load resource" line: the status, not a page error.
    expectClean(watched, (entry) => isStatusLineFor(entry, page.url(), 403))
  })

  test("the link opened in another browser (no cookies of the asking one): its confirm page, keyboard only, signs that browser in", async () => {
    const email = `e2e-${randomBytes(4).toString("hex")}@example.com`
    const asking = await newPage()
    const mail = await requestLink(asking.page, email)
    expectClean(asking)

    const other = await newPage()
    await other.page.goto(linkIn(mail).href)
    await other.page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor()
    // Keyboard only: the page's one button has the focus; Enter presses it.
    expect(await focusArrives(other.page.getByRole("button", { name: "Sign in" }))).toBe(true)
    await other.page.keyboard.press("Enter")
    await other.page.waitForURL(`${origin}/dashboard`)
    await other.page.getByRole("heading", { name: "Dashboard" }).waitFor()
    expect(await sessionCookie(other)).toBeDefined()
    expect(await sessionCookie(asking)).toBeUndefined()
    expectClean(other)
  })

  test("the code journey, keyboard only: the code from the mail typed on the page that asked signs in; a wrong one is explained", async () => {
    const email = `e2e-${randomBytes(4).toString("hex")}@example.com`
    const watched = await newPage()
    const { page } = watched
    const mail = await requestLink(page, email)
    const code = /: ([0-9 ]+)$/m.exec(mail.mail.text ?? "")![1]!.replaceAll(" ", "")
    expect(code).toMatch(/^\d{6}$/)
    // The HTML part shows it large, above the link button.
    const reader = await newPage()
    await reader.page.setContent(mail.mail.html ?? "")
    expect(await reader.page.locator("body").innerText()).toContain(`${code.slice(0, 3)} ${code.slice(3)}`)

    // The field has the focus on the page the browser is looking at; a wrong code first.
    const field = page.getByLabel("Code from the email")
    expect(await focusArrives(field)).toBe(true)
    await page.keyboard.type(code.startsWith("1") ? `2${code.slice(1)}` : `1${code.slice(1)}`)
    await page.keyboard.press("Enter")
    await page.waitForURL((url) => url.searchParams.get("error") === "EmailCodeInvalid")
    await page.getByRole("alert").filter({ hasText: "That code is not right" }).waitFor()
    expect(await sessionCookie(watched)).toBeUndefined()

    // Then the right one, as the mail shows it (with its space).
    expect(await focusArrives(field)).toBe(true)
    await page.keyboard.type(`${code.slice(0, 3)} ${code.slice(3)}`)
    await page.keyboard.press("Enter")
    await page.waitForURL(`${origin}/dashboard`)
    expect(await page.locator("body").innerText()).toContain(`Hello ${email};`)
    expect(await sessionCookie(watched)).toBeDefined()
    expectClean(watched)

    // The link of that mail is spent by the code.
    const other = await newPage()
    await other.page.goto(linkIn(mail).href)
    await other.page.getByRole("button", { name: "Sign in" }).click()
    await other.page.waitForURL((url) => url.pathname === "/auth/error")
    expect(new URL(other.page.url()).searchParams.get("error")).toBe("Verification")
  })
})
