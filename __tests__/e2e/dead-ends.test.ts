/**
 * Issue #26, no dead ends, in real Chromium: the sign-out page's "Cancel" goes back to the app
 * (still signed in); "Check your email" names the address, sends the mail again to it and offers
 * another address (the sign-in page, callback URL kept); a browser that opens a path that is no
 * action gets the themed 404 page with the way to sign in. Each page passes axe-core (WCAG 2.2 AA)
 * at a desktop and a phone size, light and dark, and is photographed for the docs (gallery.ts).
 *
 * The app is a small one of this file's own: the package's router with a demo password user and
 * an email provider whose mails are kept in memory (the mail itself is the magic-link suite's).
 */
import express from "express"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import { authRouter, authSession, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import Nodemailer from "gatehouse/providers/nodemailer"
import { describeGallery, galleryShot } from "./support/gallery.js"
import { complaintsOn, isStatusLineFor, browserSuite, type Watched } from "./harness.js"

const ADDRESS = "river.song@example.com"
const mails: Array<{ identifier: string; url: string }> = []

const config = {
  secret: "e2e-secret-dead-ends-5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d",
  adapter: MemoryAdapter(),
  session: { strategy: "jwt" as const },
  logLevel: "silent" as const,
  providers: [
    Credentials({
      name: "password",
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }) => (username === "demo" && password === "demo" ? { id: "1", name: "Demo User", email: "demo@example.com" } : null),
    }),
    Nodemailer({
      async sendVerificationRequest({ identifier, url }) {
        mails.push({ identifier, url })
      },
    }),
  ],
}

const app = express()
app.use("/auth", authRouter(config))
app.use(authSession(config))
app.get("/dashboard", requireAuth(config), (req, res) => {
  res.type("html").send(`<!doctype html><html lang="en"><head><title>Dashboard</title></head><body><main><h1>Dashboard</h1></main></body></html>`)
})

const suite = browserSuite(app)
const newPage = () => suite.newPage()

/** No console error (but `allowed` ones), CSP violation, page error or dialog on the site's pages. */
function expectClean(watched: Watched, allowed: (entry: Watched["consoleErrors"][number]) => boolean = () => false) {
  const ours = complaintsOn(watched, suite.origin)
  expect(ours.consoleErrors.filter((entry) => !allowed(entry))).toEqual([])
  expect(ours.violations).toEqual([])
  expect(ours.pageErrors).toEqual([])
  expect(ours.dialogs).toEqual([])
}

/** The context's CSRF token and a POST through its request API (which shares the page's cookies). */
async function post(watched: Watched, path: string, form: Record<string, string>) {
  const api = watched.context.request
  const { csrfToken } = (await (await api.get(`${suite.origin}/auth/csrf`)).json()) as { csrfToken: string }
  return api.post(`${suite.origin}${path}`, { form: { csrfToken, ...form }, maxRedirects: 0 })
}

describe("no dead ends (issue #26)", () => {
  test("sign-out: Cancel goes back to the page the person came from, still signed in", async () => {
    const watched = await newPage()
    const { page } = watched
    const signedIn = await post(watched, "/auth/callback/credentials", { username: "demo", password: "demo", callbackUrl: `${suite.origin}/dashboard` })
    expect(signedIn.status()).toBe(302)

    await page.goto(`${suite.origin}/auth/signout?callbackUrl=${encodeURIComponent(`${suite.origin}/dashboard`)}`)
    await page.getByRole("heading", { level: 1, name: "Sign out" }).waitFor()
    const found = await galleryShot(page, "signout")
    expect(describeGallery(found)).toBe("")

    await page.getByRole("link", { name: "Cancel" }).click()
    await page.waitForURL(`${suite.origin}/dashboard`)
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()

    // The keyboard reaches Cancel right after "Sign out", and Enter follows it.
    await page.goto(`${suite.origin}/auth/signout?callbackUrl=${encodeURIComponent(`${suite.origin}/dashboard`)}`)
    await page.getByRole("button", { name: "Sign out" }).focus()
    await page.keyboard.press("Tab")
    expect(await page.getByRole("link", { name: "Cancel" }).evaluate((element) => element === document.activeElement)).toBe(true)
    await page.keyboard.press("Enter")
    await page.waitForURL(`${suite.origin}/dashboard`)
    expectClean(watched)
  })

  test("check your email: names the address, sends again to it, and offers another address", async () => {
    const watched = await newPage()
    const { page } = watched
    const before = mails.length
    const asked = await post(watched, "/auth/signin/nodemailer", { email: ADDRESS, callbackUrl: `${suite.origin}/dashboard` })
    expect(asked.status()).toBe(302)
    await page.goto(new URL(asked.headers().location!, suite.origin).href)
    await page.getByRole("heading", { level: 1, name: "Check your email" }).waitFor()
    await expect(page.locator("strong.address").textContent()).resolves.toBe(ADDRESS)
    expect(mails.slice(before).map((mail) => mail.identifier)).toEqual([ADDRESS])
    const found = await galleryShot(page, "check-email")
    expect(describeGallery(found)).toBe("")

    await page.getByRole("button", { name: "Send again" }).click()
    await page.getByRole("status").filter({ hasText: "We sent the email again." }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/auth/verify-request")
    expect(mails.slice(before).map((mail) => mail.identifier)).toEqual([ADDRESS, ADDRESS])
    expect(new URL(mails.at(-1)!.url).searchParams.get("callbackUrl")).toBe(`${suite.origin}/dashboard`)
    await expect(page.locator("strong.address").textContent()).resolves.toBe(ADDRESS)

    await page.getByRole("link", { name: "Use another address" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/signin")
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${suite.origin}/dashboard`)
    await page.getByRole("heading", { level: 1 }).waitFor()
    expectClean(watched)
  })

  test("a path that is no action: the themed 404 page, with the way to sign in", async () => {
    const watched = await newPage()
    const { page } = watched
    const url = `${suite.origin}/auth/no-such-page`
    const response = await page.goto(url)
    expect(response?.status()).toBe(404)
    expect(response?.headers()["content-type"]).toMatch(/^text\/html/)
    await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor()
    const found = await galleryShot(page, "error")
    expect(describeGallery(found)).toBe("")

    await page.getByRole("link", { name: "Go to the sign-in page" }).click()
    await page.waitForURL((at) => at.pathname === "/auth/signin")
    expectClean(watched, (entry) => isStatusLineFor(entry, url, 404))
  })
})
