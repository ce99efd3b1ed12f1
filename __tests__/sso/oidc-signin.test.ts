/**
 * Enterprise sign-in through an OIDC connection (issue #28), against a real `oidc-provider`:
 * SP-initiated sign-in from "Sign in with SSO" (the address routes to the organization by its
 * verified domain), just-in-time provisioning into the organization with the default role or the
 * role a `groups` claim maps to, and the refusals: a callback URL used twice, a wrong state, a
 * state of another connection, the IdP answering `error=access_denied`, a connection of another
 * type or turned off.
 */
import { randomBytes } from "node:crypto"
import { request } from "../helpers/app.js"
import { CONNECTION_ID, SECOND_CONNECTION_ID, DOMAIN, ORG_ID, atIdp, local, location, oidcConnection, oidcSuite, startOidcSite, startSso, type OidcSite } from "./support/oidc-site.js"

oidcSuite()

function expectRefused(site: OidcSite, response: { status: number; headers: Record<string, unknown> }, type: string): void {
  expect(response.status).toBe(302)
  const url = location(site, response)
  expect(url.pathname).toBe("/auth/error")
  expect(url.searchParams.get("error")).toBe(type)
}

function refusals(site: OidcSite): Array<Record<string, unknown>> {
  return site.audits.filter((record) => record.type === "sso.refused")
}

describe("SP-initiated sign-in through an OIDC connection", () => {
  it("signs a new person in from their work address, as a member of the organization with the default role, the address proved by the verified domain", async () => {
    const site = await startOidcSite({ scopes: ["groups"] })
    const agent = site.agent()
    const start = await startSso(agent, "carol@acme.test")
    const authorization = new URL(String(start.headers.location))
    expect(authorization.origin).toBe(site.idp.issuer)
    expect(authorization.searchParams.get("redirect_uri")).toBe(site.redirectUri())
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256")
    expect(authorization.searchParams.get("scope")).toBe("openid email profile groups")
    expect(authorization.searchParams.get("login_hint")).toBe("carol@acme.test")

    const back = await atIdp(site, start, "carol")
    const callback = await agent.get(local(back))
    expect(callback.status).toBe(302)
    expect(location(site, callback).href).toBe(`${site.url}/`)

    const session = await agent.get("/auth/session").expect(200)
    expect(session.body.user.email).toBe("carol@acme.test")
    expect(session.body.user.name).toBe("Carol Danvers")
    expect(session.body.organization).toMatchObject({ id: ORG_ID, role: "member" })

    const user = await site.adapter.getUserByEmail!("carol@acme.test")
    expect(user?.emailVerified).toBeInstanceOf(Date)
    expect(await site.adapter.getMember!(ORG_ID, user!.id)).toMatchObject({ role: "member" })
    expect(await site.adapter.getUserByAccount!({ provider: `sso-${CONNECTION_ID}`, providerAccountId: "carol" })).toMatchObject({ id: user!.id })
    expect(refusals(site)).toEqual([])
  })

  it("gives the role the groups claim maps to", async () => {
    const site = await startOidcSite({ scopes: ["groups"], mapping: { roles: { "acme-admins": "admin" } } })
    const agent = site.agent()
    const back = await atIdp(site, await startSso(agent, `dave@${DOMAIN}`), "dave")
    expect((await agent.get(local(back))).status).toBe(302)
    const session = await agent.get("/auth/session").expect(200)
    expect(session.body.organization).toMatchObject({ id: ORG_ID, role: "admin" })
    const user = await site.adapter.getUserByEmail!("dave@acme.test")
    expect(await site.adapter.getMember!(ORG_ID, user!.id)).toMatchObject({ role: "admin" })
  })

  it("reads the groups from the claim the mapping names", async () => {
    const site = await startOidcSite({ scopes: ["groups"], mapping: { groups: "teams", roles: { "acme-admins": "admin" } } })
    const erin = site.agent()
    await erin.get(local(await atIdp(site, await startSso(erin, `erin@${DOMAIN}`), "erin")))
    expect((await erin.get("/auth/session").expect(200)).body.organization).toMatchObject({ id: ORG_ID, role: "admin" })
    // Dave's `groups` name acme-admins, but the mapping reads `teams`, which he lacks: the default role.
    const dave = site.agent()
    await dave.get(local(await atIdp(site, await startSso(dave, `dave@${DOMAIN}`), "dave")))
    expect((await dave.get("/auth/session").expect(200)).body.organization).toMatchObject({ id: ORG_ID, role: "member" })
  })
})

describe("refusals", () => {
  it("refuses the same callback URL a second time, and signs nobody in with it", async () => {
    const site = await startOidcSite()
    const agent = site.agent()
    const back = await atIdp(site, await startSso(agent, "carol@acme.test"), "carol")
    expect((await agent.get(local(back))).status).toBe(302)

    const replayer = site.agent()
    const again = await replayer.get(local(back))
    expectRefused(site, again, "SsoResponseInvalid")
    expect((await replayer.get("/auth/session").expect(200)).body).toBeNull()
    expect(refusals(site)).toEqual([expect.objectContaining({ outcome: "failure", reason: "SsoResponseInvalid", connectionId: CONNECTION_ID })])

    const page = await request(site.url).get(local(location(site, again)))
    expect(page.status).toBe(400)
    expect(page.text).toContain("Sign-in refused")
  })

  it("refuses a state that is not the one the sign-in was started with", async () => {
    const site = await startOidcSite()
    const agent = site.agent()
    const back = await atIdp(site, await startSso(agent, "carol@acme.test"), "carol")
    back.searchParams.set("state", randomBytes(32).toString("base64url"))
    expectRefused(site, await agent.get(local(back)), "SsoResponseInvalid")
    expect((await agent.get("/auth/session").expect(200)).body).toBeNull()
    expect(await site.adapter.getUserByEmail!("carol@acme.test")).toBeNull()
    expect(refusals(site)).toHaveLength(1)
  })

  it("refuses a state started through another connection, even with a code the IdP issued for this one", async () => {
    const site = await startOidcSite()
    await site.adapter.createSsoConnection!(await oidcConnection(site.idp, { id: SECOND_CONNECTION_ID }))
    const agent = site.agent()
    const start = await startSso(agent, "carol@acme.test")
    // The first connection's request (its state, PKCE challenge and nonce), sent back to the second connection's redirect URI.
    const crossed = new URL(String(start.headers.location))
    crossed.searchParams.set("redirect_uri", site.redirectUri(SECOND_CONNECTION_ID))
    site.idp.nextLogin = "carol"
    const back = await site.idp.browse(crossed.href, site.redirectUri(SECOND_CONNECTION_ID))
    expectRefused(site, await agent.get(local(back)), "SsoResponseInvalid")
    expect(refusals(site)).toEqual([expect.objectContaining({ connectionId: SECOND_CONNECTION_ID })])
    expect((await agent.get("/auth/session").expect(200)).body).toBeNull()
    // Taken once: the state is no good at its own connection afterwards either.
    const own = new URL(site.redirectUri())
    own.search = back.search
    expectRefused(site, await agent.get(local(own)), "SsoResponseInvalid")
    expect(await site.adapter.getUserByEmail!("carol@acme.test")).toBeNull()
  })

  it("shows a clear page when the identity provider answers access_denied", async () => {
    const site = await startOidcSite()
    const agent = site.agent()
    const start = await startSso(agent, "carol@acme.test")
    const state = new URL(String(start.headers.location)).searchParams.get("state")!
    const denied = new URL(site.redirectUri())
    denied.search = new URLSearchParams({ error: "access_denied", error_description: "The user is not assigned to this application", state, iss: site.idp.issuer }).toString()
    const callback = await agent.get(local(denied))
    expectRefused(site, callback, "SsoResponseInvalid")
    const page = await agent.get(local(location(site, callback)))
    expect(page.status).toBe(400)
    expect(page.text).toContain("Sign-in refused")
    expect(page.text).not.toContain("not assigned")
    expect(refusals(site)).toEqual([expect.objectContaining({ reason: "SsoResponseInvalid", connectionId: CONNECTION_ID, providerError: "access_denied" })])
    expect((await agent.get("/auth/session").expect(200)).body).toBeNull()
  })

  it("answers SsoConnectionNotFound for a connection of another type, a turned-off one, or none", async () => {
    const site = await startOidcSite()
    const now = new Date()
    await site.adapter.createSsoConnection!({
      id: "acme-saml",
      organizationId: ORG_ID,
      type: "saml",
      name: "Acme SAML",
      enabled: true,
      settings: { entityId: "https://idp.acme.test", ssoUrl: "https://idp.acme.test/sso", certificates: [] },
      createdAt: now,
      updatedAt: now,
    })
    const agent = site.agent()
    const back = await atIdp(site, await startSso(agent, "carol@acme.test"), "carol")
    const saml = new URL(site.redirectUri("acme-saml"))
    saml.search = back.search
    expectRefused(site, await agent.get(local(saml)), "SsoConnectionNotFound")
    expectRefused(site, await agent.get(local(new URL(site.redirectUri("no-such-connection")))), "SsoConnectionNotFound")

    await site.adapter.updateSsoConnection!(CONNECTION_ID, { enabled: false, updatedAt: new Date() })
    expectRefused(site, await agent.get(local(back)), "SsoConnectionNotFound")
    expect(await site.adapter.getUserByEmail!("carol@acme.test")).toBeNull()
  })
})

describe("an issuer that cannot be reached", () => {
  it("answers a named error page when the connection's issuer has no discovery document", async () => {
    const site = await startOidcSite()
    const connection = await oidcConnection(site.idp)
    await site.adapter.updateSsoConnection!(CONNECTION_ID, { settings: { ...connection.settings, issuer: `${site.url}/no-idp-here` }, updatedAt: new Date(Date.now() + 1000) })
    const start = await startSso(site.agent(), "carol@acme.test")
    expectRefused(site, start, "SsoResponseInvalid")
  })
})
