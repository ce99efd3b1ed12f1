/**
 * A passkey as the second factor in real Chromium with a virtual authenticator (issue #16): a user
 * signs in with credentials, turns on two-factor sign-in (the code computed from the secret read
 * off the page), creates a passkey on /auth/passkey-setup, and signs out. Signing in again with
 * credentials, the two-factor page offers the passkey instead of the code: it completes the
 * sign-in (`amr` pwd,hwk) without any code.
 */
import type { Server } from "node:http"
import type { Browser } from "playwright-core"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import { authRouter, authSession, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import Passkey from "gatehouse/providers/passkey"
import express from "express"
import { codeAt } from "../../lib/two-factor/totp.js"
import { addVirtualAuthenticator, complaintsOn, launchBrowser, openPage, type Watched } from "./harness.js"

const adapter = MemoryAdapter()
const config = {
  secret: "e2e-secret-two-factor-passkey-9f8e7d6c5b4a3921",
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: async (fields: Partial<Record<string, unknown>>) =>
        fields.password === "pw" && typeof fields.username === "string" ? { id: `u-${fields.username}`, name: fields.username, email: `${fields.username}@example.test` } : null,
    }),
    Passkey(),
  ],
  adapter,
  twoFactor: { issuer: "Gatehouse E2E" },
  experimental: { enableWebAuthn: true },
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
  // WebAuthn needs a domain (not an IP) on a secure context: localhost.
  origin = `http://localhost:${typeof address === "object" && address ? address.port : 0}`
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

test("the passkey completes a pending sign-in as the second factor", async () => {
  const watched = await openPage(browser, { locale: "en-US" })
  open.push(watched)
  const { page, context } = watched
  const authenticator = await addVirtualAuthenticator(page)
  const signIn = async () => {
    // Step two of the identifier-first page (issue #26) for the username, straight away: step
    // one's passkey autofill is not this test's subject.
    await page.goto(`${origin}/auth/signin?login_hint=keyholder&callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
    await page.locator('input[name="password"]').fill("pw")
    await page.locator('input[name="password"]').press("Enter")
  }

  await signIn()
  await page.waitForURL(`${origin}/dashboard`)
  await page.goto(`${origin}/auth/two-factor/setup?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
  const secret = ((await page.locator("#two-factor-secret").textContent()) ?? "").replace(/\s/g, "")
  await page.locator('input[name="code"]').fill(codeAt(secret))
  await page.locator('input[name="code"]').press("Enter")
  await page.locator("#recovery-codes").waitFor()

  // A passkey for the signed-in user.
  await page.goto(`${origin}/auth/passkey-setup?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
  await page.getByRole("button", { name: "Create a passkey" }).click()
  await page.waitForURL(`${origin}/dashboard`)
  expect(await authenticator.credentials()).toHaveLength(1)
  expect(await adapter.listAuthenticatorsByUserId("u-keyholder")).toHaveLength(1)

  // Signed out; the first factor again, then the passkey instead of a code.
  await context.clearCookies()
  await signIn()
  await page.waitForURL(`${origin}/auth/two-factor`)
  await page.getByRole("button", { name: "Use a passkey instead" }).click()
  await page.waitForURL(`${origin}/dashboard`)
  expect(await page.locator("h1").textContent()).toBe("Dashboard of keyholder")
  expect(await page.locator("#amr").textContent()).toBe("pwd,hwk")
  expect(complaintsOn(watched, origin)).toEqual({ consoleErrors: [], violations: [], pageErrors: [], dialogs: [] })
})
