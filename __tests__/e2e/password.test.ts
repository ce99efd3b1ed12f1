/**
 * Password accounts in real Chromium (issue #18), keyboard only, in English and in German (the
 * browser's language): from the sign-in page's link to sign-up, the confirmation link from the
 * mail (read from a real SMTP sink), the dashboard; "forgot password" from the sign-in page, the
 * reset link, a new password; change password; and sign-in with the new password. Each page is
 * clean (no console error, no CSP violation) and works without JavaScript (it has none).
 */
import type { Server } from "node:http"
import type { Browser } from "playwright-core"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import { authRouter, authSession, requireAuth } from "gatehouse"
import Nodemailer from "gatehouse/providers/nodemailer"
import Password from "gatehouse/providers/password"
import express from "express"
import { linkIn, startSmtp } from "../helpers/smtp.js"
import { complaintsOn, inputNamed, launchBrowser, openPage, tabTo, type Watched } from "./harness.js"

const smtp = await startSmtp()
const config = {
  secret: "e2e-secret-password-accounts-1f2e3d4c5b6a79880",
  providers: [Password({ email: Nodemailer({ server: smtp.url, from: "auth@example.test" }) })],
  adapter: MemoryAdapter(),
  logLevel: "silent" as const,
}
const app = express()
app.use("/auth", authRouter(config))
app.use(authSession(config))
app.get("/dashboard", requireAuth(config), (req, res) => {
  res.type("html").send(`<!doctype html><title>Dashboard</title><h1>Dashboard of ${req.auth?.user?.email}</h1>`)
})

let server: Server
let origin: string
let browser: Browser
const open: Watched[] = []

beforeAll(async () => {
  server = app.listen(0, "127.0.0.1")
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
  await new Promise<void>((closed) => {
    server.closeAllConnections()
    server.close(() => closed())
  })
  await smtp.close()
})

const link = (text: string) => (element: { tag: string; text: string }) => element.tag === "a" && element.text === text

const LANGUAGES = [
  { locale: "en-US", signUp: "Create an account", forgot: "Forgot your password?", sent: "Check your email", changed: "Your password is changed" },
  { locale: "de-DE", signUp: "Konto erstellen", forgot: "Passwort vergessen?", sent: "Prüfen Sie Ihr Postfach", changed: "Ihr Passwort ist geändert" },
]

describe.each(LANGUAGES)("the password journey in $locale, keyboard only", (language) => {
  test("sign up, confirm by mail, sign out; forgot, reset; change; sign in with the new password", async () => {
    const email = `walker-${language.locale.toLowerCase()}@example.com`
    const first = "first long passphrase here"
    const second = "second long passphrase here"
    const third = "third long passphrase here"
    const watched = await openPage(browser, { locale: language.locale })
    open.push(watched)
    const { page } = watched

    // Sign-in page -> "Create an account".
    await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
    await tabTo(page, link(language.signUp))
    await Promise.all([page.waitForURL(/\/auth\/signup/), page.keyboard.press("Enter")])
    expect(await page.locator("h1").textContent()).toBe(language.signUp)
    await tabTo(page, inputNamed("email"))
    await page.keyboard.type(email)
    await page.keyboard.press("Tab")
    await page.keyboard.type(first)
    const sent = smtp.messages.length
    await page.keyboard.press("Enter")
    await page.getByText(language.sent).waitFor()
    const verify = linkIn((await smtp.waitFor(sent + 1))[sent]!)

    // The link from the mail: one button, then the dashboard.
    await page.goto(verify.href)
    await tabTo(page, (element) => element.tag === "button")
    await Promise.all([page.waitForURL(`${origin}/dashboard`), page.keyboard.press("Enter")])
    expect(await page.locator("h1").textContent()).toBe(`Dashboard of ${email}`)

    // Forgot password, in a browser that is not signed in.
    const other = await openPage(browser, { locale: language.locale })
    open.push(other)
    await other.page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
    await tabTo(other.page, link(language.forgot))
    await Promise.all([other.page.waitForURL(/\/auth\/forgot-password/), other.page.keyboard.press("Enter")])
    const before = smtp.messages.length
    await tabTo(other.page, inputNamed("email"))
    await other.page.keyboard.type(email)
    await other.page.keyboard.press("Enter")
    await other.page.getByText(language.sent).waitFor()
    const reset = linkIn((await smtp.waitFor(before + 1))[before]!)
    await other.page.goto(reset.href)
    await tabTo(other.page, inputNamed("password"))
    await other.page.keyboard.type(second)
    await Promise.all([other.page.waitForURL(`${origin}/dashboard`), other.page.keyboard.press("Enter")])
    // The first browser was signed out by the reset.
    await page.goto(`${origin}/dashboard`)
    expect(page.url()).toContain("/auth/signin")

    // Change password from the signed-in browser.
    await other.page.goto(`${origin}/auth/change-password`)
    await tabTo(other.page, inputNamed("currentPassword"))
    await other.page.keyboard.type(second)
    await other.page.keyboard.press("Tab")
    await other.page.keyboard.type(third)
    await other.page.keyboard.press("Enter")
    await other.page.getByText(language.changed).waitFor()

    // Sign in with the newest password on the sign-in page.
    await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
    await tabTo(page, inputNamed("email"))
    await page.keyboard.type(email)
    await page.keyboard.press("Tab")
    await page.keyboard.type(third)
    await Promise.all([page.waitForURL(`${origin}/dashboard`), page.keyboard.press("Enter")])
    expect(await page.locator("h1").textContent()).toBe(`Dashboard of ${email}`)

    for (const w of [watched, other]) {
      expect(complaintsOn(w, origin)).toEqual({ consoleErrors: [], violations: [], pageErrors: [], dialogs: [] })
    }
    // Each step scrypts at OWASP's cost on a shared machine: more time than the suite's default.
  }, 180_000)
})
