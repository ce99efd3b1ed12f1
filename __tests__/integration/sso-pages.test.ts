/**
 * Issue #28, enterprise sign-in's pages over HTTP (supertest, the memory adapter, organizations
 * and `sso: true`; connections and domains stored straight through the adapter): the "Sign in
 * with SSO" page (the field, the CSRF token, the callback URL, `login_hint`, its error line, in
 * German), the sign-in page's SSO link (only with `sso` on) and its second step for an address
 * whose domain requires SSO (SSO only), the organization page's SSO section (an owner sees it with
 * the URLs to paste into the identity provider and the TXT record; a plain member does not), and
 * user input escaped everywhere.
 */
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import type { AdapterSsoConnection } from "../../lib/sso/adapter.js"
import type { AuthConfig } from "../../lib/types.js"
import { USERS, credentials, csrfToken, makeApp, request, signInAs, testConfig, type Agent } from "../helpers/app.js"

const BOB = USERS.bob!

function site(overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  // Two methods that take an identifier: the sign-in page has two steps (issue #26).
  const config = testConfig({
    adapter,
    providers: [credentials(), Nodemailer({ server: "smtp://127.0.0.1:9" })],
    organizations: { sendInvitation: () => undefined },
    sso: true,
    rateLimit: false,
    ...overrides,
  })
  return { app: makeApp(config), adapter }
}

type App = ReturnType<typeof site>["app"]

async function signedIn(app: App, who: string): Promise<Agent> {
  const agent = request.agent(app)
  const res = await signInAs(agent, who)
  expect(String(res.headers.location)).not.toContain("error=")
  return agent
}

/** Alice's organization "Acme" (created through its form); answers its id and page path. */
async function acmeOf(app: App): Promise<{ alice: Agent; id: string; path: string }> {
  const alice = await signedIn(app, "alice")
  const res = await alice.post("/auth/organizations/create").type("form").send({ csrfToken: await csrfToken(alice), name: "Acme", slug: "acme" })
  expect(res.status).toBe(302)
  const list = await alice.get("/auth/organizations").set("Accept", "application/json")
  const id = (list.body.organizations as Array<{ id: string; slug: string }>).find((org) => org.slug === "acme")!.id
  return { alice, id, path: "/auth/organization/acme" }
}

function connection(organizationId: string, fields: Partial<AdapterSsoConnection> & Pick<AdapterSsoConnection, "id" | "type" | "name">): AdapterSsoConnection {
  const settings = fields.type === "saml" ? { entityId: "https://idp.example/entity", ssoUrl: "https://idp.example/sso", certificates: ["MIIB"] } : { issuer: "https://idp.example", clientId: "client", clientSecret: "sealed" }
  return { organizationId, enabled: true, settings, mapping: null, createdAt: new Date(), updatedAt: new Date(), ...fields }
}

async function claim(adapter: MemoryAdapterInstance, organizationId: string, domain: string, options: { verified: boolean; enforce: boolean }) {
  await adapter.createDomain({ organizationId, domain, token: `token-${domain}`, verifiedAt: null, enforceSso: false, createdAt: new Date() })
  if (options.verified) await adapter.verifyDomain(organizationId, domain, new Date())
  if (options.enforce) await adapter.updateDomain(organizationId, domain, { enforceSso: true })
}

const CALLBACK = "/dashboard"

describe("the Sign in with SSO page", () => {
  it("one field, prefilled from login_hint, posting to sso with the CSRF token and the callback URL; a link back keeps both", async () => {
    const { app } = site()
    const agent = request.agent(app)
    const page = await agent.get(`/auth/sso?callbackUrl=${encodeURIComponent("/dashboard")}&login_hint=jane%40acme.test`)
    expect(page.status).toBe(200)
    expect(page.text).toContain("<h1>Sign in with SSO</h1>")
    expect(page.text).toMatch(/<form method="post" action="http:\/\/127\.0\.0\.1:\d+\/auth\/sso" id="sso-form">/)
    expect(page.text).toMatch(/name="csrfToken" value="[0-9a-f]{64}"/)
    expect(page.text).toMatch(/name="callbackUrl" value="http:\/\/127\.0\.0\.1:\d+\/dashboard"/)
    expect(page.text).toMatch(/<input id="sso-identifier" name="identifier" type="text" required[^>]* value="jane@acme.test"/)
    expect(page.text).toContain('<label for="sso-identifier">Work email or organization</label>')
    expect(page.text).toContain('id="sso-continue"')
    const back = new URL(page.text.match(/href="([^"]+)" id="sso-back"/)![1]!.replace(/&amp;/g, "&"))
    expect(back.pathname).toBe("/auth/signin")
    expect(back.searchParams.get("login_hint")).toBe("jane@acme.test")
    expect(new URL(back.searchParams.get("callbackUrl")!).pathname).toBe("/dashboard")
    // No script: the page works without JavaScript.
    expect(page.text).not.toContain("<script")
  })

  it("the token on the page is the one the POST needs: an unknown address comes back to the sign-in page saying there is no SSO for it", async () => {
    const { app } = site()
    const agent = request.agent(app)
    const page = await agent.get("/auth/sso")
    const token = page.text.match(/name="csrfToken" value="([0-9a-f]{64})"/)![1]!
    const res = await agent.post("/auth/sso").type("form").send({ csrfToken: token, identifier: "jane@nowhere.test", callbackUrl: CALLBACK })
    expect(res.status).toBe(302)
    const to = new URL(String(res.headers.location))
    expect(to.pathname).toBe("/auth/signin")
    expect(to.searchParams.get("error")).toBe("SsoNotConfigured")
    const shown = await agent.get(`${to.pathname}${to.search}`)
    expect(shown.text).toContain("There is no single sign-on for that address or organization.")
  })

  it("says an error of the query in the catalog's words, never the query's own text", async () => {
    const { app } = site()
    const known = await request(app).get("/auth/sso?error=SsoNotConfigured")
    expect(known.text).toContain('id="sso-error"')
    expect(known.text).toContain("There is no single sign-on for that address or organization.")
    expect(known.text).toContain('aria-invalid="true"')
    const made = await request(app).get("/auth/sso?error=%3Cb%3Ehi")
    expect(made.text).not.toContain("<b>hi")
    expect(made.text).not.toContain("&lt;b&gt;hi")
  })

  it("in German with Accept-Language: de", async () => {
    const { app } = site()
    const page = await request(app).get("/auth/sso").set("Accept-Language", "de")
    expect(page.headers["content-language"]).toBe("de")
    expect(page.text).toContain('<html lang="de"')
    expect(page.text).toContain("<h1>Mit SSO anmelden</h1>")
    expect(page.text).toContain("Geschäftliche E-Mail-Adresse oder Organisation")
    expect(page.text).toContain("Andere Anmeldemöglichkeiten")
  })

  it("escapes a login_hint that holds markup", async () => {
    const { app } = site()
    const page = await request(app).get(`/auth/sso?login_hint=${encodeURIComponent('"><script>alert(1)</script>')}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain("&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;")
    expect(page.text).not.toContain("<script>alert(1)")
  })

  it("with the option off: the error page, SsoUnavailable", async () => {
    const { app } = site({ sso: false })
    const page = await request(app).get("/auth/sso")
    expect(page.status).toBe(302)
    const to = new URL(String(page.headers.location))
    expect(to.pathname).toBe("/auth/error")
    expect(to.searchParams.get("error")).toBe("SsoUnavailable")
  })
})

describe("the sign-in page", () => {
  it("links to Sign in with SSO when the option is on, keeping the callback URL and the typed address", async () => {
    const { app } = site()
    const first = await request(app).get(`/auth/signin?callbackUrl=${encodeURIComponent("/dashboard")}`)
    const link = first.text.match(/href="([^"]+)" id="signin-sso-link">Sign in with SSO</)
    expect(link).not.toBeNull()
    const url = new URL(link![1]!.replace(/&amp;/g, "&"))
    expect(url.pathname).toBe("/auth/sso")
    expect(new URL(url.searchParams.get("callbackUrl")!).pathname).toBe("/dashboard")
    const second = await request(app).get(`/auth/signin?callbackUrl=${encodeURIComponent("/dashboard")}&login_hint=jane%40acme.test`)
    const typed = new URL(second.text.match(/href="([^"]+)" id="signin-sso-link"/)![1]!.replace(/&amp;/g, "&"))
    expect(typed.searchParams.get("login_hint")).toBe("jane@acme.test")
  })

  it("has no SSO link when the option is off", async () => {
    const { app } = site({ sso: false })
    const page = await request(app).get("/auth/signin")
    expect(page.status).toBe(200)
    expect(page.text).not.toContain("signin-sso")
    expect(page.text).not.toContain("Sign in with SSO")
  })

  it("step two for an address at a verified domain that requires SSO offers only SSO, for that address; other addresses get the usual methods", async () => {
    const { app, adapter } = site()
    const { id } = await acmeOf(app)
    await adapter.createSsoConnection(connection(id, { id: "conn-okta", type: "saml", name: "Okta" }))
    await claim(adapter, id, "acme.test", { verified: true, enforce: true })
    await claim(adapter, id, "pending.test", { verified: false, enforce: true })
    await claim(adapter, id, "open.test", { verified: true, enforce: false })

    const enforced = await request(app).get(`/auth/signin?callbackUrl=${encodeURIComponent(CALLBACK)}&login_hint=Jane%40ACME.test`)
    expect(enforced.status).toBe(200)
    expect(enforced.text).toContain("Addresses at acme.test sign in with their organization&#39;s single sign-on.")
    expect(enforced.text).toMatch(/<form method="post" action="http:\/\/127\.0\.0\.1:\d+\/auth\/sso" id="signin-sso-form">/)
    expect(enforced.text).toContain('<input type="hidden" name="identifier" value="Jane@ACME.test">')
    expect(enforced.text).toContain('id="signin-sso-continue">Continue with SSO</button>')
    expect(enforced.text).not.toContain('type="password"')
    expect(enforced.text).not.toContain("/auth/signin/nodemailer")
    expect(enforced.text).not.toContain('id="signin-sso-link"')

    for (const address of ["jane@pending.test", "jane@open.test", "jane@elsewhere.test"]) {
      const usual = await request(app).get(`/auth/signin?login_hint=${encodeURIComponent(address)}`)
      expect({ address, only: usual.text.includes("signin-sso-continue") }).toEqual({ address, only: false })
      expect(usual.text).toContain("/auth/signin/nodemailer")
      expect(usual.text).toContain('id="signin-sso-link"')
    }
  })

  it("says the SSO errors in the catalog's words", async () => {
    const { app } = site()
    const required = await request(app).get("/auth/signin?error=SsoRequired").set("Accept-Language", "fr")
    expect(required.text).toContain("Votre organisation exige que vous vous connectiez avec son authentification unique.")
  })
})

describe("the organization page's SSO section", () => {
  it("an owner sees the connections with the URLs to paste into the identity provider, the forms, and each domain's TXT record; every form has the CSRF token", async () => {
    const { app, adapter } = site()
    const { alice, id, path } = await acmeOf(app)
    await adapter.createSsoConnection(connection(id, { id: "conn-saml", type: "saml", name: "Okta", mapping: { groups: "groups", roles: { Engineering: "admin" } } }))
    await adapter.createSsoConnection(connection(id, { id: "conn-oidc", type: "oidc", name: "Entra", enabled: false }))
    await claim(adapter, id, "acme.test", { verified: false, enforce: false })
    await claim(adapter, id, "acme.example", { verified: true, enforce: true })

    const page = await alice.get(path)
    expect(page.status).toBe(200)
    expect(page.text).toContain('<section class="account-card" id="sso" aria-labelledby="sso-heading">')
    expect(page.text).toContain('<a href="#sso">Single sign-on (SSO)</a>')
    expect(page.text).toMatch(/id="sso-connection-conn-saml-acs" type="text" readonly[^>]* value="http:\/\/127\.0\.0\.1:\d+\/auth\/sso\/saml\/conn-saml\/acs"/)
    expect(page.text).toMatch(/id="sso-connection-conn-saml-metadata" type="text" readonly[^>]* value="http:\/\/127\.0\.0\.1:\d+\/auth\/sso\/saml\/conn-saml\/metadata"/)
    expect(page.text).toMatch(/id="sso-connection-conn-oidc-redirect" type="text" readonly[^>]* value="http:\/\/127\.0\.0\.1:\d+\/auth\/sso\/oidc\/conn-oidc\/callback"/)
    expect(page.text).toContain("Turn off Okta")
    expect(page.text).toContain("Turn on Entra")
    expect(page.text).toContain(">Engineering=admin</textarea>")
    expect(page.text).toContain('id="sso-connection-form"')
    expect(page.text).toContain('id="sso-saml-metadata" name="metadataXml"')
    expect(page.text).toContain('id="sso-oidc-form"')
    expect(page.text).toContain('id="sso-domain-form"')
    // The unverified domain: its TXT record and Verify; the verified one: enforcement and no record.
    expect(page.text).toContain('value="_gatehouse-challenge.acme.test"')
    expect(page.text).toContain('value="gatehouse-verification=token-acme.test"')
    expect(page.text).toContain('id="sso-domain-verify-acme.test"')
    expect(page.text).not.toContain("_gatehouse-challenge.acme.example")
    expect(page.text).not.toContain('id="sso-domain-verify-acme.example"')
    expect(page.text).toContain("Stop requiring SSO for acme.example")
    expect(page.text).toContain('id="sso-domain-remove-acme.test-confirm" name="confirm" type="checkbox" value="yes" required')
    expect(page.text).toContain("For your security, you may be asked to sign in again first.")
    const forms = page.text.match(/<form method="post"/g) ?? []
    const tokens = page.text.match(/name="csrfToken" value="[0-9a-f]{64}"/g) ?? []
    expect(tokens.length).toBe(forms.length)
  })

  it("says what an SSO form that came back did, in its section", async () => {
    const { app } = site()
    const { alice, path } = await acmeOf(app)
    const saved = await alice.get(`${path}?saved=sso-add`)
    expect(saved.text).toContain('<p class="notice" role="status" id="sso-status">The domain was added. Publish its TXT record, then verify it.</p>')
    expect(saved.text).not.toContain('id="org-status"')
    const refused = await alice.get(`${path}?error=DomainNotVerified`)
    expect(refused.text).toContain('<p class="error" role="alert" id="sso-status">The DNS TXT record was not found.')
  })

  it("a plain member does not see it, nor anyone with the option off", async () => {
    const { app, adapter } = site()
    const { id, path } = await acmeOf(app)
    await adapter.createSsoConnection(connection(id, { id: "conn-saml", type: "saml", name: "Okta" }))
    const bob = await signedIn(app, "bob")
    await adapter.addMember({ organizationId: id, userId: BOB.id!, role: "member", createdAt: new Date() })
    const page = await bob.get(path)
    expect(page.status).toBe(200)
    expect(page.text).toContain("Your role: Member")
    expect(page.text).not.toContain('id="sso"')
    expect(page.text).not.toContain("/sso/saml/conn-saml/acs")

    const off = site({ sso: false })
    const owner = await acmeOf(off.app)
    const plain = await owner.alice.get(owner.path)
    expect(plain.status).toBe(200)
    expect(plain.text).not.toContain('id="sso"')
  })

  it("escapes a connection's name", async () => {
    const { app, adapter } = site()
    const { alice, id, path } = await acmeOf(app)
    await adapter.createSsoConnection(connection(id, { id: "conn-x", type: "oidc", name: '<img src=x onerror="alert(1)">' }))
    const page = await alice.get(path)
    expect(page.text).toContain("&lt;img src=x onerror=&#34;alert(1)&#34;&gt;")
    expect(page.text).not.toContain("<img src=x")
  })
})
