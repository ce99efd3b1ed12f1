/**
 * The basic example tried feature by feature in real Chromium, as a newcomer would after
 * `npm run example` (issue #26): its home page in the theme's look (light and dark, axe-clean,
 * in the gallery), a password account created, confirmed by the mailed link and used to sign in,
 * a magic link, an emailed code, a passkey (a CDP virtual authenticator), two-step verification
 * set up from the account page that the home page links and asked for on the next sign-in, and a
 * user without a name greeted by address.
 *
 * Without SMTP_URL the example prints every mail on its console: the spy on console.log reads
 * them in-process. The site is browsed as http://localhost:<port> (passkeys need a host name).
 */
import { jest } from "@jest/globals"
import type { Browser, Page } from "playwright-core"
import { Secret, TOTP } from "otpauth"
import { addVirtualAuthenticator, holdConditionalRequests, isFaviconNoise, launchBrowser, localhostOrigin, openPage, recordCeremonies, startExample, type ExampleServer, type Watched } from "./harness.js"
import { axeViolations, describeGallery, describeViolations, galleryShot } from "./support/gallery.js"

let server: ExampleServer
let browser: Browser
let origin: string
const open: Watched[] = []
/** The policy examples/basic/index.js says its own pages work under. */
const STRICT_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'"
/** Everything the example printed: one entry per console.log call (a mail is one call). */
const printed: string[] = []

beforeAll(async () => {
  jest.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")))
  ;[server, browser] = await Promise.all([startExample(), launchBrowser()])
  origin = localhostOrigin(server)
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((watched) => watched.context.close()))
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  jest.restoreAllMocks()
})

async function newPage(): Promise<Watched> {
  const watched = await openPage(browser)
  open.push(watched)
  return watched
}

/** No console error (but the favicon the example does not serve), no CSP violation, no page error or dialog. */
function expectClean(watched: Watched): void {
  expect(watched.consoleErrors.filter((entry) => !isFaviconNoise(entry))).toEqual([])
  expect(watched.violations).toEqual([])
  expect(watched.pageErrors).toEqual([])
  expect(watched.dialogs).toEqual([])
}

interface Mail {
  text: string
  /** The link: the magic link's "Sign in:" or a password mail's "Open:". */
  link: string
  code?: string
}

/** The first mail to `to` printed after `since` entries (mails are sent after the answer: waits a while). */
async function mailTo(to: string, since: number): Promise<Mail> {
  for (let tries = 0; tries < 150; tries++) {
    const text = printed.slice(since).find((entry) => entry.includes(`[mail] To: ${to}\n`))
    const link = text && /\[mail\] (?:Sign in|Open): (\S+)/.exec(text)?.[1]
    if (text && link) return { text, link, code: /\[mail\] Code: (\S+)/.exec(text)?.[1] }
    await new Promise((resume) => setTimeout(resume, 100))
  }
  throw new Error(`no mail to ${to} was printed`)
}

const pathOf = (page: Page) => new URL(page.url()).pathname

/** From the home page: "Sign in", then step one of the sign-in page with `identifier`. */
async function startSignIn(page: Page, identifier: string): Promise<void> {
  await page.goto(`${origin}/`)
  await page.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).click()
  await page.waitForURL((url) => url.pathname === "/auth/signin")
  await page.getByLabel("Email or username", { exact: true }).fill(identifier)
  await Promise.all([page.waitForURL((url) => url.searchParams.get("login_hint") === identifier), page.getByRole("button", { name: "Continue", exact: true }).click()])
}

/** The password account's form on step two (the demo user's username form is there too). */
const passwordForm = (page: Page) => page.locator("form", { has: page.locator('input[name="email"][autocomplete="username"]') }).filter({ has: page.locator('input[type="password"]') })

async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await startSignIn(page, email)
  const form = passwordForm(page)
  await form.getByLabel("Password", { exact: true }).fill(password)
  await form.getByRole("button").click()
  await page.waitForURL((url) => !url.pathname.startsWith("/auth/signin") && !url.pathname.startsWith("/auth/callback/"))
}

/** The home page's greeting. */
const greeting = async (page: Page) => ((await page.getByRole("heading", { level: 1 }).textContent()) ?? "").trim()

/** Opens a printed link; where links are scanner-safe (a confirm page), presses its one button. */
async function openLink(page: Page, link: string, leaving: string): Promise<void> {
  await page.goto(link)
  if (pathOf(page) === leaving) await page.locator('form[method="post"] button[type="submit"]').first().click()
}

/** A confirmed password account made over HTTP (sign-up is not the subject where this is used). */
async function passwordAccount(watched: Watched, email: string, password: string): Promise<void> {
  const api = watched.context.request
  const since = printed.length
  const { csrfToken } = (await (await api.get(`${origin}/auth/csrf`)).json()) as { csrfToken: string }
  const answer = await api.post(`${origin}/auth/signup`, { form: { csrfToken, email, password, name: "" } })
  expect(answer.status()).toBe(200)
  const link = new URL((await mailTo(email, since)).link)
  const confirmed = await api.post(`${origin}/auth/verify-email`, {
    form: { csrfToken, uid: link.searchParams.get("uid")!, token: link.searchParams.get("token")!, callbackUrl: `${origin}/` },
    maxRedirects: 0,
  })
  expect(confirmed.status()).toBe(302)
  // Signed in by the confirmation: sign out, so the browser starts signed out.
  await watched.context.clearCookies()
}

/** A code as an authenticator app shows it, away from a step's edge so the server checks the same step. */
async function appCode(secret: string, steps = 0): Promise<string> {
  const into = Date.now() % 30_000
  if (into > 27_000) await new Promise((resume) => setTimeout(resume, 30_200 - into))
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 })
}

describe("examples/basic in Chromium", () => {
  test("the home page: the theme's look, light and dark, under a strict policy, links to sign in and sign up, clean (gallery: example-home)", async () => {
    const watched = await newPage()
    const { page } = watched
    // Under the strict policy index.js suggests (the example sends none): nothing may be blocked.
    await page.route(`${origin}/`, async (route) => {
      const response = await route.fetch()
      await route.fulfill({ response, headers: { ...response.headers(), "content-security-policy": STRICT_CSP } })
    })
    await page.goto(`${origin}/`)
    await page.getByRole("heading", { level: 1, name: "Gatehouse example" }).waitFor()
    expect(await page.getByRole("main").getByRole("link", { name: "Create an account" }).getAttribute("href")).toBe("/auth/signup")

    // One app: the example's card and button look like the built-in sign-in page's, in both schemes.
    const look = async (selector: string) =>
      page.evaluate((query) => {
        const card = document.querySelector(".card")!
        const button = document.querySelector(query)!
        return { body: getComputedStyle(document.body).backgroundColor, card: getComputedStyle(card).backgroundColor, text: getComputedStyle(document.body).color, button: getComputedStyle(button).backgroundColor }
      }, selector)
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.goto(`${origin}/`)
      const home = await look("a.button")
      await page.goto(`${origin}/auth/signin`)
      const signin = await look("button[type=submit]")
      expect(home).toEqual(signin)
    }
    await page.emulateMedia({ colorScheme: "light" })
    await page.goto(`${origin}/`)
    expect(await page.evaluate(() => getComputedStyle(document.querySelector("a.button")!).backgroundColor)).toBe("rgb(15, 118, 110)")

    const found = await galleryShot(page, "example-home")
    expect(describeGallery(found)).toBe("")
    expectClean(watched)
  })

  test("a password account: sign up, confirm by the mailed link, greeted by address (no name), sign out, sign in with the password", async () => {
    const watched = await newPage()
    const { page } = watched
    const email = "ada@example.com"
    await page.goto(`${origin}/`)
    await page.getByRole("main").getByRole("link", { name: "Create an account" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/signup")
    const since = printed.length
    await page.getByLabel("Email", { exact: true }).fill(email)
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery staple")
    // The name is optional: left empty.
    await page.getByRole("button", { name: "Create account" }).click()
    await page.getByText(/Check your email/).waitFor()

    const mail = await mailTo(email, since)
    expect(new URL(mail.link).pathname).toBe("/auth/verify-email")
    await page.goto(mail.link)
    await page.getByRole("button", { name: "Confirm and sign in" }).click()
    await page.waitForURL(`${origin}/`)
    // A user without a name: greeted by address, never "undefined".
    expect(await greeting(page)).toBe(`Hello, ${email}`)
    expect(await page.locator("body").innerText()).not.toMatch(/undefined|null/)
    // The signed-in home page passes axe too, light and dark.
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      expect(describeViolations(await axeViolations(page))).toBe("")
    }
    await page.emulateMedia({ colorScheme: "light" })

    await page.getByRole("navigation").getByRole("link", { name: "Sign out" }).click()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL((url) => url.pathname !== "/auth/signout")
    await page.goto(`${origin}/`)
    expect(await greeting(page)).toBe("Gatehouse example")

    await signInWithPassword(page, email, "correct horse battery staple")
    await page.goto(`${origin}/`)
    expect(await greeting(page)).toBe(`Hello, ${email}`)
    expectClean(watched)
  })

  test("a magic link printed on the console signs in", async () => {
    const watched = await newPage()
    const { page } = watched
    const email = "link@example.com"
    await startSignIn(page, email)
    const since = printed.length
    await page.getByRole("button", { name: "Email me a link or code" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/verify-request")
    const mail = await mailTo(email, since)
    expect(new URL(mail.link).pathname).toBe("/auth/callback/nodemailer")
    await openLink(page, mail.link, "/auth/callback/nodemailer")
    await page.waitForURL(`${origin}/`)
    expect(await greeting(page)).toBe(`Hello, ${email}`)
    expectClean(watched)
  })

  test("the code of the same mail, typed on the check-your-email page, signs in", async () => {
    const watched = await newPage()
    const { page } = watched
    const email = "code@example.com"
    await startSignIn(page, email)
    const since = printed.length
    await page.getByRole("button", { name: "Email me a link or code" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/verify-request")
    const { code } = await mailTo(email, since)
    expect(code).toMatch(/^\d{6}$/)
    await page.getByLabel("Code from the email").fill(code!)
    await page.getByRole("button", { name: "Sign in", exact: true }).click()
    await page.waitForURL(`${origin}/`)
    expect(await greeting(page)).toBe(`Hello, ${email}`)
    expectClean(watched)
  })

  test("a passkey: created after a magic link proves the address, then it alone signs in", async () => {
    const watched = await newPage()
    const { page } = watched
    // The autofill (conditional) request waits, as for a person who has not picked a passkey from it.
    const ceremonies = await recordCeremonies(watched.context)
    await holdConditionalRequests(page)
    const authenticator = await addVirtualAuthenticator(page)
    const email = "passkey@example.com"
    await startSignIn(page, email)
    const since = printed.length
    await page.getByRole("button", { name: "Email me a link to create a passkey" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/verify-request")
    await openLink(page, (await mailTo(email, since)).link, "/auth/callback/nodemailer")
    await page.waitForURL((url) => url.pathname === "/auth/passkey-setup/passkey")
    await page.getByRole("button", { name: "Create a passkey" }).click()
    await page.waitForURL(`${origin}/`)
    expect(await authenticator.credentials()).toHaveLength(1)

    // A new browser session on the same device (the authenticator keeps the passkey): no address asked.
    await watched.context.clearCookies()
    await page.goto(`${origin}/auth/signin`)
    const before = ceremonies.calls.length
    await page.getByRole("button", { name: "Sign in with a passkey" }).click()
    await page.waitForURL(`${origin}/`)
    expect(ceremonies.calls.slice(before).filter((call) => call.mediation === "modal")).toEqual([expect.objectContaining({ method: "get", outcome: "resolved" })])
    expect(await greeting(page)).toBe(`Hello, ${email}`)
    expectClean(watched)
  })

  test("two-step verification: set up from the account page the home page links, then asked for on the next sign-in", async () => {
    const watched = await newPage()
    const { page } = watched
    const email = "totp@example.com"
    const password = "a password long enough"
    await passwordAccount(watched, email, password)
    await signInWithPassword(page, email, password)

    // Home -> the account page -> its two-step verification section -> the set-up page.
    await page.goto(`${origin}/`)
    await page.getByRole("main").getByRole("link", { name: "Your account" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/account")
    await page.getByRole("link", { name: "Set up two-step verification" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/two-factor/setup")
    const secret = ((await page.locator("#two-factor-secret").textContent()) ?? "").replace(/\s/g, "")
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    await page.getByLabel("Code your app shows now").fill(await appCode(secret))
    await page.getByRole("button", { name: "Turn on" }).click()
    await page.locator("#recovery-codes").waitFor()
    expect(await page.locator("#recovery-codes li").count()).toBe(10)

    // The next sign-in (a fresh browser) stops at the second step until the app's code is typed.
    const next = await newPage()
    await signInWithPassword(next.page, email, password)
    expect(pathOf(next.page)).toBe("/auth/two-factor")
    expect((await next.context.request.get(`${origin}/api/me`, { maxRedirects: 0 })).status()).toBe(401)
    await next.page.locator('input[name="code"]').fill(await appCode(secret, 1))
    await next.page.locator('form[method="post"] button[type="submit"]').first().click()
    await next.page.waitForURL(`${origin}/`)
    expect(await greeting(next.page)).toBe(`Hello, ${email}`)
    const me = (await (await next.context.request.get(`${origin}/api/me`)).json()) as { amr?: string[] }
    expect(me.amr).toEqual(expect.arrayContaining(["pwd", "otp"]))
    expectClean(watched)
    expectClean(next)
  })
})
