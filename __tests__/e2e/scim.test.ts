/**
 * SCIM provisioning's pages in real Chromium (issue #29): the owner opens the organization page,
 * finds the endpoint to paste into the directory, creates a token with the form and is shown it
 * once on a page of its own (never in a URL), and gives a provisioned group a role. The token then
 * works against the organization's SCIM endpoint. The SCIM section and the token page are
 * photographed (1280x800 and 390x844, light and dark) and checked with axe-core (WCAG 2.2 AA).
 */
import express from "express"
import type { Page } from "playwright-core"
import { authRouter, authSession } from "gatehouse"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import Nodemailer from "gatehouse/providers/nodemailer"
import Password, { hashPassword } from "gatehouse/providers/password"
import { browserSuite } from "./harness.js"
import { describeGallery, galleryShot } from "./support/gallery.js"

const OWNER = { email: "owner@example.test", name: "Olivia Owner", password: "owner long passphrase 1" }
const ORG = "org-acme-scim"
const GROUP = "group-engineering"

const adapter = MemoryAdapter()
const config = {
  secret: "e2e-secret-scim-4c2b8e1f7a9d3c5b6e0f2a4d8c1b3e5f",
  adapter,
  providers: [Password({ sendMail: async () => undefined }), Nodemailer({ sendVerificationRequest: async () => undefined })],
  organizations: { roles: { member: { project: ["read"] }, admin: { project: ["read", "write"] } } },
  scim: true,
  theme: { appName: "Acme Projects" },
  logLevel: "silent" as const,
  rateLimit: false as const,
}
const app = express()
app.use("/auth", authRouter(config))
app.use(authSession(config))
const suite = browserSuite(app)

beforeAll(async () => {
  const owner = await adapter.createUser!({ id: "user-owner", email: OWNER.email, name: OWNER.name, emailVerified: new Date() })
  await adapter.setPasswordHash!(owner.id, await hashPassword(OWNER.password))
  await adapter.linkAccount!({ userId: owner.id, type: "credentials", provider: "password", providerAccountId: owner.id } as unknown as Parameters<NonNullable<typeof adapter.linkAccount>>[0])
  const now = new Date()
  await adapter.createOrganization!({ id: ORG, slug: "acme", name: "Acme", createdAt: now }, { organizationId: ORG, userId: owner.id, role: "owner", createdAt: now })
  // A group the directory pushed, waiting for a role.
  await adapter.createScimGroup!({ id: GROUP, organizationId: ORG, displayName: "Engineering", externalId: null, members: [], role: null, createdAt: now, updatedAt: now })
})

async function signIn(page: Page, back: string): Promise<void> {
  await page.goto(`${suite.origin}/auth/signin?${new URLSearchParams({ callbackUrl: back })}`)
  await page.getByLabel("Email", { exact: true }).fill(OWNER.email)
  await Promise.all([page.waitForURL((url) => url.searchParams.get("login_hint") === OWNER.email), page.getByRole("button", { name: "Continue", exact: true }).click()])
  await page.getByLabel("Password", { exact: true }).fill(OWNER.password)
  await Promise.all([page.waitForURL(back), page.getByRole("button", { name: "Sign in", exact: true }).click()])
}

test("an owner finds the SCIM endpoint, creates a token shown once, and maps a group to a role", async () => {
  const accessibility: Record<string, string> = {}
  const gallery = async (page: Page, name: string) => {
    const found = describeGallery(await galleryShot(page, name))
    if (found) accessibility[name] = found
  }
  const orgUrl = `${suite.origin}/auth/organization/acme`
  const owner = await suite.newPage({ locale: "en-US" })
  await signIn(owner.page, orgUrl)
  const endpoint = `${suite.origin}/auth/scim/v2/${ORG}`
  expect(await owner.page.locator("#scim-endpoint").inputValue()).toBe(endpoint)

  // A token: created by the form, shown once on its own page, never in the address bar.
  await owner.page.locator("#scim-token-name").fill("Okta")
  await Promise.all([owner.page.waitForLoadState("load"), owner.page.locator("#scim-token-create").click()])
  const token = await owner.page.locator("#scim-token-value").inputValue()
  expect(token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/)
  expect(owner.page.url()).not.toContain(token)
  expect(await owner.page.locator("#scim-token-endpoint").inputValue()).toBe(endpoint)
  await gallery(owner.page, "scim-token")
  const answer = await owner.context.request.get(`${endpoint}/ServiceProviderConfig`, { headers: { authorization: `Bearer ${token}`, accept: "application/scim+json" } })
  expect(answer.status()).toBe(200)
  expect(((await answer.json()) as { patch?: { supported?: boolean } }).patch?.supported).toBe(true)
  expect((await adapter.listScimTokens!(ORG)).map((stored) => stored.tokenHash)).not.toContain(token)

  // Back on the organization page: the token is listed by name; the group gets the admin role.
  await Promise.all([owner.page.waitForURL((url) => url.pathname === "/auth/organization/acme"), owner.page.locator("#scim-token-back").click()])
  await expect(owner.page.locator("#scim-tokens").innerText()).resolves.toContain("Okta")
  const roleSelect = owner.page.locator(`[id="scim-group-${GROUP}-role"]`)
  await roleSelect.selectOption("admin")
  await Promise.all([owner.page.waitForURL((url) => url.searchParams.has("saved") || url.searchParams.has("error")), owner.page.locator(`[id="scim-group-${GROUP}-role-save"]`).click()])
  expect(new URL(owner.page.url()).searchParams.get("error")).toBeNull()
  expect((await adapter.getScimGroup!(ORG, GROUP))?.role).toBe("admin")
  await owner.page.locator("#scim").scrollIntoViewIfNeeded()
  await gallery(owner.page, "organization-scim")
  expect(accessibility).toEqual({})
}, 300_000)
