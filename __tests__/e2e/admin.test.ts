/**
 * The admin and support tools in real Chromium (issue #30): an admin signs in, searches the user
 * list for part of a customer's address, opens the customer's page and views the site as them
 * (the app's own route sees the customer; every built-in page shows the banner naming them),
 * stops from the banner and is back on the customer's page as the admin, then bans the customer
 * with a reason and a duration. The customer, in a browser of their own, is refused at sign-in
 * with the "Account suspended" page. The user list, the user's page and a page with the banner are
 * photographed (1280x800 and 390x844, light and dark); those and the suspended page are checked
 * with axe-core (WCAG 2.2 AA).
 */
import express from "express"
import type { Page } from "playwright-core"
import { authRouter, authSession } from "gatehouse"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import Password, { hashPassword } from "gatehouse/providers/password"
import { browserSuite, complaintsOn, isStatusLineFor, type Watched } from "./harness.js"
import { axeViolations, describeGallery, describeViolations, galleryShot, VIEWPORTS, type AxeViolation } from "./support/gallery.js"

const ADMIN = { id: "user-admin", email: "avery.admin@example.test", name: "Avery Admin", password: "admin long passphrase 1" }
const CUSTOMER = { id: "user-casey", email: "casey.customer@example.test", name: "Casey Customer", password: "casey long passphrase 2" }
const BYSTANDER = { id: "user-robin", email: "robin.reader@example.test", name: "Robin Reader", password: "robin long passphrase 3" }
const WEEK_MS = 7 * 24 * 60 * 60 * 1000

const adapter = MemoryAdapter()
const config = {
  secret: "e2e-secret-admin-9e1c3a5b7d2f4e6a8c0b1d3f5a7c9e2b",
  adapter,
  providers: [Password({ sendMail: async () => undefined })],
  admin: { userIds: [ADMIN.id], impersonation: true },
  theme: { appName: "Acme Projects" },
  logLevel: "silent" as const,
  rateLimit: false as const,
}
const app = express()
app.use("/auth", authRouter(config))
app.use(authSession(config))
// The app's own pages: where an impersonation starts (its home), and what its routes see of the session.
app.get("/", (req, res) => {
  const who = req.auth ? `Signed in as ${req.auth.user?.email ?? ""}.` : "Signed out."
  res.type("html").send(`<!doctype html><html lang="en"><title>Acme Projects</title><main><h1>Acme Projects</h1><p id="who">${who}</p></main></html>`)
})
app.get("/whoami", (req, res) => {
  res.json(req.auth ? { email: req.auth.user?.email ?? null, impersonatedBy: req.auth.impersonatedBy ?? null } : null)
})
const suite = browserSuite(app)

beforeAll(async () => {
  for (const person of [ADMIN, CUSTOMER, BYSTANDER]) {
    const user = await adapter.createUser!({ id: person.id, email: person.email, name: person.name, emailVerified: new Date() })
    await adapter.setPasswordHash!(user.id, await hashPassword(person.password))
    await adapter.linkAccount!({ userId: user.id, type: "credentials", provider: "password", providerAccountId: user.id } as unknown as Parameters<NonNullable<typeof adapter.linkAccount>>[0])
  }
})

/**
 * Signs in on the sign-in page (one step: the password is the only method that takes an address),
 * asking to come back to `back`; resolves once the browser is where the sign-in led (`landed`).
 */
async function signIn(page: Page, person: typeof ADMIN, back: string, landed: (url: URL) => boolean): Promise<void> {
  await page.goto(`${suite.origin}/auth/signin?${new URLSearchParams({ callbackUrl: back })}`)
  await page.getByLabel("Email", { exact: true }).fill(person.email)
  await page.getByLabel("Password", { exact: true }).fill(person.password)
  await Promise.all([page.waitForURL(landed), page.getByRole("button", { name: "Sign in", exact: true }).click()])
}

type Seen = { email: string | null; impersonatedBy: { id: string; email: string | null } | null } | null

/** What the app's own route sees of this browser's session. */
async function whoami(watched: Watched): Promise<Seen> {
  const response = await watched.context.request.get(`${suite.origin}/whoami`, { headers: { accept: "application/json" } })
  expect(response.status()).toBe(200)
  return (await response.json()) as Seen
}

/** axe-core at both sizes, light and dark, without a screenshot (for a page the gallery already holds). */
async function axeEverywhere(page: Page): Promise<string> {
  const found: string[] = []
  for (const viewport of Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize(VIEWPORTS[viewport])
      await page.emulateMedia({ colorScheme: scheme })
      const violations: AxeViolation[] = await axeViolations(page)
      if (violations.length > 0) found.push(`[${viewport}-${scheme}]\n${describeViolations(violations)}`)
    }
  }
  return found.join("\n")
}

const userLinks = (page: Page) => page.locator("#admin-users a.admin-user-link")
const banner = (page: Page) => page.locator("#impersonation-banner")

test(
  "an admin finds a customer, views the site as them with the banner, stops from it, bans them, and the customer's sign-in is refused",
  async () => {
    // Pages checked with axe, by name; compared at the end so the journey goes on and every page is told.
    const accessibility: Record<string, string> = {}
    const gallery = async (page: Page, name: string) => {
      const found = describeGallery(await galleryShot(page, name))
      if (found) accessibility[name] = found
    }
    const listUrl = `${suite.origin}/auth/admin`
    const customerPath = `/auth/admin/${CUSTOMER.id}`

    // 1. The admin signs in and lands on the user list: everyone, with the search form.
    const admin = await suite.newPage({ locale: "en-US" })
    await signIn(admin.page, ADMIN, listUrl, (url) => url.href === listUrl)
    expect(await admin.page.locator("h1#admin-title").innerText()).toBe("Users")
    expect(await userLinks(admin.page).allInnerTexts()).toEqual(expect.arrayContaining([ADMIN.email, CUSTOMER.email, BYSTANDER.email]))
    await gallery(admin.page, "admin-list")

    // 2. Part of the customer's address in the search field: the list narrows to them.
    await admin.page.getByLabel("Search by email address, name or user id").fill("casey.cust")
    await Promise.all([admin.page.waitForURL((url) => url.searchParams.get("search") === "casey.cust"), admin.page.getByRole("button", { name: "Search users" }).click()])
    expect(await admin.page.locator("#admin-users-heading").innerText()).toBe("Users matching “casey.cust”")
    expect(await userLinks(admin.page).allInnerTexts()).toEqual([CUSTOMER.email])

    // 3. The customer's page: their name, address, and the forms.
    await Promise.all([admin.page.waitForURL((url) => url.pathname === customerPath), userLinks(admin.page).first().click()])
    expect(await admin.page.locator("h1#admin-user-name").innerText()).toBe(CUSTOMER.name)
    expect(await admin.page.locator("#admin-user-summary").innerText()).toContain(CUSTOMER.email)
    expect(await admin.page.getByLabel("Email address", { exact: true }).inputValue()).toBe(CUSTOMER.email)
    expect(await admin.page.locator("#admin-ban-state").innerText()).toBe("This user is not banned.")
    expect(await banner(admin.page).count()).toBe(0)
    await gallery(admin.page, "admin-user")

    // 4. Viewing the site as the customer: the app's home, where the app sees the customer.
    await Promise.all([admin.page.waitForURL(`${suite.origin}/`), admin.page.getByRole("button", { name: "View the site as this user" }).click()])
    expect(await admin.page.locator("#who").innerText()).toBe(`Signed in as ${CUSTOMER.email}.`)
    expect(await whoami(admin)).toMatchObject({ email: CUSTOMER.email, impersonatedBy: { id: ADMIN.id, email: ADMIN.email } })

    // A built-in page (the account page) shows the customer's account, with the banner naming them.
    await admin.page.goto(`${suite.origin}/auth/account`)
    await banner(admin.page).waitFor()
    expect(await banner(admin.page).getAttribute("aria-label")).toBe("Viewing as another user")
    expect(await admin.page.locator("#impersonation-banner-text").innerText()).toBe(`You are viewing the site as ${CUSTOMER.email}.`)
    expect(await admin.page.locator("#impersonation-banner-ends").innerText()).toMatch(/^Until .*\d/)
    await gallery(admin.page, "admin-impersonation")

    // 5. The banner's stop button: back on the customer's admin page as the admin, no banner.
    await Promise.all([
      admin.page.waitForURL((url) => url.pathname === customerPath && url.searchParams.get("saved") === "stop-impersonating"),
      banner(admin.page).getByRole("button", { name: "Stop viewing as this user" }).click(),
    ])
    expect(await admin.page.locator("#admin-status").innerText()).toBe("You stopped viewing the site as this user.")
    expect(await banner(admin.page).count()).toBe(0)
    expect(await whoami(admin)).toEqual({ email: ADMIN.email, impersonatedBy: null })

    // 6. The ban: a reason, a week in the duration select, and the page shows it.
    await admin.page.getByLabel("Reason (optional, for administrators)").fill("Chargeback fraud")
    await admin.page.getByLabel("How long").selectOption({ label: "1 week" })
    const beforeBan = Date.now()
    await Promise.all([admin.page.waitForURL((url) => url.pathname === customerPath && url.searchParams.get("saved") === "ban"), admin.page.getByRole("button", { name: "Ban this user" }).click()])
    const afterBan = Date.now()
    expect(await admin.page.locator("#admin-status").innerText()).toBe("The user was banned and signed out everywhere.")
    expect(await admin.page.locator("#admin-user-banned").innerText()).toBe("Banned")
    expect(await admin.page.locator("#admin-ban-reason").innerText()).toBe("Reason: Chargeback fraud")
    expect(await admin.page.locator("#admin-ban-state").innerText()).toMatch(/^Banned since .*\d.*Until .*\d/s)
    expect(await admin.page.getByRole("button", { name: "Lift the ban" }).count()).toBe(1)
    // A banned user is not offered for impersonation.
    expect(await admin.page.locator("#admin-impersonate-form").count()).toBe(0)
    // The week picked in the select is the ban's length.
    const ban = await adapter.getUserBan!(CUSTOMER.id)
    expect(ban?.expires?.getTime()).toBeGreaterThanOrEqual(beforeBan + WEEK_MS - 1000)
    expect(ban?.expires?.getTime()).toBeLessThanOrEqual(afterBan + WEEK_MS + 1000)

    // The list marks the customer banned.
    await Promise.all([admin.page.waitForURL(listUrl), admin.page.getByRole("link", { name: "Back to the user list" }).click()])
    expect(await admin.page.locator("#admin-users > li", { hasText: CUSTOMER.email }).innerText()).toContain("Banned")

    // 7. The customer, in a browser of their own: the right password, and the account is suspended.
    const customer = await suite.newPage({ locale: "en-US" })
    const home = `${suite.origin}/`
    await signIn(customer.page, CUSTOMER, home, (url) => url.pathname !== "/auth/signin" || url.searchParams.has("error"))
    await customer.page.getByRole("heading", { name: "Account suspended" }).waitFor()
    const refusal = new URL(customer.page.url())
    expect({ path: refusal.pathname, error: refusal.searchParams.get("error") }).toEqual({ path: "/auth/error", error: "UserBanned" })
    expect(await customer.page.locator("main").innerText()).toContain("This account has been suspended, so you cannot sign in.")
    expect(await whoami(customer)).toBeNull()
    const suspended = await axeEverywhere(customer.page)
    if (suspended) accessibility["suspended"] = suspended
    const suspendedUrl = customer.page.url()

    // No page complained (the suspended page's own status line aside).
    for (const watched of [admin, customer]) {
      const complaints = complaintsOn(watched, suite.origin)
      complaints.consoleErrors = complaints.consoleErrors.filter((entry) => !isStatusLineFor(entry, suspendedUrl, 403))
      expect(complaints).toEqual({ consoleErrors: [], violations: [], pageErrors: [], dialogs: [] })
    }
    expect(accessibility).toEqual({})
  },
  300_000,
)
