/**
 * Issue #27, the organizations' built-in pages over HTTP (supertest) with the memory adapter: the
 * organization page (members, the invite form for those who may invite, 404 for a non-member,
 * German, escaping), the page for a user in no organization, the invitation page (signed out,
 * the invited account, another account, an invalid link) and the account page's section.
 */
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Password from "../../lib/providers/password.js"
import type { InvitationMail } from "../../lib/organizations/options.js"
import type { AuthConfig } from "../../lib/types.js"
import { USERS, credentials, csrfToken, makeApp, request, signInAs, testConfig, type Agent } from "../helpers/app.js"

const ALICE = USERS.alice!
const BOB = USERS.bob!

function site(overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const mails: InvitationMail[] = []
  const config = testConfig({ adapter, organizations: { sendInvitation: (mail) => void mails.push(mail) }, ...overrides })
  return { app: makeApp(config), adapter, mails }
}

type App = ReturnType<typeof site>["app"]

async function signedIn(app: App, who: string): Promise<Agent> {
  const agent = request.agent(app)
  const res = await signInAs(agent, who)
  expect(String(res.headers.location)).not.toContain("error=")
  return agent
}

async function post(agent: Agent, action: string, form: Record<string, string>) {
  return agent.post(`/auth/organizations/${action}`).type("form").send({ csrfToken: await csrfToken(agent), ...form })
}

/** Creates an organization through its form; answers its id and page path. */
async function create(agent: Agent, name: string, slug: string): Promise<{ id: string; path: string }> {
  const res = await post(agent, "create", { name, slug })
  expect(res.status).toBe(302)
  const path = new URL(String(res.headers.location)).pathname
  expect(path).toBe(`/auth/organization/${slug}`)
  const list = await agent.get("/auth/organizations").set("Accept", "application/json")
  const id = (list.body.organizations as Array<{ id: string; slug: string }>).find((org) => org.slug === slug)!.id
  return { id, path }
}

/** Alice's organization "Acme" with Bob invited; answers the invitation link's path and query. */
async function invited(app: App, mails: InvitationMail[]) {
  const alice = await signedIn(app, "alice")
  const acme = await create(alice, "Acme", "acme")
  const sent = await post(alice, "invite", { organizationId: acme.id, email: BOB.email!, role: "member" })
  expect(String(sent.headers.location)).toContain("saved=invite")
  const url = new URL(mails.at(-1)!.url)
  return { alice, acme, link: `${url.pathname}${url.search}` }
}

async function verify(adapter: MemoryAdapterInstance, userId: string) {
  await adapter.updateUser({ id: userId, emailVerified: new Date() })
}

const formsHaveTokens = (html: string) => {
  const forms = html.match(/<form method="post"/g) ?? []
  const tokens = html.match(/name="csrfToken" value="[0-9a-f]{64}"/g) ?? []
  expect(forms.length).toBeGreaterThan(0)
  expect(tokens.length).toBe(forms.length)
}

describe("the organization page", () => {
  it("signed out: the sign-in page, coming back to the organization page", async () => {
    const res = await request(site().app).get("/auth/organization/acme")
    expect(res.status).toBe(302)
    const to = new URL(String(res.headers.location))
    expect(to.pathname).toBe("/auth/signin")
    expect(new URL(to.searchParams.get("callbackUrl")!).pathname).toBe("/auth/organization/acme")
  })

  it("an owner sees the members, the invitations with the invite form, the settings and the danger zone; every form has the CSRF token", async () => {
    const { app, mails } = site()
    const { alice, acme } = await invited(app, mails)
    const page = await alice.get(acme.path)
    expect(page.status).toBe(200)
    expect(page.text).toContain('<h1 id="org-name">Acme</h1>')
    expect(page.text).toContain('id="org-members"')
    expect(page.text).toContain(ALICE.name)
    expect(page.text).toContain("Your role: Owner")
    expect(page.text).toContain('id="org-invite-form"')
    expect(page.text).toContain(BOB.email) // the pending invitation
    expect(page.text).toContain('id="org-settings-form"')
    expect(page.text).toContain('id="org-delete-form"')
    expect(page.text).toContain("you may be asked to sign in again")
    formsHaveTokens(page.text)
  })

  it("a form that comes back says what happened, never the query's own text", async () => {
    const { app } = site()
    const alice = await signedIn(app, "alice")
    const acme = await create(alice, "Acme", "acme")
    expect((await alice.get(`${acme.path}?saved=invite`)).text).toContain("The invitation was sent.")
    const refused = await alice.get(`${acme.path}?error=LastOwner`)
    expect(refused.text).toContain("An organization needs at least one owner")
    const made = await alice.get(`${acme.path}?error=%3Cb%3Ehi`)
    expect(made.text).not.toContain("<b>hi")
  })

  it("a plain member sees the members but no invite form, no role select and no delete", async () => {
    const { app, adapter, mails } = site()
    const { acme, link } = await invited(app, mails)
    const bob = await signedIn(app, "bob")
    await verify(adapter, BOB.id!)
    const accepted = await post(bob, "accept", { token: new URLSearchParams(link.split("?")[1]).get("token")! })
    expect(new URL(String(accepted.headers.location)).pathname).toBe(acme.path)
    const page = await bob.get(acme.path)
    expect(page.status).toBe(200)
    expect(page.text).toContain(ALICE.name)
    expect(page.text).toContain(BOB.name)
    expect(page.text).toContain("Your role: Member")
    expect(page.text).not.toContain('id="org-invite-form"')
    expect(page.text).not.toContain("<select")
    expect(page.text).not.toContain('id="org-delete-form"')
    expect(page.text).toContain('id="org-leave-form"')
    // The owner now sees a role select for Bob.
    const alice = await signedIn(app, "alice")
    expect((await alice.get(acme.path)).text).toContain(`id="org-role-${BOB.id}"`)
  })

  it("someone else's organization, and a slug nobody has, are not found", async () => {
    const { app } = site()
    const bob = await signedIn(app, "bob")
    await create(bob, "Bobco", "bobco")
    const alice = await signedIn(app, "alice")
    for (const path of ["/auth/organization/bobco", "/auth/organization/nobody"]) {
      const res = await alice.get(path)
      const shown = res.status === 302 ? await alice.get(new URL(String(res.headers.location)).pathname + new URL(String(res.headers.location)).search) : res
      expect(shown.status).toBe(404)
      expect(shown.text).toContain("Organization not found")
      expect(shown.text).not.toContain("Bobco")
    }
  })

  it("in German with Accept-Language: de", async () => {
    const { app } = site()
    const alice = await signedIn(app, "alice")
    const acme = await create(alice, "Acme", "acme")
    const page = await alice.get(acme.path).set("Accept-Language", "de")
    expect(page.headers["content-language"]).toBe("de")
    expect(page.text).toContain("Mitglieder")
    expect(page.text).toContain("Jemanden einladen")
    expect(page.text).toContain("Gefahrenbereich")
  })

  it("escapes the organization's name wherever it is shown", async () => {
    const { app } = site()
    const alice = await signedIn(app, "alice")
    const org = await create(alice, "<script>alert(1)</script>", "xss")
    for (const path of [org.path, "/auth/account"]) {
      const page = await alice.get(path)
      expect(page.status).toBe(200)
      expect(page.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
      expect(page.text).not.toContain("<script>alert(1)")
    }
  })

  it("without a slug: the active organization's page, or the form to create one", async () => {
    const { app } = site()
    const alice = await signedIn(app, "alice")
    const none = await alice.get("/auth/organization")
    expect(none.status).toBe(200)
    expect(none.text).toContain('id="org-create-name"')
    formsHaveTokens(none.text)
    const acme = await create(alice, "Acme", "acme")
    const res = await alice.get("/auth/organization")
    expect(res.status).toBe(302)
    expect(new URL(String(res.headers.location)).pathname).toBe(acme.path)
  })

  it("without a slug, when the site lets no user create organizations: says how to join one", async () => {
    const { app } = site({ organizations: { allowCreate: false } })
    const alice = await signedIn(app, "alice")
    const page = await alice.get("/auth/organization")
    expect(page.status).toBe(200)
    expect(page.text).toContain("Ask an owner of one for an invitation")
    expect(page.text).not.toContain('id="org-create-name"')
  })

  it("another organization than the active one offers to switch to it", async () => {
    const { app } = site()
    const alice = await signedIn(app, "alice")
    const first = await create(alice, "First", "first")
    const second = await create(alice, "Second", "second")
    // Creating switches to the new organization: the first is not the active one now.
    expect((await alice.get(first.path)).text).toContain('id="org-switch"')
    expect((await alice.get(second.path)).text).not.toContain('id="org-switch"')
  })
})

describe("the invitation page", () => {
  it("signed out: names the organization, the address and the role, and offers sign-in (the address filled in) and sign-up, both coming back", async () => {
    const email = Nodemailer({ server: "smtp://127.0.0.1:9", from: "auth@example.test" })
    const { app, mails } = site({ providers: [credentials(), email, Password({ email })] })
    const { link } = await invited(app, mails)
    const page = await request(app).get(link)
    expect(page.status).toBe(200)
    expect(page.text).toContain("You are invited to join Acme as Member.")
    expect(page.text).toContain(BOB.email)
    const href = (id: string) => new URL(new RegExp(`href="([^"]+)" id="${id}"`).exec(page.text)![1]!.replaceAll("&amp;", "&"))
    const signIn = href("invitation-signin")
    expect(signIn.pathname).toBe("/auth/signin")
    expect(signIn.searchParams.get("login_hint")).toBe(BOB.email)
    expect(new URL(signIn.searchParams.get("callbackUrl")!).pathname).toBe("/auth/invitation")
    const signUp = href("invitation-signup")
    expect(signUp.pathname).toBe("/auth/signup")
    expect(new URL(signUp.searchParams.get("callbackUrl")!).search).toBe(new URL(link, "http://x").search)
    expect(page.text).not.toContain('id="org-accept"')
  })

  it("the invited account (verified) gets Accept and Decline with the CSRF token; a GET changes nothing", async () => {
    const { app, adapter, mails } = site()
    const { link, acme } = await invited(app, mails)
    const bob = await signedIn(app, "bob")
    await verify(adapter, BOB.id!)
    const page = await bob.get(link)
    expect(page.text).toContain('id="org-accept"')
    expect(page.text).toContain('id="org-decline"')
    formsHaveTokens(page.text)
    expect(await adapter.getMember!(acme.id, BOB.id!)).toBeNull()
  })

  it("the invited account with an unverified address is told to verify it first", async () => {
    const { app, mails } = site()
    const { link } = await invited(app, mails)
    const bob = await signedIn(app, "bob")
    const page = await bob.get(link)
    expect(page.text).toContain("is not verified yet")
    expect(page.text).not.toContain('id="org-accept"')
  })

  it("another account is told whom the invitation is for, and offered to sign out and come back", async () => {
    const { app, adapter, mails } = site()
    const alice = await signedIn(app, "alice")
    const acme = await create(alice, "Acme", "acme")
    await post(alice, "invite", { organizationId: acme.id, email: "carol@example.com", role: "member" })
    const bob = await signedIn(app, "bob")
    await verify(adapter, BOB.id!)
    const url = new URL(mails.at(-1)!.url)
    const page = await bob.get(`${url.pathname}${url.search}`)
    expect(page.text).toContain(`You are signed in as ${BOB.email}, but this invitation is for carol@example.com.`)
    expect(page.text).toContain('id="invitation-signout"')
    expect(page.text).not.toContain('id="org-accept"')
  })

  it("an unknown or revoked link: a page that says so (410)", async () => {
    const { app } = site()
    const page = await request(app).get(`/auth/invitation?token=${"x".repeat(43)}`)
    expect(page.status).toBe(410)
    expect(page.text).toContain("Invitation not valid")
    const missing = await request(app).get("/auth/invitation").set("Accept-Language", "fr")
    expect(missing.status).toBe(410)
    expect(missing.text).toContain("Invitation non valable")
  })
})

describe("the account page's organizations section", () => {
  it("lists the user's organizations with their role, marks the active one and offers to switch to the others and to create one", async () => {
    const { app } = site()
    const alice = await signedIn(app, "alice")
    const none = await alice.get("/auth/account")
    expect(none.text).toContain('href="#organizations"')
    expect(none.text).toContain("You are not a member of any organization.")
    await create(alice, "First", "first")
    await create(alice, "Second", "second")
    const page = await alice.get("/auth/account")
    expect(page.text).toContain("First")
    expect(page.text).toContain("Second")
    expect(page.text).toMatch(/Second<\/strong> <span class="account-badge on">Active</)
    expect(page.text).toContain("Switch to First")
    expect(page.text).not.toContain("Switch to Second")
    expect(page.text).toContain('id="org-create-name"')
    formsHaveTokens(page.text)
  })

  it("is not there with organizations off", async () => {
    const app = makeApp(testConfig({ adapter: MemoryAdapter() }))
    const alice = await signedIn(app, "alice")
    expect((await alice.get("/auth/account")).text).not.toContain('id="organizations"')
  })

  it("says what happened after leaving, deleting or declining", async () => {
    const { app } = site()
    const alice = await signedIn(app, "alice")
    expect((await alice.get("/auth/account?saved=organization-left")).text).toContain("You left the organization.")
  })
})
