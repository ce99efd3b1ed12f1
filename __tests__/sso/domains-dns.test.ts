/**
 * Domains of an organization, proven through DNS (issue #28), over HTTP with a real DNS server
 * (support/dns-server.ts: UDP on 127.0.0.1) that Gatehouse's own node:dns Resolver asks
 * (`sso.dns.servers`): a claim is verified only once its TXT record is published; a domain another
 * organization verified cannot be verified again (DomainTaken); "Sign in with SSO" routes an
 * address at a verified domain to its organization's connection, and nothing else; enforcement
 * refuses a member's password sign-in at that domain (SsoRequired) but lets an owner in.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import express, { type Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { authRouter } from "../../lib/index.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET } from "../helpers/app.js"
import { startIdp, type TestIdp } from "../helpers/idp.js"
import { agentFor, clientOf, credentialsProvider, csrfOf, PASSWORD, rememberPerson, unique, type Client, type Json } from "../integration/organizations/support.js"
import { startDnsServer, type DnsServer } from "./support/dns-server.js"


interface SsoApp {
  app: Express
  adapter: Adapter
  audits: Json[]
}

function buildApp(dns: DnsServer): SsoApp {
  const adapter = MemoryAdapter()
  const audits: Json[] = []
  const config = {
    secret: SECRET,
    logLevel: "silent",
    adapter,
    providers: [
      credentialsProvider(),
    ],
    organizations: { roles: { member: { project: ["read"] } } },
    sso: { dns: { servers: [dns.address] } },
    events: { audit: (record: unknown) => void audits.push({ ...(record as Json) }) },
  } as unknown as AuthConfig
  const app = express()
  app.use("/auth", authRouter(config))
  return { app, adapter, audits }
}

async function stored(t: SsoApp, label: string, email?: string) {
  const username = unique(label)
  const id = `user-${username}`
  const address = (email ?? `${username}@example.org`).toLowerCase()
  await t.adapter.createUser!({ id, email: address, name: label, emailVerified: new Date() })
  rememberPerson(username, { id, email: address, name: label })
  return { id, email: address, username }
}

/** The Credentials sign-in form: the Location it answers. */
async function passwordSignIn(t: SsoApp, who: { username: string }) {
  const agent = agentFor(t.app)
  const csrfToken = await csrfOf(agent)
  const response = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken, username: who.username, password: PASSWORD })
  return { agent, status: response.status, location: String(response.headers.location ?? "") }
}

async function signedIn(t: SsoApp, who: { id: string; email: string; username: string }): Promise<Client> {
  const answer = await passwordSignIn(t, who)
  if (answer.status !== 302 || answer.location.includes("error=")) throw new Error(`sign-in failed: ${answer.location}`)
  return clientOf(answer.agent, who)
}

/** `POST /auth/sso/<path>` as JSON with the CSRF token. */
async function sso(client: Client, path: string, fields: Json) {
  const response = await client.agent
    .post(`/auth/sso/${path}`)
    .set("Accept", "application/json")
    .send({ ...fields, csrfToken: await csrfOf(client.agent) })
  return { status: response.status, body: response.body as Json }
}

async function organizationOf(owner: Client): Promise<Json> {
  const created = await owner.act("create", { name: "Acme", slug: unique("acme").toLowerCase() })
  if (created.status !== 200) throw new Error(`create failed: ${created.text}`)
  return created.body.organization as Json
}

describe("domains proven through a real DNS server", () => {
  let dns: DnsServer
  let idp: TestIdp
  beforeAll(async () => {
    dns = await startDnsServer()
    idp = await startIdp({ clients: [{ client_id: "acme-sso", client_secret: "acme-sso-secret", redirect_uris: ["http://app.test/auth/sso/oidc/x/callback"] }] })
  })
  afterAll(async () => {
    await dns.close()
    await idp.close()
  })

  it("a claim is verified only once its TXT record is published, and by one organization only", async () => {
    const t = buildApp(dns)
    const alice = await signedIn(t, await stored(t, "alice"))
    const organization = await organizationOf(alice)
    const domain = `${unique("corp").toLowerCase()}.example`

    const claimed = await sso(alice, "domains/add", { organizationId: organization.id, domain: domain.toUpperCase() })
    expect(claimed.status).toBe(200)
    expect(claimed.body).toMatchObject({ domain, txtName: `_gatehouse-challenge.${domain}`, verified: false })
    expect(claimed.body.txtValue).toMatch(/^gatehouse-verification=[A-Za-z0-9_-]{20,}$/)

    // Not published yet: the server is asked, and the claim stays unverified.
    const early = await sso(alice, "domains/verify", { organizationId: organization.id, domain })
    expect(early.status).toBe(409)
    expect(early.body.error.type).toBe("DomainNotVerified")
    expect(dns.asked).toContain(`_gatehouse-challenge.${domain}`)
    // A record with another value does not prove it either.
    dns.publish(`_gatehouse-challenge.${domain}`, "gatehouse-verification=someone-elses-token")
    expect((await sso(alice, "domains/verify", { organizationId: organization.id, domain })).body.error.type).toBe("DomainNotVerified")
    expect((await t.adapter.getDomain!(organization.id, domain))?.verifiedAt).toBeNull()

    // Published (split in two strings, as a long value is): verified.
    const value = claimed.body.txtValue as string
    dns.publish(`_gatehouse-challenge.${domain}`, [value.slice(0, 20), value.slice(20)])
    const verified = await sso(alice, "domains/verify", { organizationId: organization.id, domain })
    expect(verified.status).toBe(200)
    expect(verified.body).toMatchObject({ domain, verified: true })
    expect((await t.adapter.getVerifiedDomain!(domain))?.organizationId).toBe(organization.id)
    expect(t.audits.filter((record) => String(record.type).startsWith("sso.domain_"))).toEqual([
      expect.objectContaining({ type: "sso.domain_added", userId: alice.id, organizationId: organization.id, domain }),
      expect.objectContaining({ type: "sso.domain_verified", userId: alice.id, organizationId: organization.id, domain }),
    ])

    // Another organization may claim the name, publish its own record, and still not verify it.
    const bob = await signedIn(t, await stored(t, "bob"))
    const other = await organizationOf(bob)
    const second = await sso(bob, "domains/add", { organizationId: other.id, domain })
    // Verified elsewhere already: the adapter refuses the claim itself.
    expect(second.status).toBe(409)
    expect(second.body.error.type).toBe("DomainTaken")
    expect(await t.adapter.getDomain!(other.id, domain)).toBeNull()
    expect((await t.adapter.getVerifiedDomain!(domain))?.organizationId).toBe(organization.id)

    // A public mail domain cannot be claimed at all.
    const gmail = await sso(bob, "domains/add", { organizationId: other.id, domain: "gmail.com" })
    expect(gmail.status).toBe(400)
    expect(gmail.body.error.type).toBe("InvalidRequest")
  })

  it("two organizations claim a domain; the first to prove it holds it, the second is told DomainTaken", async () => {
    const t = buildApp(dns)
    const alice = await signedIn(t, await stored(t, "alice"))
    const bob = await signedIn(t, await stored(t, "bob"))
    const a = await organizationOf(alice)
    const b = await organizationOf(bob)
    const domain = `${unique("race").toLowerCase()}.example`
    const claimA = await sso(alice, "domains/add", { organizationId: a.id, domain })
    const claimB = await sso(bob, "domains/add", { organizationId: b.id, domain })
    expect([claimA.status, claimB.status]).toEqual([200, 200])
    dns.publish(`_gatehouse-challenge.${domain}`, claimA.body.txtValue as string)
    dns.publish(`_gatehouse-challenge.${domain}`, claimB.body.txtValue as string)
    expect((await sso(alice, "domains/verify", { organizationId: a.id, domain })).status).toBe(200)
    const late = await sso(bob, "domains/verify", { organizationId: b.id, domain })
    expect(late.status).toBe(409)
    expect(late.body.error.type).toBe("DomainTaken")
    expect((await t.adapter.getVerifiedDomain!(domain))?.organizationId).toBe(a.id)
    expect((await t.adapter.getDomain!(b.id, domain))?.verifiedAt).toBeNull()
  })

  it("routes an address at a verified domain to the organization's connection, and enforces SSO except for owners", async () => {
    const t = buildApp(dns)
    const domain = `${unique("acme").toLowerCase()}.example`
    const owner = await stored(t, "owner", `owner@${domain}`)
    const alice = await signedIn(t, owner)
    const organization = await organizationOf(alice)
    const member = await stored(t, "member", `member@${domain}`)
    await t.adapter.addMember!({ organizationId: organization.id, userId: member.id, role: "member", createdAt: new Date() })

    const connection = await sso(alice, "connections/create", { organizationId: organization.id, type: "oidc", name: "Acme IdP", issuer: idp.issuer, clientId: "acme-sso", clientSecret: "acme-sso-secret" })
    expect(connection.status).toBe(200)
    const claimed = await sso(alice, "domains/add", { organizationId: organization.id, domain })

    const start = async (identifier: string) => {
      const agent = agentFor(t.app)
      const csrfToken = await csrfOf(agent)
      return agent.post("/auth/sso").type("form").send({ csrfToken, identifier })
    }
    // Claimed but not verified: the address does not route (the sign-in page explains).
    const unverified = await start(`someone@${domain}`)
    expect(unverified.status).toBe(302)
    expect(String(unverified.headers.location)).toContain("error=SsoNotConfigured")
    const unknown = await start("no-such-organization")
    expect(String(unknown.headers.location)).toContain("error=SsoNotConfigured")

    dns.publish(`_gatehouse-challenge.${domain}`, claimed.body.txtValue as string)
    expect((await sso(alice, "domains/verify", { organizationId: organization.id, domain })).status).toBe(200)
    const routed = await start(`Someone@${domain.toUpperCase()}`)
    expect(routed.status).toBe(302)
    const location = new URL(String(routed.headers.location))
    expect(`${location.origin}`).toBe(idp.issuer)
    expect(location.searchParams.get("client_id")).toBe("acme-sso")
    expect(location.searchParams.get("redirect_uri")).toBe(`http://app.test/auth/sso/oidc/${connection.body.connection.id}/callback`)
    // The organization's slug routes too; an address at another domain does not.
    expect(new URL(String((await start(organization.slug as string)).headers.location)).origin).toBe(idp.issuer)
    expect(String((await start("someone@elsewhere.example")).headers.location)).toContain("error=SsoNotConfigured")

    // Enforcement needs a verified domain; with it on, the member's password sign-in is refused.
    expect((await passwordSignIn(t, member)).location).not.toContain("error=")
    const enforced = await sso(alice, "domains/enforce", { organizationId: organization.id, domain, enforce: true })
    expect(enforced.body).toMatchObject({ domain, enforce: true })
    const refused = await passwordSignIn(t, member)
    expect(refused.location).toContain("error=SsoRequired")
    const session = await refused.agent.get("/auth/session").set("Accept", "application/json")
    expect(session.body?.user ?? null).toBeNull()
    // The owner still gets in (break-glass).
    const ownerAgain = await passwordSignIn(t, owner)
    expect(ownerAgain.status).toBe(302)
    expect(ownerAgain.location).not.toContain("error=")
    // Off again: the member signs in with the password.
    expect((await sso(alice, "domains/enforce", { organizationId: organization.id, domain, enforce: false })).body).toMatchObject({ enforce: false })
    expect((await passwordSignIn(t, member)).location).not.toContain("error=")
  })

  it("enforcement is refused on an unverified domain, and a removed domain no longer routes", async () => {
    const t = buildApp(dns)
    const alice = await signedIn(t, await stored(t, "alice"))
    const organization = await organizationOf(alice)
    const domain = `${unique("gone").toLowerCase()}.example`
    const claimed = await sso(alice, "domains/add", { organizationId: organization.id, domain })
    const early = await sso(alice, "domains/enforce", { organizationId: organization.id, domain, enforce: true })
    expect(early.body.error.type).toBe("DomainNotVerified")
    expect((await t.adapter.getDomain!(organization.id, domain))?.enforceSso).toBe(false)
    dns.publish(`_gatehouse-challenge.${domain}`, claimed.body.txtValue as string)
    expect((await sso(alice, "domains/verify", { organizationId: organization.id, domain })).status).toBe(200)
    expect((await sso(alice, "domains/remove", { organizationId: organization.id, domain })).body).toMatchObject({ removed: true })
    expect(await t.adapter.getVerifiedDomain!(domain)).toBeNull()
    expect(t.audits.map((record) => record.type)).toContain("sso.domain_removed")
  })
})
