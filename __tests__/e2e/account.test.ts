/**
 * The account page (issue #15) in real Chromium, the journey the issue asks for, on the SQL
 * adapter over the real PostgreSQL (tables of this run's own prefix), a real SMTP sink and the
 * local OpenID provider of examples/oauth (support/account-app.ts): a person signs in with a magic
 * link (password-less), connects the OpenID provider and disconnects it, adds a passkey (virtual
 * authenticator), signs in with that passkey in a second browser, sees that device in the list,
 * signs it out from the first browser (the second then reads as signed out), changes the email
 * address through the link mailed to the new one, and deletes the account with the keyboard: no
 * row is left in any of Gatehouse's tables. Screenshots of the page (light, dark, 390 px wide) go
 * to test-results/. Then a basic accessibility check without extra packages: every control has an
 * accessible name in Chromium's accessibility tree, the headings are in order, text contrast is
 * WCAG AA in light and dark, Tab alone reaches every action in the page's order with a visible
 * focus outline, and the name is changed with the keyboard only.
 */
import { mkdirSync } from "node:fs"
import type { Browser, Page } from "playwright-core"
import { linkIn } from "../helpers/smtp.js"
import { addVirtualAuthenticator, complaintsOn, launchBrowser, openPage, type Watched } from "./harness.js"
import { LOCAL_PROVIDER, startAccountApp, type AccountApp } from "./support/account-app.js"
import { atLocalIdpLogin, logInAtLocalIdp } from "./support/oauth-example.js"

/** The whole journey is one test (each step needs the one before); it takes about 35 s on a busy machine. */
const JOURNEY_TIMEOUT = 150_000
const EMAIL = "curie@example.com"
const NEW_EMAIL = "marie.curie@example.com"
let app: AccountApp
let browser: Browser
let origin: string
let accountUrl: string
const open: Watched[] = []

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startAccountApp(), launchBrowser()])
  origin = app.origin
  accountUrl = `${origin}/auth/account`
  mkdirSync("test-results", { recursive: true })
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((watched) => watched.context.close()))
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

async function newContext(options: Parameters<typeof openPage>[1] = {}): Promise<Watched> {
  const watched = await openPage(browser, options)
  open.push(watched)
  return watched
}

/** Who the context is signed in as (GET /api/me), or null. */
async function signedInAs(watched: Watched): Promise<string | null> {
  const response = await watched.context.request.get(`${origin}/api/me`, { headers: { accept: "application/json" }, maxRedirects: 0 })
  if (response.status() !== 200) return null
  return ((await response.json()) as { user?: { email?: string } }).user?.email ?? null
}

/** The newest mail to `to` that arrives after `before` mails, and the link in it. */
async function mailedLink(to: string, before: number): Promise<URL> {
  const mails = await app.smtp.waitFor(before + 1)
  const mail = mails.slice(before).find((received) => received.envelope.to.includes(to))
  if (!mail) throw new Error(`no mail to ${to}`)
  return linkIn(mail)
}

/**
 * A magic link asked for with the email sign-in form's POST (through the context's request API,
 * which shares the browser's cookies: the subject here is the account page, not the sign-in page;
 * __tests__/e2e/pages.test.ts drives that), through the SMTP sink, opened and confirmed in the
 * browser: signed in, on `callbackUrl`.
 */
async function signInByLink(page: Page, email: string, callbackUrl: string) {
  const before = app.smtp.messages.length
  const api = page.context().request
  const { csrfToken } = (await (await api.get(`${origin}/auth/csrf`)).json()) as { csrfToken: string }
  const asked = await api.post(`${origin}/auth/signin/nodemailer`, { form: { csrfToken, email, callbackUrl }, maxRedirects: 0 })
  expect(new URL(asked.headers().location!, origin).pathname).toBe("/auth/verify-request")
  await page.goto((await mailedLink(email, before)).href)
  await page.locator('form[method="post"] button[type="submit"]').first().click()
  await page.waitForURL((url) => url.href === callbackUrl)
}

const section = (page: Page, id: string) => page.locator(`section[aria-labelledby=${id}]`)
const devices = (page: Page) => section(page, "account-devices").locator(".device")
const removePasskeyButtons = (page: Page) => section(page, "account-passkeys").getByRole("button", { name: /^Remove passkey/ })

/** No console error, CSP violation, page error or dialog on the site's own pages. */
function expectClean(watched: Watched) {
  const ours = complaintsOn(watched, origin)
  expect(ours.consoleErrors).toEqual([])
  expect(ours.violations).toEqual([])
  expect(ours.pageErrors).toEqual([])
  expect(ours.dialogs).toEqual([])
}

test("magic link, connect and disconnect the OpenID provider, add a passkey, a second browser signs in with it and is signed out from the first, change the email, delete by keyboard: no row left in PostgreSQL", async () => {
  const first = await newContext({ viewport: { width: 390, height: 1000 } })
  const authenticator = await addVirtualAuthenticator(first.page)
  const { page } = first
  await signInByLink(page, EMAIL, accountUrl)
  await page.getByRole("heading", { name: "Your account" }).waitFor()
  await section(page, "account-profile").getByText(EMAIL).waitFor()
  const user = (await app.adapter.getUserByEmail(EMAIL))!

  // Connect the local OpenID provider (its demo account has another email: the signed-in user links it).
  const methods = section(page, "account-methods")
  expect(await methods.getByText(`${LOCAL_PROVIDER}: Not connected`).count()).toBe(1)
  await methods.getByRole("button", { name: `Connect ${LOCAL_PROVIDER}` }).click()
  await page.waitForURL(atLocalIdpLogin(app.idpIssuer))
  await logInAtLocalIdp(page, "demo")
  await page.waitForURL((url) => url.origin === origin && url.pathname === "/auth/account")
  await methods.getByRole("button", { name: `Disconnect ${LOCAL_PROVIDER}` }).waitFor()
  expect(await methods.getByText(`${LOCAL_PROVIDER}: Connected`).count()).toBe(1)
  expect((await app.adapter.listAccountsByUserId(user.id)).map((account) => account.provider)).toContain("local")
  expect(await signedInAs(first)).toBe(EMAIL)

  // Disconnect it.
  await methods.getByRole("button", { name: `Disconnect ${LOCAL_PROVIDER}` }).click()
  await page.waitForURL((url) => url.pathname === "/auth/account" && url.searchParams.get("saved") === "unlink")
  await methods.getByRole("button", { name: `Connect ${LOCAL_PROVIDER}` }).waitFor()
  expect((await app.adapter.listAccountsByUserId(user.id)).map((account) => account.provider)).not.toContain("local")

  // Add a passkey: the set-up page's ceremony, then back to the account page.
  expect(await section(page, "account-passkeys").getByText("You have no passkey yet.").count()).toBe(1)
  await page.getByRole("link", { name: "Add a passkey" }).click()
  await page.waitForURL((url) => url.pathname === "/auth/passkey-setup")
  await page.getByRole("button", { name: "Create a passkey" }).click()
  await page.waitForURL((url) => url.pathname === "/auth/account")
  const [stored] = await app.adapter.listAuthenticatorsByUserId(user.id)
  expect(stored).toBeDefined()
  expect(await removePasskeyButtons(page).count()).toBe(1)

  // It is named after the browser that made it; rename it with the plain form.
  const passkeys = section(page, "account-passkeys")
  await passkeys.getByText("Chrome on Linux", { exact: true }).waitFor()
  expect(await passkeys.getByText("Not used to sign in yet").count()).toBe(1)
  await passkeys.getByLabel("Name of this passkey").fill("Work laptop")
  await passkeys.getByRole("button", { name: "Rename", exact: true }).click()
  await page.waitForURL((url) => url.pathname === "/auth/account" && url.searchParams.get("saved") === "passkey-rename")
  await passkeys.getByText("Work laptop", { exact: true }).waitFor()
  expect((await app.adapter.getAuthenticator(stored!.credentialID))?.name).toBe("Work laptop")

  // A second browser with the same passkey (copied to its own authenticator) signs in with it.
  const second = await newContext()
  const other = await addVirtualAuthenticator(second.page)
  await other.addCredential((await authenticator.credentials())[0]!)
  await second.page.goto(`${origin}/auth/signin`, { waitUntil: "commit" })
  await second.page.waitForURL((url) => url.pathname !== "/auth/signin")
  expect(await signedInAs(second)).toBe(EMAIL)

  // The first browser sees two devices (and the passkey's last use), signs the other out, and the second reads as signed out.
  await page.goto(accountUrl)
  expect(await passkeys.getByText(/Last used /).count()).toBe(1)
  expect((await app.adapter.getAuthenticator(stored!.credentialID))?.lastUsedAt).toBeInstanceOf(Date)
  expect(await devices(page).count()).toBe(2)
  expect(await devices(page).filter({ has: page.locator(".account-badge", { hasText: "This device" }) }).count()).toBe(1)
  await devices(page).filter({ hasNot: page.locator(".account-badge", { hasText: "This device" }) }).getByRole("button", { name: "Sign out this device" }).click()
  await page.waitForURL((url) => url.pathname === "/auth/account")
  expect(await devices(page).count()).toBe(1)
  expect(await signedInAs(second)).toBeNull()
  expect(await signedInAs(first)).toBe(EMAIL)

  // Change the email: the link goes to the new address; until it is used, the old one stays.
  const before = app.smtp.messages.length
  await page.getByLabel("New email address").fill(NEW_EMAIL)
  await page.getByRole("button", { name: "Email me a confirmation link" }).click()
  await page.waitForURL((url) => url.pathname === "/auth/account" && url.searchParams.get("saved") === "email")
  const link = await mailedLink(NEW_EMAIL, before)
  expect((await app.adapter.getUser(user.id))?.email).toBe(EMAIL)
  await page.goto(link.href)
  await page.getByRole("button", { name: `Use ${NEW_EMAIL} for my account` }).click()
  await page.waitForURL((url) => url.pathname === "/auth/account" && url.searchParams.get("saved") === "confirm-email")
  await section(page, "account-profile").getByText(NEW_EMAIL).waitFor()
  expect((await app.adapter.getUser(user.id))?.email).toBe(NEW_EMAIL)
  expect(await signedInAs(first)).toBe(NEW_EMAIL)

  // Screenshots: light at 390 px, then dark, then dark at desktop width.
  await page.goto(accountUrl)
  await page.screenshot({ path: "test-results/account-light-390.png", fullPage: true })
  await page.emulateMedia({ colorScheme: "dark" })
  await page.screenshot({ path: "test-results/account-dark-390.png", fullPage: true })
  await page.setViewportSize({ width: 1024, height: 1000 })
  await page.screenshot({ path: "test-results/account-dark.png", fullPage: true })
  expectClean(first)

  // Delete, keyboard only: the confirmation box (Space), then the button (Tab, Enter).
  const rowsBefore = await app.rowCounts()
  expect(rowsBefore).toMatchObject({ users: 1, sessions: 1, authenticators: 1 })
  await page.getByLabel("I understand that this cannot be undone").focus()
  await page.keyboard.press("Space")
  await page.keyboard.press("Tab")
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Delete my account")
  await page.keyboard.press("Enter")
  await page.waitForURL((url) => !url.pathname.startsWith("/auth/account"))
  expect(await signedInAs(first)).toBeNull()
  const rowsAfter = await app.rowCounts()
  expect(Object.keys(rowsAfter)).toEqual(expect.arrayContaining(["users", "accounts", "sessions", "authenticators", "verification_tokens"]))
  expect(Object.entries(rowsAfter).filter(([, count]) => count > 0)).toEqual([])
}, JOURNEY_TIMEOUT)

// ---------------------------------------------------------------------------------------------
// Accessibility, basic and automated (no extra package): names, headings, contrast, keyboard.

interface AxNode {
  role?: { value?: string }
  name?: { value?: string }
  ignored?: boolean
}

/** The controls of Chromium's accessibility tree (CDP Accessibility domain) and the names it computed. */
async function controlNames(page: Page): Promise<Array<{ role: string; name: string }>> {
  const cdp = await page.context().newCDPSession(page)
  try {
    const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as { nodes: AxNode[] }
    const controls = new Set(["textbox", "button", "checkbox", "link", "combobox", "radio"])
    return nodes.filter((node) => !node.ignored && controls.has(node.role?.value ?? "")).map((node) => ({ role: node.role!.value!, name: String(node.name?.value ?? "").trim() }))
  } finally {
    await cdp.detach()
  }
}

/** Every element with text of its own whose colour against its background is below WCAG AA (4.5:1, or 3:1 for large text). */
async function lowContrast(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const parse = (value: string) => {
      const parts = /rgba?\(([^)]+)\)/.exec(value)?.[1]?.split(/[ ,/]+/).filter(Boolean).map(Number)
      if (!parts) throw new Error(`unexpected colour ${value}`)
      return { r: parts[0]!, g: parts[1]!, b: parts[2]!, a: parts[3] ?? 1 }
    }
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const channel = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4)
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }
    /** The opaque colour behind `element`: its own and its ancestors' backgrounds, blended over white. */
    const background = (element: Element | null): { r: number; g: number; b: number } => {
      const layers: Array<ReturnType<typeof parse>> = []
      for (let at = element; at; at = at.parentElement) layers.push(parse(getComputedStyle(at).backgroundColor))
      return layers.reverse().reduce((under, over) => ({ r: over.r * over.a + under.r * (1 - over.a), g: over.g * over.a + under.g * (1 - over.a), b: over.b * over.a + under.b * (1 - over.a) }), { r: 255, g: 255, b: 255 })
    }
    const failures: string[] = []
    for (const element of Array.from(document.querySelectorAll("main *"))) {
      const ownText = Array.from(element.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== "")
      if (!ownText) continue
      const style = getComputedStyle(element)
      const size = parseFloat(style.fontSize)
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700)
      const [l1, l2] = [luminance(parse(style.color)), luminance(background(element))].sort((a, b) => b - a) as [number, number]
      const ratio = (l1 + 0.05) / (l2 + 0.05)
      if (ratio < (large ? 3 : 4.5)) failures.push(`${element.tagName.toLowerCase()} "${element.textContent!.trim().slice(0, 40)}": ${ratio.toFixed(2)}`)
    }
    return failures
  })
}

/** What has keyboard focus, as a person would name it, and whether a focus outline shows. */
async function focused(page: Page): Promise<{ name: string; outlined: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null
    if (!element || element === document.body) return { name: "", outlined: false }
    const style = getComputedStyle(element)
    const label = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : undefined
    const name = (label ?? element.textContent ?? "").trim()
    return { name: `${element.tagName.toLowerCase()}:${name}`, outlined: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2 }
  })
}

test("accessibility: every control has a name, headings in order, AA contrast in light and dark, every action reached and used by keyboard alone", async () => {
  const watched = await newContext({ viewport: { width: 390, height: 1000 } })
  const { page } = watched
  await signInByLink(page, "a11y@example.com", accountUrl)
  const user = (await app.adapter.getUserByEmail("a11y@example.com"))!

  const controls = await controlNames(page)
  expect(controls.length).toBeGreaterThanOrEqual(8)
  expect(controls.filter((control) => control.name === "")).toEqual([])
  expect(controls).toEqual(
    expect.arrayContaining([
      { role: "textbox", name: "Name" },
      { role: "textbox", name: "New email address" },
      { role: "checkbox", name: "I understand that this cannot be undone" },
      { role: "button", name: "Delete my account" },
    ]),
  )
  const headings = await page.locator("h1, h2, h3, h4").evaluateAll((elements) => elements.map((element) => Number(element.tagName[1])))
  expect(headings[0]).toBe(1)
  expect(headings.filter((level) => level === 1)).toHaveLength(1)
  headings.slice(1).forEach((level, index) => expect(level - headings[index]!).toBeLessThanOrEqual(1))

  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await lowContrast(page)).toEqual([])
  }

  // Tab from the top: the actions come in the page's order, each with a visible focus outline.
  const order: string[] = []
  await page.locator("body").focus()
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab")
    const now = await focused(page)
    if (now.name === "" || order.includes(now.name)) break
    expect({ name: now.name, outlined: now.outlined }).toEqual({ name: now.name, outlined: true })
    order.push(now.name)
  }
  const expected = [
    "input:Name",
    "button:Save name",
    "input:New email address",
    "button:Email me a confirmation link",
    "a:Add a passkey",
    `button:Connect ${LOCAL_PROVIDER}`,
    "input:I understand that this cannot be undone",
    "button:Delete my account",
  ]
  expect(order.filter((name) => expected.includes(name))).toEqual(expected)

  // Change the name with the keyboard only: Tab to the field, type, Enter.
  // (The header's links and the section navigation come first.)
  await page.locator("body").focus()
  for (let i = 0; i < 12 && (await focused(page)).name !== "input:Name"; i++) await page.keyboard.press("Tab")
  expect((await focused(page)).name).toBe("input:Name")
  await page.keyboard.press("ControlOrMeta+A")
  await page.keyboard.type("Marie")
  await page.keyboard.press("Enter")
  await page.waitForURL((url) => url.searchParams.get("saved") === "name")
  expect((await page.getByRole("status").innerText()).trim()).toBe("Saved.")
  expect((await app.adapter.getUser(user.id))?.name).toBe("Marie")
  expectClean(watched)
}, JOURNEY_TIMEOUT)
