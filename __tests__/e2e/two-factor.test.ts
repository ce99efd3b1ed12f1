/**
 * Two-factor sign-in in real Chromium (issue #16), keyboard only, in the five languages and in
 * light and dark: sign in with credentials, open the setup page, read the secret off the page,
 * type the code an authenticator app would show (computed from that secret now), keep the
 * recovery codes; sign out; sign in with credentials again, land on the two-factor page, type the
 * code, reach the dashboard. Each page is clean (no console error, no CSP violation).
 */
import type { Server } from "node:http"
import type { Browser, Page } from "playwright-core"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import { authRouter, authSession, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import express from "express"
import { codeAt } from "../../lib/two-factor/totp.js"
import { complaintsOn, focusArrives, inputNamed, launchBrowser, openPage, tabTo, type Watched } from "./harness.js"

const config = {
  secret: "e2e-secret-two-factor-0a1b2c3d4e5f60718293a4b5",
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: async (fields: Partial<Record<string, unknown>>) =>
        fields.password === "pw" && typeof fields.username === "string" ? { id: `u-${fields.username}`, name: fields.username, email: `${fields.username}@example.test` } : null,
    }),
  ],
  adapter: MemoryAdapter(),
  twoFactor: { issuer: "Gatehouse E2E" },
  logLevel: "silent" as const,
}
const app = express()
app.use("/auth", authRouter(config))
app.use(authSession(config))
app.get("/dashboard", requireAuth(config), (req, res) => {
  res.type("html").send(`<!doctype html><title>Dashboard</title><h1>Dashboard of ${req.auth?.user?.name}</h1><p id="amr">${(req.auth?.amr ?? []).join(",")}</p>`)
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
})

/** A code computed away from a step's edge, so the server checks it in the same step. */
async function currentCode(secret: string, steps = 0): Promise<string> {
  const into = Date.now() % 30_000
  if (into > 27_000) await new Promise((resume) => setTimeout(resume, 30_200 - into))
  return codeAt(secret, Date.now() + steps * 30_000)
}

async function signInWithCredentials(page: Page, username: string): Promise<void> {
  await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
  await tabTo(page, inputNamed("username"))
  await page.keyboard.type(username)
  await tabTo(page, inputNamed("password"))
  await page.keyboard.type("pw")
  await page.keyboard.press("Enter")
}

const LANGUAGES = [
  { locale: "en-US", heading: "Two-step verification", setup: "Set up two-step verification", codes: "Your recovery codes", scheme: "light" },
  { locale: "de-DE", heading: "Bestätigung in zwei Schritten", setup: "Bestätigung in zwei Schritten einrichten", codes: "Ihre Wiederherstellungscodes", scheme: "dark" },
  { locale: "fr-FR", heading: "Validation en deux étapes", setup: "Configurer la validation en deux étapes", codes: "Vos codes de secours", scheme: "light" },
  { locale: "es-ES", heading: "Verificación en dos pasos", setup: "Configurar la verificación en dos pasos", codes: "Tus códigos de recuperación", scheme: "dark" },
  { locale: "ja-JP", heading: "2段階認証", setup: "2段階認証を設定", codes: "復旧コード", scheme: "light" },
] as const

describe.each(LANGUAGES)("two-factor sign-in in $locale ($scheme), keyboard only", (language) => {
  test("enrol reading the secret off the page, sign out, sign in with credentials then the code", async () => {
    const username = `walker-${language.locale.toLowerCase()}`
    const watched = await openPage(browser, { locale: language.locale, colorScheme: language.scheme })
    open.push(watched)
    const { page } = watched

    await signInWithCredentials(page, username)
    await page.waitForURL(`${origin}/dashboard`)

    // Enrolment: the QR code is there, the secret is read off the page as a person would type it.
    await page.goto(`${origin}/auth/two-factor/setup?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
    expect(await page.locator("h1").textContent()).toBe(language.setup)
    expect(await page.locator("figure svg").count()).toBe(1)
    const secret = ((await page.locator("#two-factor-secret").textContent()) ?? "").replace(/\s/g, "")
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    await tabTo(page, inputNamed("code"))
    await page.keyboard.type(await currentCode(secret))
    await page.keyboard.press("Enter")
    await page.locator("#recovery-codes").waitFor()
    expect(await page.locator("h1").textContent()).toBe(language.codes)
    expect(await page.locator("#recovery-codes li").count()).toBe(10)

    // Sign out (a fresh browser context: no cookies), then sign in again: the second step asks for the code.
    const next = await openPage(browser, { locale: language.locale, colorScheme: language.scheme })
    open.push(next)
    await signInWithCredentials(next.page, username)
    await next.page.waitForURL(`${origin}/auth/two-factor`)
    expect(await next.page.locator("h1").textContent()).toBe(language.heading)
    await next.page.goto(`${origin}/dashboard`)
    expect(next.page.url()).toContain("/auth/signin")
    await next.page.goto(`${origin}/auth/two-factor`)
    // The code field takes the focus (autofocus): type and press Enter.
    expect(await focusArrives(next.page.locator('input[name="code"]'))).toBe(true)
    const code = await currentCode(secret, 1)
    await next.page.keyboard.type(code)
    expect(await next.page.inputValue('input[name="code"]')).toBe(code)
    await Promise.all([next.page.waitForURL(`${origin}/dashboard`), next.page.keyboard.press("Enter")])
    expect(await next.page.locator("h1").textContent()).toBe(`Dashboard of ${username}`)
    expect(await next.page.locator("#amr").textContent()).toBe("pwd,otp")

    for (const w of [watched, next]) {
      expect(complaintsOn(w, origin)).toEqual({ consoleErrors: [], violations: [], pageErrors: [], dialogs: [] })
    }
  })
})
