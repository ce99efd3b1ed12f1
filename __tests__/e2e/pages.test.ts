/**
 * The built-in pages in real Chromium, against examples/basic (user demo, password demo): the
 * protected page's redirect, a keyboard-only sign-in, a refused sign-in, sign-out through the
 * confirmation page, an HttpOnly session cookie, no console error or CSP violation on any page,
 * and screenshots of the sign-in page in light and dark mode (test-results/). Framing is in
 * framing.test.ts.
 */
import { mkdirSync, readFileSync, statSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { ERROR_PAGES, DEFAULT_ERROR_PAGE, DEFAULT_SIGNIN_ERROR, SIGNIN_ERRORS } from "../../lib/core/error-messages.js"
import { continueAs } from "./support/signin.js"
import { focusArrives, hasFocus, isFaviconNoise, isStatusLineFor, launchBrowser, openPage, signInWithoutForm, startExample, type ExampleServer, type Watched } from "./harness.js"

const RESULTS = fileURLToPath(new URL("../../test-results/", import.meta.url))
const SESSION_COOKIE = "authjs.session-token"
const HOSTILE = '"><img src=x onerror=alert(1)><script>alert(2)</script><%= 7*7 %>'
// The only credentials form says "Sign in", in the page's language (issue #26).
const CREDENTIALS_BUTTON = "Sign in"
const IDENTIFIER = "Email or username"

let server: ExampleServer
let browser: Browser
let origin: string
const open: Watched[] = []

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startExample(), launchBrowser()])
  origin = server.origin
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((watched) => watched.context.close()))
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function newPage(options: Parameters<typeof openPage>[1] = {}): Promise<Watched> {
  const watched = await openPage(browser, options)
  open.push(watched)
  return watched
}

const path = (page: Page) => new URL(page.url()).pathname

/** Console errors other than the favicon the example app does not serve. */
const realErrors = (watched: Watched) => watched.consoleErrors.filter((entry) => !isFaviconNoise(entry))

/**
 * Runs `submit` (which posts a form) and waits until the browser has settled on another URL: the
 * destination, or the page an error sent it to. Returns that URL, so a failure names where it went.
 */
async function submitAndSettle(page: Page, submit: () => Promise<void>): Promise<URL> {
  const before = page.url()
  await submit()
  await page.waitForURL((url) => url.href !== before)
  return new URL(page.url())
}

/** The route and the `error` value of a URL, to compare in one assertion. */
const where = (url: URL) => ({ path: url.pathname, error: url.searchParams.get("error") })

async function sessionCookie(watched: Watched) {
  return (await watched.context.cookies(origin)).find((cookie) => cookie.name === SESSION_COOKIE)
}

describe("signing in", () => {
  test("/dashboard sends a signed-out browser to the built-in sign-in page, with the dashboard as callbackUrl", async () => {
    const watched = await newPage()
    const { page } = watched
    await page.goto(`${origin}/dashboard`)
    await page.waitForURL((url) => url.pathname === "/auth/signin")
    const url = new URL(page.url())
    expect(url.searchParams.get("callbackUrl")).toBe(`${origin}/dashboard`)
    await page.getByRole("heading", { name: "Sign in" }).waitFor()
    // Identifier-first (issue #26): one field, then the password on step two.
    expect(await page.getByLabel(IDENTIFIER, { exact: true }).isVisible()).toBe(true)
    await continueAs(page, "demo")
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${origin}/dashboard`)
    expect(await page.getByLabel("Password", { exact: true }).getAttribute("type")).toBe("password")
    expect(realErrors(watched)).toEqual([])
    expect(watched.violations).toEqual([])
  })

  test("keyboard only: Tab to the labelled field, type demo, Enter; the password has the focus: type demo, Enter, and the browser ends on /dashboard", async () => {
    const watched = await newPage()
    const { page } = watched
    await page.goto(`${origin}/dashboard`)
    await page.waitForURL((url) => url.pathname === "/auth/signin")
    await page.getByRole("heading", { name: "Sign in" }).waitFor()

    // Step one: the identifier field comes first, then Continue, then the passkey button (it asks
    // for no address, issue #12).
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLInputElement | HTMLButtonElement | null
        return { form: element?.form ? new URL(element.form.getAttribute("action") ?? "", location.href).pathname : null, tag: element?.tagName, text: element?.tagName === "BUTTON" ? element.textContent : null }
      })
    await page.keyboard.press("Tab")
    expect(await hasFocus(page, IDENTIFIER)).toBe(true)
    await page.keyboard.press("Tab")
    expect(await focused()).toEqual({ form: "/auth/signin", tag: "BUTTON", text: "Continue" })
    await page.keyboard.press("Tab")
    expect(await focused()).toEqual({ form: "/auth/callback/passkey", tag: "BUTTON", text: "Sign in with a passkey" })
    await page.keyboard.press("Shift+Tab")
    await page.keyboard.press("Shift+Tab")
    await page.keyboard.type("demo")
    await Promise.all([page.waitForURL((url) => url.searchParams.get("login_hint") === "demo"), page.keyboard.press("Enter")])
    // Step two: the password field takes the focus.
    expect(await focusArrives(page.getByLabel("Password", { exact: true }))).toBe(true)
    await page.keyboard.type("demo")
    expect(await page.getByLabel("Password", { exact: true }).inputValue()).toBe("demo")
    const landed = await submitAndSettle(page, () => page.keyboard.press("Enter"))

    expect(where(landed)).toEqual({ path: "/dashboard", error: null })
    expect(landed.href).toBe(`${origin}/dashboard`)
    await page.getByRole("heading", { name: "Dashboard" }).waitFor()
    expect(await page.locator("body").innerText()).toContain("Demo User")
    expect(await sessionCookie(watched)).toBeDefined()
    expect(realErrors(watched)).toEqual([])
    expect(watched.violations).toEqual([])
    expect(watched.pageErrors).toEqual([])
  })

  test("the submit button is the next Tab stop after the password field", async () => {
    const { page } = await newPage()
    await page.goto(`${origin}/auth/signin?login_hint=demo`)
    await page.getByLabel("Password", { exact: true }).focus()
    await page.keyboard.press("Tab")
    const focused = await page.evaluate(() => ({ tag: document.activeElement?.tagName, text: document.activeElement?.textContent }))
    expect(focused.tag).toBe("BUTTON")
    expect(focused.text).toBe(CREDENTIALS_BUTTON)
  })

  test("a wrong password shows the CredentialsSignin message beside the password field and starts no session", async () => {
    const watched = await newPage()
    const { page } = watched
    await page.goto(`${origin}/dashboard`)
    await page.waitForURL((url) => url.pathname === "/auth/signin")
    await continueAs(page, "demo")
    await page.getByLabel("Password", { exact: true }).fill("not-the-password")
    const landed = await submitAndSettle(page, () => page.getByLabel("Password", { exact: true }).press("Enter"))

    expect(where(landed)).toEqual({ path: "/auth/signin", error: "CredentialsSignin" })
    expect(landed.searchParams.get("callbackUrl")).toBe(`${origin}/dashboard`)
    // The username comes back (step two again), the password does not.
    expect(landed.searchParams.get("login_hint")).toBe("demo")
    const alert = page.getByRole("alert")
    expect((await alert.innerText()).trim()).toBe(SIGNIN_ERRORS.CredentialsSignin)
    expect(await page.getByLabel("Password", { exact: true }).getAttribute("aria-invalid")).toBe("true")
    expect(await sessionCookie(watched)).toBeUndefined()
    expect(await page.getByLabel("Password", { exact: true }).inputValue()).toBe("")
    expect(await page.content()).not.toContain("not-the-password")
    expect(realErrors(watched)).toEqual([])
    expect(watched.violations).toEqual([])

    // The form still works from here, and still returns to the dashboard.
    await page.getByLabel("Password", { exact: true }).fill("demo")
    const next = await submitAndSettle(page, () => page.getByLabel("Password", { exact: true }).press("Enter"))
    expect(where(next)).toEqual({ path: "/dashboard", error: null })
  })

  test("an unknown user is refused with the same message", async () => {
    const { page } = await newPage()
    await page.goto(`${origin}/auth/signin`)
    await continueAs(page, "nobody")
    await page.getByLabel("Password", { exact: true }).fill("demo")
    const landed = await submitAndSettle(page, () => page.getByRole("button", { name: CREDENTIALS_BUTTON, exact: true }).click())
    expect(where(landed)).toEqual({ path: "/auth/signin", error: "CredentialsSignin" })
    expect((await page.getByRole("alert").innerText()).trim()).toBe(SIGNIN_ERRORS.CredentialsSignin)
  })
})

describe("signing out", () => {
  test("GET /auth/signout only asks; the confirmation button ends the session and /dashboard redirects to sign-in again", async () => {
    const watched = await newPage()
    const { page } = watched
    await signInWithoutForm(watched, origin)
    expect(await sessionCookie(watched)).toBeDefined()

    await page.goto(`${origin}/auth/signout`)
    await page.getByRole("heading", { name: "Sign out" }).waitFor()
    // Showing the confirmation page signs nobody out.
    expect(await sessionCookie(watched)).toBeDefined()
    await page.goto(`${origin}/dashboard`)
    expect(path(page)).toBe("/dashboard")

    await page.goto(`${origin}/auth/signout`)
    const landed = await submitAndSettle(page, () => page.getByRole("button", { name: "Sign out" }).click())
    expect(landed.searchParams.get("error")).toBeNull()
    expect(landed.origin).toBe(origin)
    expect(await sessionCookie(watched)).toBeUndefined()

    await page.goto(`${origin}/dashboard`)
    await page.waitForURL((url) => url.pathname === "/auth/signin")
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${origin}/dashboard`)
    await page.getByLabel(IDENTIFIER, { exact: true }).waitFor()
    expect(realErrors(watched)).toEqual([])
    expect(watched.violations).toEqual([])
  })

  test("signing out by keyboard: Tab to the button and press Enter", async () => {
    const watched = await newPage()
    const { page } = watched
    await signInWithoutForm(watched, origin)
    await page.goto(`${origin}/auth/signout`)
    await page.getByRole("heading", { name: "Sign out" }).waitFor()
    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Sign out")
    const landed = await submitAndSettle(page, () => page.keyboard.press("Enter"))
    expect(landed.searchParams.get("error")).toBeNull()
    expect(await sessionCookie(watched)).toBeUndefined()
  })
})

describe("the session cookie", () => {
  test("is HttpOnly: document.cookie does not show it, yet the browser sends it", async () => {
    const watched = await newPage()
    const { page } = watched
    await signInWithoutForm(watched, origin)
    await page.goto(`${origin}/dashboard`)
    expect(path(page)).toBe("/dashboard")
    const cookie = await sessionCookie(watched)
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: false })
    // The example keeps sessions in SQLite: the cookie is the 64-hex-character session token.
    expect(cookie!.value).toMatch(/^[0-9a-f]{64}$/)

    const visible = await page.evaluate(() => document.cookie)
    expect(visible).not.toContain(SESSION_COOKIE)
    expect(visible).not.toContain(cookie!.value)
    // No Gatehouse cookie is readable by scripts (CSRF and callback-url cookies included).
    expect(visible).not.toContain("authjs.")
    const ours = (await watched.context.cookies(origin)).filter((c) => c.name.startsWith("authjs."))
    expect(ours.length).toBeGreaterThan(1)
    for (const other of ours) expect([other.name, other.httpOnly]).toEqual([other.name, true])

    // Scripts cannot read it, but the browser still sends it with the page's requests.
    const session = await page.evaluate(async () => (await fetch("/auth/session")).json())
    expect(session).toMatchObject({ user: { name: "Demo User", email: "demo@example.com" } })
  })

  test("a script cannot overwrite it: a document.cookie write does not replace the HttpOnly cookie", async () => {
    const watched = await newPage()
    const { page } = watched
    await signInWithoutForm(watched, origin)
    await page.goto(`${origin}/dashboard`)
    const before = await sessionCookie(watched)
    await page.evaluate((name) => {
      document.cookie = `${name}=forged; path=/`
    }, SESSION_COOKIE)
    expect((await sessionCookie(watched))!.value).toBe(before!.value)
    await page.goto(`${origin}/dashboard`)
    expect(path(page)).toBe("/dashboard")
  })
})

describe("no console error and no CSP violation on any built-in page", () => {
  test("the violation listener works: a style the policy does not allow is reported (control)", async () => {
    const watched = await newPage()
    const { page } = watched
    await page.goto(`${origin}/auth/signin`)
    const reported = watched.nextViolation()
    await page.evaluate(() => {
      const style = document.createElement("style")
      style.textContent = "body{outline:1px solid red}"
      document.head.append(style)
    })
    const violation = await reported
    expect(violation.directive).toMatch(/^style-src/)
    expect(watched.violations).toHaveLength(1)
    // Chromium logs the refusal too.
    expect(realErrors(watched).some((entry) => /Content Security Policy/.test(entry.text))).toBe(true)
  })

  const PAGES: Array<{ name: string; path: string; status: number; heading: string; alert?: string }> = [
    { name: "sign-in", path: "/auth/signin", status: 200, heading: "Sign in" },
    { name: "sign-in with callbackUrl", path: "/auth/signin?callbackUrl=%2Fdashboard", status: 200, heading: "Sign in" },
    { name: "sign-in, CredentialsSignin", path: "/auth/signin?error=CredentialsSignin&code=credentials", status: 200, heading: "Sign in", alert: SIGNIN_ERRORS.CredentialsSignin },
    { name: "sign-in, SessionRequired", path: "/auth/signin?error=SessionRequired", status: 200, heading: "Sign in", alert: SIGNIN_ERRORS.SessionRequired },
    { name: "sign-in, MissingCSRF", path: "/auth/signin?error=MissingCSRF", status: 200, heading: "Sign in", alert: SIGNIN_ERRORS.MissingCSRF },
    { name: "sign-in, hostile error", path: `/auth/signin?error=${encodeURIComponent(HOSTILE)}`, status: 200, heading: "Sign in", alert: DEFAULT_SIGNIN_ERROR },
    { name: "sign-in, hostile callbackUrl", path: `/auth/signin?callbackUrl=${encodeURIComponent(`/${HOSTILE}`)}`, status: 200, heading: "Sign in" },
    { name: "sign-out", path: "/auth/signout", status: 200, heading: "Sign out" },
    { name: "error", path: "/auth/error", status: 200, heading: DEFAULT_ERROR_PAGE.heading },
    { name: "error, Configuration", path: "/auth/error?error=Configuration", status: 500, heading: ERROR_PAGES.Configuration!.heading },
    { name: "error, AccessDenied", path: "/auth/error?error=AccessDenied", status: 403, heading: ERROR_PAGES.AccessDenied!.heading },
    { name: "error, Verification", path: "/auth/error?error=Verification", status: 403, heading: ERROR_PAGES.Verification!.heading },
    { name: "error, hostile value", path: `/auth/error?error=${encodeURIComponent(HOSTILE)}`, status: 200, heading: DEFAULT_ERROR_PAGE.heading },
    { name: "verify-request", path: "/auth/verify-request", status: 200, heading: "Check your email" },
  ]

  async function visitAll(watched: Watched) {
    const { page } = watched
    for (const entry of PAGES) {
      watched.reset()
      const url = `${origin}${entry.path}`
      const response = await page.goto(url)
      expect([entry.name, response!.status()]).toEqual([entry.name, entry.status])
      const headers = response!.headers()
      expect([entry.name, headers["content-security-policy"]]).toEqual([entry.name, expect.stringContaining("default-src 'none'")])
      await page.getByRole("heading", { level: 1 }).waitFor()
      expect([entry.name, (await page.getByRole("heading", { level: 1 }).innerText()).trim()]).toEqual([entry.name, entry.heading])
      if (entry.alert) expect([entry.name, (await page.getByRole("alert").innerText()).trim()]).toEqual([entry.name, entry.alert])
      // The stylesheet was applied, so the policy's hash matched it in the browser too.
      const styled = await page.evaluate(() => getComputedStyle(document.body).display)
      expect([entry.name, styled]).toEqual([entry.name, "flex"])
      // Nothing from the query reached the DOM as markup.
      // The only script is the router's own passkey script, on sign-in pages (hostile input adds none).
      const scripts = await page.locator("script").evaluateAll((found) => found.map((script) => script.getAttribute("src")))
      expect([entry.name, scripts]).toEqual([entry.name, entry.path.startsWith("/auth/signin") ? [`${origin}/auth/assets/webauthn.js`] : []])
      expect([entry.name, await page.locator("img[src='x'], iframe, object, embed").count()]).toEqual([entry.name, 0])

      // Chromium logs a document's error status (500 Configuration, 403 AccessDenied/Verification,
      // as documented) as a "Failed to load resource" line: that is the status, not a page error.
      const errors = realErrors(watched).filter((line) => !(entry.status >= 400 && isStatusLineFor(line, url, entry.status)))
      expect([entry.name, errors]).toEqual([entry.name, []])
      expect([entry.name, watched.violations]).toEqual([entry.name, []])
      expect([entry.name, watched.pageErrors]).toEqual([entry.name, []])
      expect([entry.name, watched.dialogs]).toEqual([entry.name, []])
    }
  }

  test("signed out, light colour scheme", async () => {
    await visitAll(await newPage({ colorScheme: "light" }))
  })

  test("signed out, dark colour scheme", async () => {
    await visitAll(await newPage({ colorScheme: "dark" }))
  })

  test("signed in (the sign-out page with a session, the other pages too)", async () => {
    const watched = await newPage()
    await signInWithoutForm(watched, origin)
    await visitAll(watched)
    // Still signed in: no page visited ended the session.
    expect(await sessionCookie(watched)).toBeDefined()
  })

  test("the refused sign-in round trip (form POST, redirect, page with the message) is clean", async () => {
    const watched = await newPage()
    const { page } = watched
    await page.goto(`${origin}/auth/signin?login_hint=demo`)
    await page.getByLabel("Password", { exact: true }).fill("wrong")
    const landed = await submitAndSettle(page, () => page.getByRole("button", { name: CREDENTIALS_BUTTON, exact: true }).click())
    expect(where(landed)).toEqual({ path: "/auth/signin", error: "CredentialsSignin" })
    expect(realErrors(watched)).toEqual([])
    expect(watched.violations).toEqual([])
    expect(watched.pageErrors).toEqual([])
  })
})

describe("screenshots", () => {
  const SCHEMES = [
    { colorScheme: "light", background: "rgb(244, 244, 245)", card: "rgb(255, 255, 255)", text: "rgb(24, 24, 27)" },
    { colorScheme: "dark", background: "rgb(9, 9, 11)", card: "rgb(24, 24, 27)", text: "rgb(244, 244, 245)" },
  ] as const

  test.each(SCHEMES)("the sign-in page in $colorScheme mode follows prefers-color-scheme; saved to test-results/", async ({ colorScheme, background, card, text }) => {
    mkdirSync(RESULTS, { recursive: true })
    const watched = await newPage({ viewport: { width: 800, height: 720 } })
    const { page } = watched
    await page.emulateMedia({ colorScheme })
    await page.goto(`${origin}/auth/signin?error=CredentialsSignin&login_hint=demo`)
    await page.getByRole("button", { name: CREDENTIALS_BUTTON, exact: true }).waitFor()
    expect(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)).toBe(colorScheme === "dark")

    const colours = await page.evaluate(() => {
      const style = (selector: string) => getComputedStyle(document.querySelector(selector)!)
      return {
        background: style("body").backgroundColor,
        text: style("body").color,
        card: style(".card").backgroundColor,
        button: style("button").backgroundColor,
        buttonText: style("button").color,
      }
    })
    // The example's theme: brandColor #0f766e, default white button text, automatic scheme.
    expect(colours).toEqual({ background, text, card, button: "rgb(15, 118, 110)", buttonText: "rgb(255, 255, 255)" })

    const file = `${RESULTS}signin-${colorScheme}.png`
    await page.screenshot({ path: file, fullPage: true })
    expect(statSync(file).size).toBeGreaterThan(1000)
    expect(readFileSync(file).subarray(1, 4).toString("latin1")).toBe("PNG")
    expect(realErrors(watched)).toEqual([])
    expect(watched.violations).toEqual([])
  })
})
