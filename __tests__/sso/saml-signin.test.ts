/**
 * SAML sign-in against a real identity provider in the test process (issue #28): `samlp` signs
 * the assertions with keys made at test time (support/saml-idp.ts). Through HTTP: "Sign in with
 * SSO" with an address at a verified domain, our AuthnRequest to the IdP, its POSTed answer to our
 * ACS, the session with the user and the connection's organization (role from the groups); JIT
 * provisioning (the address proved only for a verified domain); IdP-initiated on and off; replay
 * (same process, other process); certificate rollover; signed AuthnRequests checked by the IdP;
 * single logout from the IdP and our LogoutRequest URL; the SP metadata.
 */
import { deflateRawSync, inflateRawSync } from "node:zlib"
import { createSign, randomUUID } from "node:crypto"
import { beforeAll, describe, expect, it } from "@jest/globals"
import express, { type Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { authRouter, authSession } from "../../lib/index.js"
import { MemoryStore } from "../../lib/shared-store/memory.js"
import { resolveConfig } from "../../lib/core/config/resolve.js"
import type { RequestContext } from "../../lib/core/context.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AdapterSsoConnection, SamlSettings, SsoMapping } from "../../lib/sso/adapter.js"
import { samlLogoutUrl } from "../../lib/sso/saml/slo.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET, credentials, request, type Agent } from "../helpers/app.js"
import { certBody, formFields, keyPair, logoutRequestQuery, samlIdp, unsolicitedResponse, type IdpUser, type KeyPair, type SamlIdp } from "./support/saml-idp.js"

const HOST = "app.test"
const BASE = `http://${HOST}/auth`
const IDP_SSO = "https://idp.test/sso"
const IDP_SLO = "https://idp.test/slo"

let idpKey: KeyPair
let idpKey2: KeyPair
let spKey: KeyPair
let adapter: Adapter
let store: MemoryStore
let config: AuthConfig
let apps: Express[]
const audits: Array<Record<string, unknown>> = []
let counter = 0

function appOf(): Express {
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  return app
}

beforeAll(async () => {
  ;[idpKey, idpKey2, spKey] = await Promise.all([keyPair("idp.test"), keyPair("idp.test rollover"), keyPair("app.test sp")])
  adapter = MemoryAdapter()
  store = new MemoryStore()
  config = {
    secret: SECRET,
    providers: [credentials()],
    logLevel: "silent",
    adapter,
    store,
    organizations: true,
    sso: { saml: { signingKey: spKey.key, signingCert: spKey.cert } },
    scim: true,
    events: { audit: (record) => void audits.push({ ...(record as unknown as Record<string, unknown>) }) },
  } as AuthConfig
  // Two "processes": separate routers (separate caches) over the same adapter and shared store.
  apps = [appOf(), appOf()]
}, 60_000)

interface Org {
  id: string
  slug: string
  domain: string
  connection: AdapterSsoConnection
  acs: string
  idp: SamlIdp
  user: IdpUser
}

async function org(options: { verified?: boolean; settings?: Partial<SamlSettings>; mapping?: SsoMapping; signWith?: KeyPair; requireSignedRequests?: boolean; user?: Partial<IdpUser> } = {}): Promise<Org> {
  counter += 1
  const id = `org${counter}${randomUUID().slice(0, 6)}`
  const slug = `acme-${counter}-${randomUUID().slice(0, 6)}`
  const domain = `${slug}.example`
  const owner = await adapter.createUser!({ id: `owner-${id}`, email: `owner@${domain}`, name: "Owner", emailVerified: new Date() })
  await adapter.createOrganization!({ id, slug, name: slug, createdAt: new Date() }, { organizationId: id, userId: owner.id, role: "owner", createdAt: new Date() })
  await adapter.createDomain!({ organizationId: id, domain, token: randomUUID(), verifiedAt: null, enforceSso: false, createdAt: new Date() })
  if (options.verified !== false) expect(await adapter.verifyDomain!(id, domain, new Date())).toMatchObject({ domain })
  const connectionId = `c${counter}${randomUUID().replace(/-/g, "").slice(0, 10)}`
  const entityId = `https://idp.test/${connectionId}`
  const connection: AdapterSsoConnection = {
    id: connectionId,
    organizationId: id,
    type: "saml",
    name: "Test IdP",
    enabled: true,
    settings: { entityId, ssoUrl: IDP_SSO, sloUrl: IDP_SLO, certificates: [certBody(idpKey.cert)], ...options.settings },
    mapping: options.mapping ?? { roles: { "eng-admins": "admin" } },
    createdAt: new Date(),
    updatedAt: new Date(),
  }
  await adapter.createSsoConnection!(connection)
  const acs = `${BASE}/sso/saml/${connectionId}/acs`
  const user: IdpUser = { email: `person${counter}@${domain}`, name: `Person ${counter}`, ...options.user }
  const idp = samlIdp({
    entityId,
    signing: options.signWith ?? idpKey,
    acsUrl: acs,
    audience: `${BASE}/sso/saml/${connectionId}/metadata`,
    user: () => user,
    ...(options.requireSignedRequests ? { requireSignedRequests: spKey.cert } : {}),
  })
  return { id, slug, domain, connection, acs, idp, user }
}

function agent(app = apps[0]!): Agent {
  return request.agent(app).set("Host", HOST) as Agent
}

async function csrf(client: Agent): Promise<string> {
  return (await client.get("/auth/csrf").set("Accept", "application/json").expect(200)).body.csrfToken as string
}

/** "Sign in with SSO": the redirect to the IdP. */
async function start(client: Agent, identifier: string): Promise<URL> {
  const csrfToken = await csrf(client) // before the POST is made: the agent attaches its cookies then
  const started = await client.post("/auth/sso").type("form").send({ csrfToken, identifier, callbackUrl: "/dashboard" })
  expect(started.status).toBe(302)
  return new URL(String(started.headers.location))
}

/** The IdP's answer to the AuthnRequest in `url`: the form's fields. */
async function idpAnswer(o: Org, url: URL): Promise<Record<string, string>> {
  const answered = await request(o.idp.app).get(`/sso${url.search}`)
  expect(answered.status).toBe(200)
  const fields = formFields(answered.text)
  expect(fields.SAMLResponse).toBeTruthy()
  return fields
}

async function postAcs(client: Agent, o: Org, fields: Record<string, string>, json = true) {
  const call = client.post(`/auth/sso/saml/${o.connection.id}/acs`).type("form")
  if (json) call.set("Accept", "application/json")
  return call.send(fields)
}

async function session(client: Agent) {
  return (await client.get("/auth/session").set("Accept", "application/json").expect(200)).body
}

/** The whole SP-initiated sign-in; the ACS's answer. */
async function signIn(client: Agent, o: Org, identifier = o.user.email) {
  const url = await start(client, identifier)
  expect(url.origin + url.pathname).toBe(IDP_SSO)
  const fields = await idpAnswer(o, url)
  const answer = await client.post(`/auth/sso/saml/${o.connection.id}/acs`).type("form").send(fields)
  return { url, fields, answer }
}

function refusals(connectionId: string) {
  return audits.filter((record) => record.type === "sso.refused" && record.connectionId === connectionId).map((record) => record.reason)
}

describe("SAML sign-in with a real IdP (samlp)", () => {
  it("SP-initiated: address at a verified domain -> IdP -> ACS -> session with the organization and the mapped role (JIT)", async () => {
    const o = await org({ user: { groups: ["staff", "eng-admins"] } })
    const client = agent()
    const { url, fields, answer } = await signIn(client, o)
    // The request the IdP got is ours, and its answer carries our relay id.
    const request = inflateRawSync(Buffer.from(url.searchParams.get("SAMLRequest")!, "base64")).toString()
    expect(request).toContain(`AssertionConsumerServiceURL="${o.acs}"`)
    expect(o.idp.requests).toHaveLength(1)
    expect(fields.RelayState).toBe(url.searchParams.get("RelayState"))
    expect(answer.status).toBe(302)
    expect(answer.headers.location).toBe(`http://${HOST}/dashboard`)
    const body = await session(client)
    expect(body.user).toMatchObject({ email: o.user.email, name: o.user.name })
    expect(body.organization).toMatchObject({ id: o.id, slug: o.slug, role: "admin" })
    // JIT: the user exists, the address proved (the domain is verified by this organization), a member with the mapped role.
    const stored = await adapter.getUserByEmail!(o.user.email)
    expect(stored?.emailVerified).toBeInstanceOf(Date)
    expect((await adapter.getMember!(o.id, stored!.id))?.role).toBe("admin")
    expect(await adapter.getUserByAccount!({ provider: `sso-${o.connection.id}`, providerAccountId: o.user.email })).toMatchObject({ id: stored!.id })
    expect(refusals(o.connection.id)).toEqual([])
  })

  it("JIT at a domain the organization has not verified: routed by slug, the address is not taken as proved, default role", async () => {
    const o = await org({ verified: false })
    const client = agent()
    const { answer } = await signIn(client, o, o.slug)
    expect(answer.status).toBe(302)
    const stored = await adapter.getUserByEmail!(o.user.email)
    expect(stored).not.toBeNull()
    expect(stored!.emailVerified).toBeNull()
    expect((await adapter.getMember!(o.id, stored!.id))?.role).toBe("member")
    expect((await session(client)).organization).toMatchObject({ id: o.id, role: "member" })
  })

  it("an existing account at a domain the organization has not verified is not taken over: SsoAccountNotLinked, audited, nothing linked", async () => {
    const o = await org({ verified: false })
    const existing = await adapter.createUser!({ id: `existing-${o.id}`, email: o.user.email, name: "Existing", emailVerified: new Date() })
    const client = agent()
    const url = await start(client, o.slug)
    const answer = await postAcs(client, o, await idpAnswer(o, url))
    expect(answer.status).toBe(409)
    expect(answer.body.error.type).toBe("SsoAccountNotLinked")
    expect(await session(client)).toBeNull()
    expect(await adapter.getMember!(o.id, existing.id)).toBeNull()
    expect(await adapter.getUserByAccount!({ provider: `sso-${o.connection.id}`, providerAccountId: o.user.email })).toBeNull()
    expect(refusals(o.connection.id)).toContain("SsoAccountNotLinked")
  })

  it("a person the organization's directory deactivated (SCIM) does not sign in through its connection, and is not made a member again", async () => {
    const o = await org()
    const client = agent()
    expect((await signIn(client, o)).answer.status).toBe(302)
    const user = (await adapter.getUserByEmail!(o.user.email))!
    // The directory deactivates them: the membership goes, the SCIM record says inactive.
    await adapter.removeMember!(o.id, user.id)
    const now = new Date()
    await adapter.createScimUser!({ organizationId: o.id, userId: user.id, userName: o.user.email, userNameKey: o.user.email, externalId: null, active: false, suspendedRole: "member", attributes: {}, createdAt: now, updatedAt: now })
    const again = agent()
    const url = await start(again, o.user.email)
    const answer = await postAcs(again, o, await idpAnswer(o, url))
    expect(answer.status).toBe(403)
    expect(answer.body.error.type).toBe("SsoUserDeactivated")
    expect(await adapter.getMember!(o.id, user.id)).toBeNull()
    expect(refusals(o.connection.id)).toContain("SsoUserDeactivated")
  })

  it("the same response posted twice is a replay, in this process and in another", async () => {
    const o = await org()
    const first = agent()
    const { fields, answer } = await signIn(first, o)
    expect(answer.status).toBe(302)
    for (const app of apps) {
      const again = await postAcs(agent(app), o, fields)
      expect(again.status).toBe(400)
      expect(again.body).toMatchObject({ error: { type: "SsoReplay" } })
    }
    expect(refusals(o.connection.id)).toEqual(["SsoReplay", "SsoReplay"])
    // A browser is sent to the error page that names the refusal, never a 500.
    const page = await postAcs(agent(), o, fields, false)
    expect(page.status).toBe(302)
    expect(new URL(String(page.headers.location)).searchParams.get("error")).toBe("SsoReplay")
  })

  it("IdP-initiated is refused while the connection does not allow it", async () => {
    const o = await org()
    const client = agent()
    const refused = await postAcs(client, o, { SAMLResponse: await unsolicitedResponse(o.idp.options) })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ error: { type: "SsoUnsolicited" } })
    expect(await adapter.getUserByEmail!(o.user.email)).toBeNull()
    expect((await session(client))?.user).toBeUndefined()
    expect(refusals(o.connection.id)).toEqual(["SsoUnsolicited"])
  })

  it("IdP-initiated is accepted when allowed: to the root, or to a same-origin RelayState; another origin is ignored", async () => {
    const o = await org({ settings: { allowIdpInitiated: true } })
    const client = agent()
    const accepted = await postAcs(client, o, { SAMLResponse: await unsolicitedResponse(o.idp.options) }, false)
    expect(accepted.status).toBe(302)
    expect(accepted.headers.location).toBe(`http://${HOST}/`)
    expect((await session(client)).user).toMatchObject({ email: o.user.email })
    const relayed = await postAcs(agent(), o, { SAMLResponse: await unsolicitedResponse(o.idp.options), RelayState: "/welcome" }, false)
    expect(relayed.headers.location).toBe(`http://${HOST}/welcome`)
    const elsewhere = await postAcs(agent(), o, { SAMLResponse: await unsolicitedResponse(o.idp.options), RelayState: "https://evil.example/steal" }, false)
    expect(elsewhere.status).toBe(302)
    expect(elsewhere.headers.location).toBe(`http://${HOST}/`)
  })

  it("certificate rollover: a connection pinning two certificates accepts the second; one pinning only the first refuses it", async () => {
    const rolled = await org({ settings: { certificates: [certBody(idpKey.cert), certBody(idpKey2.cert)] }, signWith: idpKey2 })
    const client = agent()
    expect((await signIn(client, rolled)).answer.status).toBe(302)
    expect((await session(client)).user).toMatchObject({ email: rolled.user.email })

    const pinned = await org({ signWith: idpKey2 })
    const other = agent()
    const url = await start(other, pinned.user.email)
    const refused = await postAcs(other, pinned, await idpAnswer(pinned, url))
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ error: { type: "SsoResponseInvalid" } })
    expect(await adapter.getUserByEmail!(pinned.user.email)).toBeNull()
  })

  it("signed AuthnRequests: the redirect carries a signature the IdP checks; an unsigned one is refused by that IdP", async () => {
    const signed = await org({ settings: { signRequests: true }, requireSignedRequests: true })
    const client = agent()
    const { url, answer } = await signIn(client, signed)
    expect(url.searchParams.get("SigAlg")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
    expect(url.searchParams.get("Signature")).toBeTruthy()
    expect(answer.status).toBe(302)
    expect((await session(client)).user).toMatchObject({ email: signed.user.email })

    const unsigned = await org({ requireSignedRequests: true })
    const url2 = await start(agent(), unsigned.user.email)
    expect(url2.searchParams.get("Signature")).toBeNull()
    expect((await request(unsigned.idp.app).get(`/sso${url2.search}`)).status).toBe(400)
  })

  it("single logout from the IdP ends the user's sessions and answers the IdP; an unsigned LogoutRequest changes nothing", async () => {
    const o = await org()
    const client = agent()
    expect((await signIn(client, o)).answer.status).toBe(302)
    expect((await session(client)).user).toMatchObject({ email: o.user.email })
    const slo = `${BASE}/sso/saml/${o.connection.id}/slo`
    const settings = o.connection.settings as SamlSettings

    const query = logoutRequestQuery({ entityId: settings.entityId, signing: idpKey, destination: slo, nameId: o.user.email })
    const unsigned = await agent().get(`/auth/sso/saml/${o.connection.id}/slo?${query.replace(/&SigAlg=.*$/, "")}`).set("Accept", "application/json")
    expect(unsigned.status).toBe(400)
    expect((await session(client)).user).toMatchObject({ email: o.user.email })
    const forged = logoutRequestQuery({ entityId: settings.entityId, signing: idpKey2, destination: slo, nameId: o.user.email })
    expect((await agent().get(`/auth/sso/saml/${o.connection.id}/slo?${forged}`).set("Accept", "application/json")).status).toBe(400)
    expect((await session(client)).user).toMatchObject({ email: o.user.email })

    const done = await agent().get(`/auth/sso/saml/${o.connection.id}/slo?${query}`)
    expect(done.status).toBe(302)
    const back = new URL(String(done.headers.location))
    expect(back.origin + back.pathname).toBe(IDP_SLO)
    expect(inflateRawSync(Buffer.from(back.searchParams.get("SAMLResponse")!, "base64")).toString()).toContain("urn:oasis:names:tc:SAML:2.0:status:Success")
    expect(await session(client)).toBeNull()
    // The same LogoutRequest again: a replay.
    const again = await agent().get(`/auth/sso/saml/${o.connection.id}/slo?${query}`).set("Accept", "application/json")
    expect(again.status).toBe(400)
    expect(again.body).toMatchObject({ error: { type: "SsoReplay" } })
  })

  it("SP-initiated logout: a signed LogoutRequest URL for the person; the IdP's signed LogoutResponse lands on the root", async () => {
    const o = await org({ settings: { signRequests: true } })
    const ctx = { config: resolveConfig(config), baseUrl: BASE } as unknown as RequestContext
    const url = new URL((await samlLogoutUrl(ctx, o.connection, o.user.email, "_session-1"))!)
    expect(url.origin + url.pathname).toBe(IDP_SLO)
    expect(url.searchParams.get("Signature")).toBeTruthy()
    const xml = inflateRawSync(Buffer.from(url.searchParams.get("SAMLRequest")!, "base64")).toString()
    expect(xml).toContain(o.user.email)
    expect(xml).toContain("_session-1")
    const requestId = /ID="([^"]+)"/.exec(xml)![1]!

    const settings = o.connection.settings as SamlSettings
    const response =
      `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${BASE}/sso/saml/${o.connection.id}/slo" InResponseTo="${requestId}">` +
      `<saml:Issuer>${settings.entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`
    let query = `SAMLResponse=${encodeURIComponent(Buffer.from(inflateRawSyncInverse(response)).toString("base64"))}&SigAlg=${encodeURIComponent("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")}`
    query += `&Signature=${encodeURIComponent(createSign("RSA-SHA256").update(query).sign(idpKey.key, "base64"))}`
    const landed = await agent().get(`/auth/sso/saml/${o.connection.id}/slo?${query}`)
    expect(landed.status).toBe(302)
    expect(landed.headers.location).toBe(`http://${HOST}/`)
    expect(await samlLogoutUrl(ctx, { ...o.connection, id: `${o.connection.id}x`, settings: { ...settings, sloUrl: null } }, o.user.email)).toBeNull()
  })

  it("signing out here sends a person who signed in through SAML on to the IdP's logout, with a LogoutRequest naming them", async () => {
    const o = await org({ settings: { signRequests: true } })
    const client = agent()
    const { answer } = await signIn(client, o)
    expect(answer.status).toBe(302)
    expect((await session(client)).user.email).toBe(o.user.email)
    const out = await client.post("/auth/signout").type("form").send({ csrfToken: await csrf(client) })
    expect(out.status).toBe(302)
    const url = new URL(String(out.headers.location))
    expect(url.origin + url.pathname).toBe(IDP_SLO)
    const xml = inflateRawSync(Buffer.from(url.searchParams.get("SAMLRequest")!, "base64")).toString()
    expect(xml).toContain("LogoutRequest")
    expect(xml).toContain(o.user.email)
    // Signed out here already, whatever the IdP does.
    expect(await session(client)).toBeNull()
  })

  it("metadata: the entity id, the ACS URL, the SLO URL and the signing certificate (a connection that signs its requests); an unknown connection is 404", async () => {
    const o = await org({ settings: { signRequests: true } })
    const answer = await agent().get(`/auth/sso/saml/${o.connection.id}/metadata`)
    expect(answer.status).toBe(200)
    expect(answer.headers["content-type"]).toMatch(/^application\/samlmetadata\+xml/)
    const xml = answer.text
    expect(xml).toContain(`entityID="${BASE}/sso/saml/${o.connection.id}/metadata"`)
    expect(xml).toContain(`Location="${o.acs}"`)
    expect(xml).toContain(`Location="${BASE}/sso/saml/${o.connection.id}/slo"`)
    expect(xml.replace(/\s+/g, "")).toContain(certBody(spKey.cert))
    expect(xml).toContain('AuthnRequestsSigned="true"')
    expect((await agent().get(`/auth/sso/saml/nope${counter}/metadata`).set("Accept", "application/json")).status).toBe(404)
  })
})

function inflateRawSyncInverse(xml: string): Buffer {
  return deflateRawSync(Buffer.from(xml))
}
