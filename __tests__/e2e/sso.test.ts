/**
 * Enterprise sign-in through the SAML POST binding in real Chromium (issue #28). The identity
 * provider is `samlp` (../sso/support/saml-idp.ts, keys made at test time) on a server of its own
 * at http://localhost:<port>, another site than the app's http://127.0.0.1:<port>: its answer is
 * the HTML form that posts itself to our ACS, cross-site, as a real IdP's does. The domain's TXT
 * record is served by a real DNS server on 127.0.0.1 (../sso/support/dns-server.ts).
 * 1. The owner signs in with a password, creates Acme, adds a SAML connection on the
 *    organization page (entity id, SSO URL, certificate), gives it the IdP's ACS URL and entity id
 *    from the page, maps a group to a role, adds acme.test, publishes the TXT record the page
 *    names and verifies the domain.
 * 2. The employee, in a browser of their own: "Sign in with SSO" on the sign-in page, their
 *    address, the IdP, the auto-posted answer; signed in on the app's page, in Acme with the mapped
 *    role, which the account page lists.
 * 3. The owner turns on enforcement for acme.test: the employee's second step of the sign-in page
 *    offers "Continue with SSO" only, which signs them in.
 * The SSO entry page, the organization page with its SSO section and the enforced sign-in step are
 * photographed (1280x800 and 390x844, light and dark) and checked with axe-core (WCAG 2.2 AA).
 */
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import type { Page } from "playwright-core"
import { authRouter, authSession, requireAuth } from "gatehouse"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import Nodemailer from "gatehouse/providers/nodemailer"
import Password, { hashPassword } from "gatehouse/providers/password"
import { startDnsServer } from "../sso/support/dns-server.js"
import { keyPair, samlIdp, type IdpOptions, type IdpUser } from "../sso/support/saml-idp.js"
import { browserSuite, complaintsOn, type Watched } from "./harness.js"
import { describeGallery, galleryShot } from "./support/gallery.js"

const OWNER = { email: "owner@example.test", name: "Olivia Owner", password: "owner long passphrase 1" }
const EMPLOYEE: IdpUser = { email: "employee@acme.test", name: "Erin Employee", groups: ["staff", "eng-admins"] }
const DOMAIN = "acme.test"

const dns = await startDnsServer()
const adapter = MemoryAdapter()
const config = {
  secret: "e2e-secret-sso-5e1d9c3b7a2f4e6d8c0b1a3f5e7d9c2b",
  adapter,
  // Two methods take an address (password, magic link): the sign-in page is identifier-first, which enforcement needs.
  providers: [Password({ sendMail: async () => undefined }), Nodemailer({ sendVerificationRequest: async () => undefined })],
  organizations: { roles: { member: { project: ["read"] }, admin: { project: ["read", "write"] } } },
  sso: { dns: { servers: [dns.address] } },
  theme: { appName: "Acme Projects" },
  logLevel: "silent" as const,
  rateLimit: false as const,
}
const app = express()
app.use("/auth", authRouter(config))
app.use(authSession(config))
app.get("/dashboard", requireAuth(config), (req, res) => {
  const email = req.auth?.user?.email ?? ""
  res.type("html").send(`<!doctype html><html lang="en"><title>Dashboard</title><main><h1 id="dashboard">Dashboard of ${email.replace(/[<&>"]/g, "")}</h1></main></html>`)
})
const suite = browserSuite(app)

// The identity provider: its own server, its own site. Which ACS and audience it answers are known
// once the connection exists (the organization page shows them), so they are filled in then.
const idpKey = await keyPair("idp.localhost")
const idpOptions: IdpOptions = { entityId: "", signing: idpKey, acsUrl: "", audience: "", user: () => EMPLOYEE }
const idp = samlIdp(idpOptions)
const idpServer: Server = idp.app.listen(0, "127.0.0.1")
await new Promise<void>((listening, failed) => idpServer.once("listening", listening).once("error", failed))
const idpOrigin = `http://localhost:${(idpServer.address() as AddressInfo).port}`
idpOptions.entityId = `${idpOrigin}/saml`

afterAll(async () => {
  idpServer.closeAllConnections()
  await new Promise<void>((closed) => idpServer.close(() => closed()))
  await dns.close()
})

beforeAll(async () => {
  const owner = await adapter.createUser!({ id: "user-owner", email: OWNER.email, name: OWNER.name, emailVerified: new Date() })
  await adapter.setPasswordHash!(owner.id, await hashPassword(OWNER.password))
  // A password account, as sign-up and its confirmation leave it.
  await adapter.linkAccount!({ userId: owner.id, type: "credentials", provider: "password", providerAccountId: owner.id } as unknown as Parameters<NonNullable<typeof adapter.linkAccount>>[0])
})

// The password is hashed with scrypt at OWASP's cost; three pages photographed four times each.
const JOURNEY_TIMEOUT = 300_000

const byId = (page: Page, id: string) => page.locator(`[id="${id}"]`)
const ssoStatus = (page: Page) => page.locator("#sso-status")
const dashboard = () => `${suite.origin}/dashboard`
const signinUrl = () => `${suite.origin}/auth/signin?${new URLSearchParams({ callbackUrl: dashboard() })}`

/** Step one of the sign-in page: the address typed, Continue pressed; resolves on step two. */
async function continueAs(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email)
  await Promise.all([page.waitForURL((url) => url.searchParams.get("login_hint") === email), page.getByRole("button", { name: "Continue", exact: true }).click()])
}

/**
 * Submits a form of the organization page's SSO section by its button; resolves once the page is
 * back with `?saved=sso-<verb>` and the section's status line says `saved`. A refusal the page
 * explains (`?error=`) fails with the text the page shows.
 */
async function ssoForm(page: Page, verb: string, submit: string, saved: string): Promise<void> {
  await Promise.all([page.waitForURL((url) => url.searchParams.get("saved") === `sso-${verb}` || url.searchParams.has("error")), byId(page, submit).click()])
  const url = new URL(page.url())
  if (url.searchParams.has("error")) throw new Error(`${submit}: the page came back with ${url.search}: ${await ssoStatus(page).innerText()}`)
  expect({ path: url.pathname, status: await ssoStatus(page).innerText() }).toEqual({ path: "/auth/organization/acme", status: saved })
}

interface SessionBody {
  user?: { email?: string; name?: string }
  organization?: { slug?: string; role?: string }
}

/** `GET /auth/session` as this browser (its cookies) gets it. */
async function session(watched: Watched): Promise<SessionBody | null> {
  const response = await watched.context.request.get(`${suite.origin}/auth/session`, { headers: { accept: "application/json" } })
  expect(response.status()).toBe(200)
  return (await response.json()) as SessionBody | null
}

test(
  "an owner connects Acme's SAML IdP and verifies acme.test; an employee signs in through the IdP's POST binding, lands in Acme as admin, and is offered SSO only once it is enforced",
  async () => {
    const accessibility: Record<string, string> = {}
    const gallery = async (page: Page, name: string) => {
      const found = describeGallery(await galleryShot(page, name))
      if (found) accessibility[name] = found
    }
    const orgUrl = `${suite.origin}/auth/organization/acme`

    // 1. The owner signs in with their password and creates Acme on the account page.
    const owner = await suite.newPage({ locale: "en-US" })
    const accountUrl = `${suite.origin}/auth/account`
    await owner.page.goto(`${suite.origin}/auth/signin?${new URLSearchParams({ callbackUrl: accountUrl })}`)
    await continueAs(owner.page, OWNER.email)
    await owner.page.getByLabel("Password", { exact: true }).fill(OWNER.password)
    await Promise.all([owner.page.waitForURL(accountUrl), owner.page.getByRole("button", { name: "Sign in", exact: true }).click()])
    await owner.page.locator("#org-create-name").fill("Acme")
    await Promise.all([owner.page.waitForURL((url) => url.pathname === "/auth/organization/acme"), owner.page.locator("#org-create").click()])
    expect(await owner.page.locator("h1#org-name").innerText()).toBe("Acme")

    // The SSO section: no connection, no domain yet. The SAML connection from the IdP's settings.
    const section = owner.page.locator("section#sso")
    expect(await section.locator("#sso-connections-none").count()).toBe(1)
    await owner.page.locator("#sso-saml-name").fill("Acme IdP")
    await owner.page.locator("#sso-saml-entity-id").fill(idpOptions.entityId)
    await owner.page.locator("#sso-saml-sso-url").fill(`${idpOrigin}/sso`)
    await owner.page.locator("#sso-saml-certificate").fill(idpKey.cert)
    await ssoForm(owner.page, "create", "sso-saml-add", "The connection was added.")
    const connections = section.locator("#sso-connections > li")
    expect(await connections.count()).toBe(1)
    const connectionId = ((await connections.first().getAttribute("id")) ?? "").replace(/^sso-connection-/, "")
    expect(connectionId).not.toBe("")
    expect(await byId(owner.page, `sso-connection-${connectionId}-name`).innerText()).toBe("Acme IdP")
    expect(await byId(owner.page, `sso-connection-${connectionId}-state`).innerText()).toBe("On")

    // What the admin pastes into the IdP: the ACS URL and our entity id (the audience), from the page.
    const acs = await byId(owner.page, `sso-connection-${connectionId}-acs`).inputValue()
    const audience = await byId(owner.page, `sso-connection-${connectionId}-entityId`).inputValue()
    expect(acs).toBe(`${suite.origin}/auth/sso/saml/${connectionId}/acs`)
    expect(audience).toBe(`${suite.origin}/auth/sso/saml/${connectionId}/metadata`)
    idpOptions.acsUrl = acs
    idpOptions.audience = audience

    // The IdP's "eng-admins" group become admins (the groups attribute is found by its usual name).
    await byId(owner.page, `sso-connection-${connectionId}-roles`).fill("eng-admins=admin")
    await ssoForm(owner.page, "update", `sso-connection-${connectionId}-mapping-save`, "The connection was saved.")
    expect(await byId(owner.page, `sso-connection-${connectionId}-roles`).inputValue()).toBe("eng-admins=admin")

    // The domain: added, its TXT record published as the page says, verified.
    await owner.page.locator("#sso-domain").fill(DOMAIN)
    await ssoForm(owner.page, "add", "sso-domain-add", "The domain was added. Publish its TXT record, then verify it.")
    expect(await byId(owner.page, `sso-domain-${DOMAIN}-state`).innerText()).toBe("Not verified")
    const txtName = await byId(owner.page, `sso-domain-${DOMAIN}-txt-name`).inputValue()
    const txtValue = await byId(owner.page, `sso-domain-${DOMAIN}-txt-value`).inputValue()
    expect(txtName).toBe(`_gatehouse-challenge.${DOMAIN}`)
    expect(txtValue).not.toBe("")
    dns.publish(txtName, txtValue)
    await ssoForm(owner.page, "verify", `sso-domain-verify-${DOMAIN}`, "The domain is verified.")
    expect(dns.asked).toContain(txtName)
    expect(await byId(owner.page, `sso-domain-${DOMAIN}-state`).innerText()).toBe("Verified")
    expect(await byId(owner.page, `sso-domain-${DOMAIN}-txt-name`).count()).toBe(0)
    expect(await byId(owner.page, `sso-domain-enforce-${DOMAIN}`).innerText()).toBe(`Require SSO for ${DOMAIN}`)
    await gallery(owner.page, "sso-connection-settings")

    // 2. The employee, in a browser of their own: "Sign in with SSO" from the sign-in page.
    const employee = await suite.newPage({ locale: "en-US" })
    await employee.page.goto(signinUrl())
    await Promise.all([employee.page.waitForURL((url) => url.pathname === "/auth/sso"), employee.page.locator("#signin-sso-link").click()])
    expect(await employee.page.locator("h1").innerText()).toBe("Sign in with SSO")
    await gallery(employee.page, "sso-entry")
    await employee.page.getByLabel("Work email or organization").fill(EMPLOYEE.email)
    // Continue -> the IdP (its page posts itself to our ACS) -> the callback URL, signed in.
    const idpVisits: string[] = []
    employee.page.on("request", (request) => {
      if (request.isNavigationRequest()) idpVisits.push(`${request.method()} ${new URL(request.url()).origin}${new URL(request.url()).pathname}`)
    })
    await Promise.all([employee.page.waitForURL(dashboard()), employee.page.locator("#sso-continue").click()])
    expect(idpVisits).toEqual([`POST ${suite.origin}/auth/sso`, `GET ${idpOrigin}/sso`, `POST ${acs}`, `GET ${suite.origin}/dashboard`])
    expect(idp.requests).toHaveLength(1)
    expect(await employee.page.locator("#dashboard").innerText()).toBe(`Dashboard of ${EMPLOYEE.email}`)
    expect(await session(employee)).toMatchObject({ user: { email: EMPLOYEE.email, name: EMPLOYEE.name }, organization: { slug: "acme", role: "admin" } })
    // The account page lists Acme with that role.
    await employee.page.goto(`${suite.origin}/auth/account#organizations`)
    const organizations = employee.page.locator("section#organizations")
    expect(await organizations.locator("#account-organization-0-label").innerText()).toBe("Acme")
    expect(await organizations.innerText()).toContain("Your role: Admin")
    // The owner sees the new member.
    await owner.page.goto(orgUrl)
    expect(await owner.page.locator("#org-members").innerText()).toContain(EMPLOYEE.email)

    // 3. The owner requires SSO for acme.test.
    await owner.page.goto(`${orgUrl}#sso`)
    await ssoForm(owner.page, "enforce", `sso-domain-enforce-${DOMAIN}`, "The domain's SSO requirement was changed.")
    expect(await byId(owner.page, `sso-domain-${DOMAIN}-enforced`).count()).toBe(1)

    // The employee on another computer: step two offers only "Continue with SSO", which signs them in.
    const elsewhere = await suite.newPage({ locale: "en-US" })
    await elsewhere.page.goto(signinUrl())
    await continueAs(elsewhere.page, EMPLOYEE.email)
    expect(await elsewhere.page.locator("#signin-sso-enforced").innerText()).toBe(`Addresses at ${DOMAIN} sign in with their organization's single sign-on.`)
    expect(await elsewhere.page.getByRole("button").allInnerTexts()).toEqual(["Continue with SSO"])
    expect(await elsewhere.page.locator("input:not([type=hidden])").count()).toBe(0)
    expect(await elsewhere.page.locator("#signin-sso-link").count()).toBe(0)
    await gallery(elsewhere.page, "sso-enforced-signin")
    await Promise.all([elsewhere.page.waitForURL(dashboard()), elsewhere.page.locator("#signin-sso-continue").click()])
    expect(await session(elsewhere)).toMatchObject({ user: { email: EMPLOYEE.email }, organization: { slug: "acme", role: "admin" } })
    expect(idp.requests).toHaveLength(2)

    // No page of the app complained; every page photographed passes axe.
    for (const watched of [owner, employee, elsewhere]) expect(complaintsOn(watched, suite.origin)).toEqual({ consoleErrors: [], violations: [], pageErrors: [], dialogs: [] })
    expect(accessibility).toEqual({})
  },
  JOURNEY_TIMEOUT,
)
