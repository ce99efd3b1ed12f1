/**
 * Organizations in real Chromium (issue #27), with the mails read from a real SMTP sink: an owner
 * signs up (the confirmation link from the mail), creates "Acme" from the account page and invites
 * a second person by address; the second person, in a browser of their own, opens the mailed
 * invitation, creates an account through it, confirms the address from the mail, comes back to the
 * invitation, accepts and lands in Acme as a member. The app's own routes see the role: `/whoami`
 * (`req.auth.organization`) and `/projects/new` (`requireAuth({ permission: "project:write" })`),
 * refused to a member with the 403 page. The owner makes the member an admin on the organization
 * page, and the member's next request is let through with no new sign-in. Each page photographed
 * (1280x800 and 390x844, light and dark) and checked with axe-core (WCAG 2.2 AA).
 */
import express from "express"
import type { Page } from "playwright-core"
import { authRouter, authSession, requireAuth } from "gatehouse"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import Nodemailer from "gatehouse/providers/nodemailer"
import Password from "gatehouse/providers/password"
import { startSmtp, type ReceivedMail } from "../helpers/smtp.js"
import { browserSuite, complaintsOn, isStatusLineFor, type Watched } from "./harness.js"
import { describeGallery, galleryShot } from "./support/gallery.js"

const smtp = await startSmtp()
const mailer = Nodemailer({ server: smtp.url, from: "Acme <auth@example.test>" })
const config = {
  secret: "e2e-secret-organizations-7d3c1a9e5b2f4c6d8e0a1b3c5d7e9f",
  // Password's mails (sign-up confirmation) and the invitations (the first email provider's transport) go through the sink.
  providers: [Password({ email: mailer }), mailer],
  adapter: MemoryAdapter(),
  organizations: { roles: { member: { project: ["read"] }, admin: { project: ["read", "write"] } } },
  theme: { appName: "Acme Projects" },
  logLevel: "silent" as const,
}
const app = express()
app.use("/auth", authRouter(config))
app.use(authSession(config))
app.get("/whoami", (req, res) => {
  res.json(req.auth?.organization ?? null)
})
app.get("/projects/new", requireAuth(config, { permission: "project:write" }), (_req, res) => {
  res.type("html").send(`<!doctype html><html lang="en"><title>New project</title><main><h1>New project</h1></main></html>`)
})

const suite = browserSuite(app)
afterAll(() => smtp.close())

const OWNER = { email: "owner@example.test", name: "Olivia Owner", password: "owner long passphrase 1" }
const SECOND = { email: "second@example.test", name: "Sam Second", password: "second long passphrase 2" }
// Sign-ups hash with scrypt at OWASP's cost, twice, on a shared machine; four pages photographed four times each.
const JOURNEY_TIMEOUT = 300_000

/** The first link in a mail's plain text whose path is `path` (the mail may carry others). */
function linkTo(received: ReceivedMail, path: string): URL {
  const links = (received.mail.text ?? "").match(/https?:\/\/\S+/g) ?? []
  const found = links.map((link) => new URL(link)).find((url) => url.pathname === path)
  if (!found) throw new Error(`no link to ${path} in the mail "${received.mail.subject}": ${links.join(" ")}`)
  return found
}

/** The next mail the sink receives after `before` messages, which must be addressed to `to`. */
async function nextMailTo(before: number, to: string): Promise<ReceivedMail> {
  const received = (await smtp.waitFor(before + 1))[before]!
  expect(received.envelope.to).toEqual([to])
  return received
}

/**
 * Signs up on the sign-up page as it stands (the address typed only when the page did not fill it
 * in), confirms the address through the mailed link and follows where the confirmation leads.
 */
async function signUp(page: Page, person: typeof OWNER): Promise<void> {
  const email = page.getByLabel("Email", { exact: true })
  if ((await email.inputValue()) === "") await email.fill(person.email)
  await page.getByLabel("Password", { exact: true }).fill(person.password)
  await page.getByLabel("Name (optional)").fill(person.name)
  const before = smtp.messages.length
  await page.getByRole("button", { name: "Create account" }).click()
  await page.getByText(`We sent a message to ${person.email}`).waitFor()
  const confirm = linkTo(await nextMailTo(before, person.email), "/auth/verify-email")
  await page.goto(confirm.href)
  await Promise.all([page.waitForURL((url) => url.pathname !== "/auth/verify-email"), page.getByRole("button", { name: "Confirm and sign in" }).click()])
}

/** `req.auth.organization` as the app's route sees it for this browser (its cookies). */
async function whoami(watched: Watched): Promise<{ slug: string; role: string; permissions: string[] } | null> {
  const response = await watched.context.request.get(`${suite.origin}/whoami`, { headers: { accept: "application/json" } })
  expect(response.status()).toBe(200)
  return (await response.json()) as { slug: string; role: string; permissions: string[] } | null
}

const status = (page: Page) => page.locator("#org-status")
const summary = (page: Page) => page.locator("#org-summary")

test(
  "an owner creates Acme and invites by mail; the invitee signs up through the link, accepts, is refused /projects/new as member and let in once the owner makes them admin",
  async () => {
    // Pages photographed and checked with axe, by name; checked at the end so the journey goes on and every page is told.
    const accessibility: Record<string, string> = {}
    const gallery = async (page: Page, name: string) => {
      const found = describeGallery(await galleryShot(page, name))
      if (found) accessibility[name] = found
    }
    const orgUrl = () => `${suite.origin}/auth/organization/acme`

    // 1. The owner signs up (confirmed by mail), lands on the account page and creates Acme there.
    const owner = await suite.newPage({ locale: "en-US" })
    const accountUrl = `${suite.origin}/auth/account`
    await owner.page.goto(`${suite.origin}/auth/signup?${new URLSearchParams({ callbackUrl: accountUrl })}`)
    await signUp(owner.page, OWNER)
    expect(owner.page.url()).toBe(accountUrl)
    const organizations = owner.page.locator("section#organizations")
    expect(await organizations.locator("#account-organizations-none").innerText()).toBe("You are not a member of any organization.")
    expect(await whoami(owner)).toBeNull()
    await organizations.locator("#org-create-name").fill("Acme")
    await Promise.all([owner.page.waitForURL((url) => url.pathname === "/auth/organization/acme"), organizations.locator("#org-create").click()])
    expect(await owner.page.locator("h1#org-name").innerText()).toBe("Acme")
    expect(await status(owner.page).innerText()).toBe("The organization was created.")
    expect(await summary(owner.page).innerText()).toContain("Your role: Owner")
    expect(await whoami(owner)).toMatchObject({ slug: "acme", role: "owner" })
    await gallery(owner.page, "organization-page")

    // The account page lists Acme, active, with the owner's role.
    await owner.page.goto(`${accountUrl}#organizations`)
    expect(await organizations.locator("#account-organization-0-label").innerText()).toBe("Acme")
    expect(await organizations.innerText()).toContain("Your role: Owner")
    await gallery(owner.page, "account-organizations")

    // 2. The invitation, as member, from the organization page; the mail arrives at the sink.
    await owner.page.goto(orgUrl())
    await owner.page.locator("#org-invite-email").fill(SECOND.email)
    await owner.page.locator("#org-invite-role").selectOption("member")
    const beforeInvite = smtp.messages.length
    await Promise.all([owner.page.waitForURL((url) => url.searchParams.get("saved") === "invite"), owner.page.locator("#org-invite").click()])
    expect(await status(owner.page).innerText()).toBe("The invitation was sent.")
    expect(await owner.page.locator("#org-invitations").innerText()).toContain(SECOND.email)
    const invitationMail = await nextMailTo(beforeInvite, SECOND.email)
    expect(invitationMail.mail.subject).toContain("Acme")
    const invitation = linkTo(invitationMail, "/auth/invitation")
    expect(invitation.origin).toBe(suite.origin)
    expect(invitation.searchParams.get("token")).toBeTruthy()

    // 3. The second person, in a browser of their own: the invitation signed out.
    const second = await suite.newPage({ locale: "en-US" })
    await second.page.goto(invitation.href)
    expect(await second.page.locator("h1").innerText()).toBe("Invitation")
    expect(await second.page.locator("#invitation-text").innerText()).toBe("You are invited to join Acme as Member.")
    expect(await second.page.locator("#invitation-for").innerText()).toContain(`This invitation is for ${SECOND.email}.`)
    await gallery(second.page, "invitation-signed-out")

    // Create an account from it: the address filled in, the confirmation mailed, back to the invitation.
    await Promise.all([second.page.waitForURL((url) => url.pathname === "/auth/signup"), second.page.locator("#invitation-signup").click()])
    const prefilled = await second.page.getByLabel("Email", { exact: true }).inputValue()
    await signUp(second.page, SECOND)
    expect(second.page.url()).toBe(invitation.href)
    await second.page.locator("#org-accept").waitFor()
    expect(await second.page.locator("#invitation-text").innerText()).toBe("You are invited to join Acme as Member.")
    await gallery(second.page, "invitation-page")
    await Promise.all([second.page.waitForURL((url) => url.pathname === "/auth/organization/acme"), second.page.locator("#org-accept").click()])
    expect(await status(second.page).innerText()).toBe("Welcome! You are now a member of this organization.")
    expect(await summary(second.page).innerText()).toContain("Your role: Member")
    expect(await second.page.locator("#org-invite-form").count()).toBe(0)
    await gallery(second.page, "organization-page-member")

    // 4. The member acts for Acme as member: /projects/new is refused with the 403 page.
    expect(await whoami(second)).toMatchObject({ slug: "acme", role: "member", permissions: ["project:read"] })
    const refused = await second.page.goto(`${suite.origin}/projects/new`)
    expect(refused?.status()).toBe(403)
    expect(await second.page.locator("h1").innerText()).toBe("Not allowed")
    await gallery(second.page, "permission-denied")

    // 5. The owner makes the member an admin on the organization page.
    await owner.page.goto(orgUrl())
    const memberItem = owner.page.locator("#org-members > li", { hasText: SECOND.email })
    const memberId = ((await memberItem.getAttribute("id")) ?? "").replace(/^org-member-/, "")
    expect(memberId).not.toBe("")
    await owner.page.locator(`#org-role-${memberId}`).selectOption("admin")
    await Promise.all([owner.page.waitForURL((url) => url.searchParams.get("saved") === "role"), owner.page.locator(`#org-role-${memberId}-change`).click()])
    expect(await status(owner.page).innerText()).toBe("The role was changed.")
    expect(await owner.page.locator(`#org-role-${memberId}`).inputValue()).toBe("admin")
    await gallery(owner.page, "organization-page-members")

    // 6. The member's next requests see it, with no new sign-in.
    expect(await whoami(second)).toMatchObject({ slug: "acme", role: "admin", permissions: expect.arrayContaining(["project:read", "project:write"]) as unknown })
    const allowed = await second.page.goto(`${suite.origin}/projects/new`)
    expect(allowed?.status()).toBe(200)
    expect(await second.page.locator("h1").innerText()).toBe("New project")
    await second.page.goto(orgUrl())
    expect(await summary(second.page).innerText()).toContain("Your role: Admin")

    // No page complained (the 403 page's own status line aside).
    const projects = `${suite.origin}/projects/new`
    for (const watched of [owner, second]) {
      const complaints = complaintsOn(watched, suite.origin)
      complaints.consoleErrors = complaints.consoleErrors.filter((entry) => !isStatusLineFor(entry, projects, 403))
      expect(complaints).toEqual({ consoleErrors: [], violations: [], pageErrors: [], dialogs: [] })
    }
    // The sign-up page the invitation leads to has the invited address filled in; every page passes axe.
    expect({ prefilled, accessibility }).toEqual({ prefilled: SECOND.email, accessibility: {} })
  },
  JOURNEY_TIMEOUT,
)
