/**
 * Bot protection in real Chromium (issue #33). With JavaScript on, a person opens the sign-up
 * page and fills in an address and a password, which starts ALTCHA's proof of work
 * (`auto="onfocus"`); once the widget has solved it (its hidden `altcha` field filled, its box
 * ticked in the page's words), the person creates the account: the page says a mail was sent and
 * the mail arrives (a real SMTP sink). The page with the widget is
 * photographed (1280x800 and 390x844, light and dark) and checked with axe-core, and nothing on it
 * complains (no console error, no CSP violation: the widget's styles, script, challenge and
 * workers all fit the page's policy). With JavaScript off, the page explains why the form needs
 * it (and links to the app's other way when `noScriptUrl` is set); sending the form anyway is
 * refused in the page's words, and no account is made, no mail sent.
 */
import express from "express"
import request from "supertest"
import type { Page } from "playwright-core"
import { authRouter } from "gatehouse"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import Nodemailer from "gatehouse/providers/nodemailer"
import Password from "gatehouse/providers/password"
import { RECAPTCHA_SCRIPT } from "../../lib/bot-protection/widget.js"
import { startSmtp } from "../helpers/smtp.js"
import { browserSuite, complaintsOn } from "./harness.js"
import { describeGallery, galleryShot } from "./support/gallery.js"

const NO_SCRIPT_URL = "https://example.com/contact?topic=signup"
const NO_JS = "This form uses JavaScript to check that you are not a robot, and JavaScript is off in this browser. Turn it on and reload the page."
const REFUSED = "Please confirm you are not a robot, then try again."

const smtp = await startSmtp()
const adapter = MemoryAdapter()
/** The Password provider mailing to the sink, ALTCHA on its default doors (cheap challenges: a moment's work). */
function botApp(botProtection: Record<string, unknown>): express.Express {
  const config = {
    secret: "e2e-secret-bot-protection-4d2c8e1a6b9f3d5c7e0a2b4c",
    adapter,
    providers: [Password({ email: Nodemailer({ server: smtp.url, from: "auth@example.test" }) })],
    botProtection: { altcha: { cost: 50, maxCost: 800 }, ...botProtection },
    logLevel: "silent" as const,
    rateLimit: false as const,
  }
  const app = express()
  app.use("/auth", authRouter(config))
  return app
}

// One site: /auth with the plain note, /other/auth with the note's link to the app's other way.
const app = express()
app.use(botApp({}))
app.use("/other", botApp({ noScriptUrl: NO_SCRIPT_URL }))
const suite = browserSuite(app)

afterAll(async () => {
  await smtp.close()
})

const widget = (page: Page) => page.locator("altcha-widget")
/** The hidden field the widget fills with its answer (base64 JSON) once the work is done. */
const answer = (page: Page) => page.locator('form input[type="hidden"][name="altcha"]')

test("with JavaScript: the sign-up page's ALTCHA widget is solved, the account is made and the mail arrives; the page is clean and accessible", async () => {
  const email = "wren.walker@example.com"
  const watched = await suite.newPage({ locale: "en-US" })
  const { page } = watched
  await page.goto(`${suite.origin}/auth/signup`)
  expect(await page.locator("h1").innerText()).toBe("Create an account")
  // The widget came alive (its checkbox drawn by the script from bot-widget), in the page's words,
  // styled by its stylesheet from bot-widget?css (the page allows no inline style).
  const checkbox = widget(page).getByRole("checkbox", { name: "I'm not a robot" })
  await checkbox.waitFor()
  expect(await checkbox.evaluate((element) => getComputedStyle(element).appearance)).toBe("none")

  const shots = describeGallery(await galleryShot(page, "bot-protection-signup"))
  expect(shots).toBe("")

  // Typing in the form starts the proof of work (auto="onfocus"); done, the widget's answer is in the form.
  await page.getByLabel("Email", { exact: true }).fill(email)
  await page.getByLabel("Password", { exact: true }).fill("wren long passphrase 7")
  await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('form input[name="altcha"]')?.value ?? "") !== "")
  expect(await answer(page).inputValue()).toMatch(/^[A-Za-z0-9+/]{40,}={0,2}$/)
  const checked = widget(page).getByRole("checkbox", { name: "Checked: you are not a robot" })
  expect(await checked.isChecked()).toBe(true)

  const sent = smtp.messages.length
  await page.getByRole("button", { name: "Create account", exact: true }).click()
  await page.getByText(`Check your email. We sent a message to ${email}; follow it to continue.`).waitFor()
  const mail = (await smtp.waitFor(sent + 1))[sent]!
  expect(mail.envelope.to).toEqual([email])
  expect(await adapter.getUserByEmail!(email)).not.toBeNull()

  expect(complaintsOn(watched, suite.origin)).toEqual({ consoleErrors: [], violations: [], pageErrors: [], dialogs: [] })
}, 120_000)

describe("without JavaScript", () => {
  test("the sign-up page says why the form needs JavaScript and whom to ask; sending it anyway is refused in its words, no account, no mail", async () => {
    const email = "nojs.nell@example.com"
    const watched = await suite.newPage({ locale: "en-US", javaScriptEnabled: false })
    const { page } = watched
    await page.goto(`${suite.origin}/auth/signup`)
    const note = page.locator("form .bot-challenge p.notice")
    expect(await note.innerText()).toBe(`${NO_JS} If you can't turn JavaScript on, contact this site's support team and they will help you.`)
    expect(await note.getByRole("link").count()).toBe(0)

    const sent = smtp.messages.length
    await page.getByLabel("Email", { exact: true }).fill(email)
    await page.getByLabel("Password", { exact: true }).fill("nell long passphrase 8")
    await Promise.all([page.waitForLoadState("load"), page.getByRole("button", { name: "Create account", exact: true }).click()])
    await page.getByText(REFUSED).waitFor()
    expect(new URL(page.url()).pathname).toBe("/auth/signup")
    // The form is there again, with the note, for another try once JavaScript is on.
    expect(await note.count()).toBe(1)
    expect(await adapter.getUserByEmail!(email)).toBeNull()
    expect(smtp.messages.length).toBe(sent)
  })

  test("with noScriptUrl, the note links to the app's other way", async () => {
    const watched = await suite.newPage({ locale: "en-US", javaScriptEnabled: false })
    const { page } = watched
    await page.goto(`${suite.origin}/other/auth/signup`)
    const link = page.locator("form .bot-challenge p.notice").getByRole("link", { name: "Can't turn JavaScript on? Continue another way." })
    expect(await link.getAttribute("href")).toBe(NO_SCRIPT_URL)
  })
})

test("with reCAPTCHA v3, GET bot-widget serves the script that puts Google's token in the form", async () => {
  const config = {
    secret: "e2e-secret-bot-protection-recaptcha-8a1c3e5f7b9d",
    adapter: MemoryAdapter(),
    providers: [Password({ sendMail: async () => undefined })],
    botProtection: { provider: { recaptcha: { siteKey: "site-key", secret: "secret-key" } } },
    logLevel: "silent" as const,
  }
  const vendorApp = express()
  vendorApp.use("/auth", authRouter(config))
  const response = await request(vendorApp).get("/auth/bot-widget").expect(200)
  expect(response.headers["content-type"]).toBe("text/javascript; charset=utf-8")
  expect(response.text).toBe(RECAPTCHA_SCRIPT)
})
