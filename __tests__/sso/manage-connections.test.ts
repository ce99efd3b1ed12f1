/**
 * Managing an organization's SSO connections (issue #28), over HTTP: only someone holding
 * `organization:update` with a recent sign-in changes them (a plain member: PermissionDenied; a
 * non-member: OrganizationNotFound; a stale sign-in: RecentSignInRequired); a connection of
 * another organization is SsoConnectionNotFound; an IdP's metadata (XML, or fetched from its URL)
 * fills the connection in, two certificates for a rollover; a DOCTYPE in it is refused; the role
 * mapping names the organization's roles, never owner; the list never shows the client secret;
 * forms go back to the organization page's SSO section.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import express, { type Express } from "express"
import { generate } from "selfsigned"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { authRouter } from "../../lib/index.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET } from "../helpers/app.js"
import { agentFor, clientOf, credentialsProvider, csrfOf, PASSWORD, rememberPerson, unique, type Client, type Json } from "../integration/organizations/support.js"


interface SsoApp {
  app: Express
  adapter: Adapter
  audits: Json[]
}

function buildApp(): SsoApp {
  const adapter = MemoryAdapter()
  const audits: Json[] = []
  const config = {
    secret: SECRET,
    logLevel: "silent",
    adapter,
    providers: [
      credentialsProvider(),
    ],
    organizations: { roles: { member: { project: ["read"] }, editor: { project: ["read", "write"] } } },
    sso: { dns: { resolveTxt: async () => [] } },
    events: { audit: (record: unknown) => void audits.push({ ...(record as Json) }) },
  } as unknown as AuthConfig
  const app = express()
  app.use("/auth", authRouter(config))
  return { app, adapter, audits }
}

async function person(t: SsoApp, label: string, options: { stale?: boolean } = {}): Promise<Client> {
  const username = unique(label)
  const who = { id: `user-${username}`, email: `${username}@example.org`, username }
  await t.adapter.createUser!({ id: who.id, email: who.email, name: label, emailVerified: new Date() })
  rememberPerson(username, { id: who.id, email: who.email, name: label })
  const clock = options.stale ? jest.spyOn(Date, "now").mockReturnValue(Date.now() - 3 * 60 * 60 * 1000) : undefined
  try {
    const agent = agentFor(t.app)
    const csrfToken = await csrfOf(agent)
    const response = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken, username, password: PASSWORD })
    if (response.status !== 302 || String(response.headers.location).includes("error=")) throw new Error(`sign-in failed: ${response.headers.location}`)
    return clientOf(agent, who)
  } finally {
    clock?.mockRestore()
  }
}

async function sso(client: Client, path: string, fields: Json) {
  const response = await client.agent
    .post(`/auth/sso/${path}`)
    .set("Accept", "application/json")
    .send({ ...fields, csrfToken: await csrfOf(client.agent) })
  return { status: response.status, body: response.body as Json, text: response.text }
}

async function form(client: Client, path: string, fields: Record<string, string>) {
  const response = await client.agent
    .post(`/auth/sso/${path}`)
    .type("form")
    .send({ ...fields, csrfToken: await csrfOf(client.agent) })
  return { status: response.status, location: String(response.headers.location ?? "") }
}

async function organizationOf(owner: Client): Promise<Json> {
  const created = await owner.act("create", { name: "Acme", slug: unique("acme").toLowerCase() })
  if (created.status !== 200) throw new Error(`create failed: ${created.text}`)
  return created.body.organization as Json
}

function der(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "")
}

function metadataXml(certificates: string[], options: { doctype?: boolean } = {}): string {
  const keys = certificates
    .map((pem) => `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>\n${der(pem).replace(/(.{64})/g, "$1\n")}\n</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`)
    .join("")
  return `<?xml version="1.0"?>${options.doctype ? '<!DOCTYPE md:EntityDescriptor [<!ENTITY idp "https://evil.example">]>' : ""}
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://idp.acme.example/saml">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${keys}
    <md:KeyDescriptor use="encryption"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${der(certificates[0]!)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.acme.example/saml/slo"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.acme.example/saml/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.acme.example/saml/redirect"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`
}

const OIDC = { type: "oidc", name: "Acme OIDC", issuer: "https://login.acme.example", clientId: "acme-client", clientSecret: "s3cr3t-client-secret-value" }

describe("managing SSO connections", () => {
  let current: string
  let next: string
  let metadataServer: Server
  let metadataUrl: string
  beforeAll(async () => {
    current = (await generate([{ name: "commonName", value: "idp.acme.example" }], { keySize: 2048, algorithm: "sha256" })).cert
    next = (await generate([{ name: "commonName", value: "idp.acme.example" }], { keySize: 2048, algorithm: "sha256" })).cert
    metadataServer = createServer((req, res) => {
      res.setHeader("content-type", "application/samlmetadata+xml")
      res.end(metadataXml([current]))
    })
    await new Promise<void>((listening) => metadataServer.listen(0, "127.0.0.1", listening))
    metadataUrl = `http://127.0.0.1:${(metadataServer.address() as AddressInfo).port}/metadata`
  })
  afterAll(() => new Promise<void>((closed) => metadataServer.close(() => closed())))

  it("metadata XML fills a SAML connection in: entity id, the redirect binding's URL, SLO, both certificates of a rollover", async () => {
    const t = buildApp()
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const made = await sso(owner, "connections/create", { organizationId: organization.id, type: "saml", name: "Acme SAML", metadataXml: metadataXml([current, next]), allowIdpInitiated: "on" })
    expect(made.status).toBe(200)
    const id = made.body.connection.id as string
    const stored = await t.adapter.getSsoConnection!(id)
    expect(stored).toMatchObject({
      organizationId: organization.id,
      type: "saml",
      enabled: true,
      settings: { entityId: "https://idp.acme.example/saml", ssoUrl: "https://idp.acme.example/saml/redirect", sloUrl: "https://idp.acme.example/saml/slo", certificates: [der(current), der(next)], allowIdpInitiated: true, signRequests: false },
    })
    expect(made.body.connection.urls).toEqual({ metadata: `http://app.test/auth/sso/saml/${id}/metadata`, entityId: `http://app.test/auth/sso/saml/${id}/metadata`, acs: `http://app.test/auth/sso/saml/${id}/acs`, slo: `http://app.test/auth/sso/saml/${id}/slo` })
    expect(t.audits).toContainEqual(expect.objectContaining({ type: "sso.connection_created", userId: owner.id, organizationId: organization.id, connectionId: id }))

    // A DOCTYPE (entities) is refused, and nothing is stored.
    const doctype = await sso(owner, "connections/create", { organizationId: organization.id, type: "saml", name: "Evil", metadataXml: metadataXml([current], { doctype: true }) })
    expect(doctype.status).toBe(400)
    expect(doctype.body.error.type).toBe("InvalidSsoConnection")
    // Malformed metadata, a certificate that does not parse, a non-https URL: refused.
    for (const fields of [
      { metadataXml: "<md:EntityDescriptor" },
      { entityId: "https://idp.example", ssoUrl: "https://idp.example/sso", certificate: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----" },
      { entityId: "https://idp.example", ssoUrl: "http://idp.example/sso", certificate: current },
      { entityId: "https://idp.example", ssoUrl: "https://idp.example/sso" },
    ]) {
      const refused = await sso(owner, "connections/create", { organizationId: organization.id, type: "saml", name: "Bad", ...fields })
      expect({ fields, type: refused.body?.error?.type }).toEqual({ fields, type: "InvalidSsoConnection" })
    }
    expect(await t.adapter.listSsoConnections!(organization.id)).toHaveLength(1)

    // Fields given one by one work too; the metadata URL is fetched (a loopback server in tests).
    const manual = await sso(owner, "connections/create", { organizationId: organization.id, type: "saml", name: "Manual", entityId: "urn:idp", ssoUrl: "https://idp.example/sso", certificate: current })
    expect(manual.status).toBe(200)
    expect((await t.adapter.getSsoConnection!(manual.body.connection.id))?.settings).toMatchObject({ entityId: "urn:idp", certificates: [der(current)] })
    const fetched = await sso(owner, "connections/create", { organizationId: organization.id, type: "saml", name: "By URL", metadataUrl })
    expect(fetched.status).toBe(200)
    expect((await t.adapter.getSsoConnection!(fetched.body.connection.id))?.settings).toMatchObject({ entityId: "https://idp.acme.example/saml", certificates: [der(current)] })
  })

  it("the client secret is sealed, and no list or answer shows it", async () => {
    const t = buildApp()
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const made = await sso(owner, "connections/create", { organizationId: organization.id, ...OIDC, scopes: "groups offline_access", emailAttribute: "mail", groupsAttribute: "groups", roleMapping: "Engineering=editor\nSupport=member" })
    expect(made.status).toBe(200)
    expect(made.text).not.toContain(OIDC.clientSecret)
    const id = made.body.connection.id as string
    const stored = await t.adapter.getSsoConnection!(id)
    const sealed = (stored?.settings as { clientSecret: string }).clientSecret
    expect(sealed).not.toContain(OIDC.clientSecret)
    expect(stored?.mapping).toEqual({ email: "mail", groups: "groups", roles: { Engineering: "editor", Support: "member" } })

    const list = await owner.get(`/auth/sso/organization/${organization.id}`)
    expect(list.status).toBe(200)
    expect(list.text).not.toContain(OIDC.clientSecret)
    expect(list.text).not.toContain(sealed)
    expect(list.body.connections).toEqual([
      expect.objectContaining({ id, type: "oidc", settings: { issuer: OIDC.issuer, clientId: OIDC.clientId, scopes: ["groups", "offline_access"], clientSecretSet: true }, urls: { redirectUri: `http://app.test/auth/sso/oidc/${id}/callback` } }),
    ])

    // An update without the secret keeps it; the role mapping never gives owner, nor a role the organization lacks.
    const renamed = await sso(owner, "connections/update", { connectionId: id, name: "Renamed", enabled: false })
    expect(renamed.body.connection).toMatchObject({ name: "Renamed", enabled: false })
    expect(((await t.adapter.getSsoConnection!(id))?.settings as { clientSecret: string }).clientSecret).toBe(sealed)
    for (const roleMapping of [{ Admins: "owner" }, "Admins=wizard", "not a mapping"]) {
      const refused = await sso(owner, "connections/update", { connectionId: id, roleMapping })
      expect({ roleMapping, type: refused.body?.error?.type }).toEqual({ roleMapping, type: "InvalidSsoConnection" })
    }
    expect((await t.adapter.getSsoConnection!(id))?.mapping?.roles).toEqual({ Engineering: "editor", Support: "member" })
  })

  it("only an admin with a recent sign-in manages; another organization's connection is not found", async () => {
    const t = buildApp()
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const member = await person(t, "member")
    await t.adapter.addMember!({ organizationId: organization.id, userId: member.id, role: "member", createdAt: new Date() })
    const stranger = await person(t, "stranger")
    const made = await sso(owner, "connections/create", { organizationId: organization.id, ...OIDC })
    const id = made.body.connection.id as string

    // A plain member: PermissionDenied, for connections, domains and the list.
    const denied = await sso(member, "connections/create", { organizationId: organization.id, ...OIDC })
    expect([denied.status, denied.body.error.type]).toEqual([403, "PermissionDenied"])
    expect((await sso(member, "connections/delete", { connectionId: id })).body.error.type).toBe("PermissionDenied")
    expect((await sso(member, "domains/add", { organizationId: organization.id, domain: "acme.example" })).body.error.type).toBe("PermissionDenied")
    expect((await member.get(`/auth/sso/organization/${organization.id}`)).status).toBe(403)

    // Someone outside: the organization does not exist, its connection neither.
    const outside = await sso(stranger, "connections/create", { organizationId: organization.id, ...OIDC })
    expect([outside.status, outside.body.error.type]).toEqual([404, "OrganizationNotFound"])
    expect((await stranger.get(`/auth/sso/organization/${organization.id}`)).body.error.type).toBe("OrganizationNotFound")
    // The stranger's own organization, with this organization's connection id.
    await organizationOf(stranger)
    const foreign = await sso(stranger, "connections/update", { connectionId: id, name: "Taken over" })
    expect([foreign.status, foreign.body.error.type]).toEqual([404, "SsoConnectionNotFound"])
    expect((await sso(stranger, "connections/delete", { connectionId: id })).body.error.type).toBe("SsoConnectionNotFound")

    // The owner with a sign-in three hours old: RecentSignInRequired.
    const staleOwner = await person(t, "stale", { stale: true })
    await t.adapter.addMember!({ organizationId: organization.id, userId: staleOwner.id, role: "admin", createdAt: new Date() })
    const stale = await sso(staleOwner, "connections/delete", { connectionId: id })
    expect([stale.status, stale.body.error.type]).toEqual([403, "RecentSignInRequired"])

    expect(await t.adapter.getSsoConnection!(id)).toMatchObject({ name: OIDC.name, enabled: true })
    expect(t.audits.filter((record) => String(record.type).startsWith("sso.connection_"))).toHaveLength(1)

    const deleted = await sso(owner, "connections/delete", { connectionId: id })
    expect(deleted.body).toMatchObject({ deleted: true })
    expect(await t.adapter.getSsoConnection!(id)).toBeNull()
    expect(t.audits).toContainEqual(expect.objectContaining({ type: "sso.connection_deleted", connectionId: id, organizationId: organization.id }))
  })

  it("forms go back to the organization page's SSO section, with saved or the error", async () => {
    const t = buildApp()
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const page = `http://app.test/auth/organization/${organization.slug}`
    const saved = await form(owner, "connections/create", { organizationId: organization.id, type: "oidc", name: "Form", issuer: "https://login.acme.example", clientId: "c", clientSecret: "s" })
    expect(saved).toEqual({ status: 302, location: `${page}?saved=sso-create#sso` })
    const refused = await form(owner, "connections/create", { organizationId: organization.id, type: "saml", name: "Form", metadataXml: metadataXml([current], { doctype: true }) })
    expect(refused).toEqual({ status: 302, location: `${page}?error=InvalidSsoConnection#sso` })
    const domain = await form(owner, "domains/add", { organizationId: organization.id, domain: `${unique("form").toLowerCase()}.example` })
    expect(domain.location).toBe(`${page}?saved=sso-add#sso`)
  })
})
