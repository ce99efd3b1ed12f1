/**
 * Contract checks for the enterprise sign-in methods (issue #28): SSO connections read back
 * exactly (settings and mapping JSON included), listed oldest first and only for their
 * organization; an organization claims a domain once; several organizations may claim one domain,
 * but it is verified for one of them at most, also when two verify it at the same moment;
 * `getVerifiedDomain` answers only that claim; deleting an organization takes its connections and
 * domains along. Every check makes its own organizations and users.
 */
import { randomUUID } from "node:crypto"
import { expect } from "@jest/globals"
import type { AdapterDomain, AdapterSsoConnection } from "../../lib/adapters.js"
import { newUser, type ContractContext } from "./fixtures.js"

/** Whole seconds, so every engine stores and returns them exactly; `offset` in seconds. */
const BASE = Math.floor(Date.now() / 1000) * 1000
const at = (offset: number) => new Date(BASE + offset * 1000)

function newConnection(organizationId: string, overrides: Partial<AdapterSsoConnection> = {}): AdapterSsoConnection {
  const id = randomUUID()
  return {
    id,
    organizationId,
    type: "saml",
    name: `Okta ${id.slice(0, 8)}`,
    enabled: true,
    settings: {
      entityId: `https://idp.example.com/${id}`,
      ssoUrl: "https://idp.example.com/sso",
      sloUrl: null,
      certificates: ["MIIC-first", "MIIC-second"],
      allowIdpInitiated: false,
      signRequests: true,
      nameIdFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    },
    mapping: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  }
}

/** A domain no other check uses. */
const freshDomain = () => `${randomUUID().slice(0, 8)}.example-${randomUUID().slice(0, 8)}.com`

function newDomain(organizationId: string, domain: string, overrides: Partial<AdapterDomain> = {}): AdapterDomain {
  return { organizationId, domain, token: `gatehouse-verify=${randomUUID()}`, verifiedAt: null, enforceSso: false, createdAt: at(0), ...overrides }
}

export function ssoChecks({ adapter, check }: ContractContext): void {
  /** A stored organization owned by a new user; its id. */
  const organization = async () => {
    const owner = (await adapter().createUser(newUser())).id
    const id = randomUUID()
    const stored = await adapter().createOrganization(
      { id, slug: `org-${id}`, name: `Organization ${id.slice(0, 8)}`, logo: null, metadata: null, roles: null, createdAt: at(0) },
      { organizationId: id, userId: owner, role: "owner", createdAt: at(0) },
    )
    expect(stored).toMatchObject({ id })
    return id
  }

  check("SSO connections: stored and read back exactly, listed oldest first, only the organization's", async () => {
    const organizationId = await organization()
    const other = await organization()
    const later = newConnection(organizationId, { createdAt: at(20), updatedAt: at(20) })
    const earlier = newConnection(organizationId, {
      type: "oidc",
      name: "Entra ID",
      enabled: false,
      settings: { issuer: "https://login.example.com/tenant/v2.0", clientId: "client-1", clientSecret: "sealed.secret.value", scopes: ["groups", "offline_access"] },
      mapping: { email: "upn", name: "display_name", groups: "groups", roles: { "Domain Admins": "admin", Staff: "member" } },
      createdAt: at(10),
      updatedAt: at(15),
    })
    const elsewhere = newConnection(other)
    expect(await adapter().createSsoConnection(later)).toEqual(later)
    expect(await adapter().createSsoConnection(earlier)).toEqual(earlier)
    expect(await adapter().createSsoConnection(elsewhere)).toEqual(elsewhere)
    expect(await adapter().getSsoConnection(later.id)).toEqual(later)
    expect(await adapter().getSsoConnection(earlier.id)).toEqual(earlier)
    expect(await adapter().listSsoConnections(organizationId)).toEqual([earlier, later])
    expect(await adapter().listSsoConnections(other)).toEqual([elsewhere])
    expect(await adapter().listSsoConnections(randomUUID())).toEqual([])
    expect(await adapter().getSsoConnection(randomUUID())).toBeNull()
  })

  check("updateSsoConnection applies the changes (settings and mapping JSON round-trip, updatedAt); null for an unknown id; deleteSsoConnection removes it", async () => {
    const organizationId = await organization()
    const connection = newConnection(organizationId)
    await adapter().createSsoConnection(connection)
    const settings = { entityId: "https://idp.example.com/new", ssoUrl: "https://idp.example.com/sso2", sloUrl: "https://idp.example.com/slo", certificates: ["MIIC-new"], allowIdpInitiated: true }
    const mapping = { email: "mail", groups: "memberOf", roles: { "cn=admins,ou=groups": "admin" } }
    const updated = { ...connection, name: "Okta (new tenant)", enabled: false, settings, mapping, updatedAt: at(60) }
    expect(await adapter().updateSsoConnection(connection.id, { name: updated.name, enabled: false, settings: structuredJson(settings), mapping: structuredJson(mapping), updatedAt: at(60) })).toEqual(updated)
    expect(await adapter().getSsoConnection(connection.id)).toEqual(updated)
    // A caller's later change to what it read changes nothing stored.
    const read = await adapter().getSsoConnection(connection.id)
    ;(read?.settings as { certificates: string[] }).certificates.push("MIIC-injected")
    expect(await adapter().getSsoConnection(connection.id)).toEqual(updated)

    const cleared = { ...updated, mapping: null, enabled: true, updatedAt: at(70) }
    expect(await adapter().updateSsoConnection(connection.id, { mapping: null, enabled: true, updatedAt: at(70) })).toEqual(cleared)
    expect(await adapter().getSsoConnection(connection.id)).toEqual(cleared)
    expect(await adapter().updateSsoConnection(randomUUID(), { name: "Nobody" })).toBeNull()

    await adapter().deleteSsoConnection(connection.id)
    expect(await adapter().getSsoConnection(connection.id)).toBeNull()
    expect(await adapter().listSsoConnections(organizationId)).toEqual([])
  })

  check("createDomain: claimed once per organization (a second claim answers domainTaken, the first unchanged); several organizations may claim one domain unverified", async () => {
    const a = await organization()
    const b = await organization()
    const domain = freshDomain()
    const claimA = newDomain(a, domain, { createdAt: at(5) })
    expect(await adapter().createDomain(claimA)).toEqual(claimA)
    expect(await adapter().createDomain(newDomain(a, domain, { token: "another", enforceSso: true }))).toBe("domainTaken")
    expect(await adapter().getDomain(a, domain)).toEqual(claimA)

    const claimB = newDomain(b, domain)
    expect(await adapter().createDomain(claimB)).toEqual(claimB)
    expect(await adapter().getDomain(b, domain)).toEqual(claimB)
    expect(await adapter().getVerifiedDomain(domain)).toBeNull()
    expect(await adapter().getDomain(a, freshDomain())).toBeNull()
    expect(await adapter().getDomain(randomUUID(), domain)).toBeNull()

    const second = newDomain(a, freshDomain(), { createdAt: at(1) })
    await adapter().createDomain(second)
    expect(await adapter().listDomains(a)).toEqual([second, claimA])
    expect(await adapter().listDomains(b)).toEqual([claimB])
  })

  check("verifyDomain: verified for the first organization; another's then answers domainTaken and its claim is unchanged; a new claim of it is refused", async () => {
    const a = await organization()
    const b = await organization()
    const domain = freshDomain()
    const claimA = newDomain(a, domain)
    const claimB = newDomain(b, domain)
    await adapter().createDomain(claimA)
    await adapter().createDomain(claimB)

    const verified = { ...claimA, verifiedAt: at(30) }
    expect(await adapter().verifyDomain(a, domain, at(30))).toEqual(verified)
    expect(await adapter().getDomain(a, domain)).toEqual(verified)
    expect(await adapter().getVerifiedDomain(domain)).toEqual(verified)

    expect(await adapter().verifyDomain(b, domain, at(40))).toBe("domainTaken")
    expect(await adapter().getDomain(b, domain)).toEqual(claimB)
    expect(await adapter().getVerifiedDomain(domain)).toEqual(verified)

    const c = await organization()
    expect(await adapter().createDomain(newDomain(c, domain))).toBe("domainTaken")
    expect(await adapter().getDomain(c, domain)).toBeNull()
    expect(await adapter().verifyDomain(c, domain, at(50))).toBeNull()
    expect(await adapter().verifyDomain(a, freshDomain(), at(50))).toBeNull()
    expect(await adapter().getVerifiedDomain(freshDomain())).toBeNull()
  })

  check("two organizations verify one domain at the same moment: exactly one is verified", async () => {
    for (let round = 0; round < 3; round++) {
      const a = await organization()
      const b = await organization()
      const domain = freshDomain()
      await adapter().createDomain(newDomain(a, domain))
      await adapter().createDomain(newDomain(b, domain))
      const results = await Promise.all([adapter().verifyDomain(a, domain, at(10)), adapter().verifyDomain(b, domain, at(10))])
      expect(results.filter((result) => result === "domainTaken")).toHaveLength(1)
      const winner = results.find((result) => result !== "domainTaken") as AdapterDomain
      expect(winner).toMatchObject({ domain, verifiedAt: at(10) })
      const loser = winner.organizationId === a ? b : a
      expect(await adapter().getVerifiedDomain(domain)).toEqual(winner)
      expect((await adapter().getDomain(loser, domain))?.verifiedAt).toBeNull()
    }
  })

  check("updateDomain sets enforceSso (null for no claim); deleteDomain removes the claim, and the domain can then be verified elsewhere", async () => {
    const a = await organization()
    const b = await organization()
    const domain = freshDomain()
    const claim = newDomain(a, domain)
    await adapter().createDomain(claim)
    await adapter().verifyDomain(a, domain, at(5))
    const enforced = { ...claim, verifiedAt: at(5), enforceSso: true }
    expect(await adapter().updateDomain(a, domain, { enforceSso: true })).toEqual(enforced)
    expect(await adapter().getVerifiedDomain(domain)).toEqual(enforced)
    expect(await adapter().updateDomain(a, domain, { enforceSso: false })).toEqual({ ...enforced, enforceSso: false })
    expect(await adapter().updateDomain(b, domain, { enforceSso: true })).toBeNull()
    expect(await adapter().getDomain(b, domain)).toBeNull()

    await adapter().deleteDomain(a, domain)
    expect(await adapter().getDomain(a, domain)).toBeNull()
    expect(await adapter().getVerifiedDomain(domain)).toBeNull()
    expect(await adapter().listDomains(a)).toEqual([])
    const claimB = newDomain(b, domain)
    expect(await adapter().createDomain(claimB)).toEqual(claimB)
    expect(await adapter().verifyDomain(b, domain, at(9))).toEqual({ ...claimB, verifiedAt: at(9) })
  })

  check("deleteOrganization removes its connections and domains, and nothing of another organization", async () => {
    const gone = await organization()
    const kept = await organization()
    const connection = newConnection(gone)
    const keptConnection = newConnection(kept)
    await adapter().createSsoConnection(connection)
    await adapter().createSsoConnection(keptConnection)
    const domain = freshDomain()
    const keptDomain = newDomain(kept, domain)
    await adapter().createDomain(newDomain(gone, domain))
    await adapter().createDomain(keptDomain)
    await adapter().verifyDomain(gone, domain, at(3))

    await adapter().deleteOrganization(gone)
    expect(await adapter().getSsoConnection(connection.id)).toBeNull()
    expect(await adapter().listSsoConnections(gone)).toEqual([])
    expect(await adapter().getDomain(gone, domain)).toBeNull()
    expect(await adapter().listDomains(gone)).toEqual([])
    expect(await adapter().getVerifiedDomain(domain)).toBeNull()
    expect(await adapter().getSsoConnection(keptConnection.id)).toEqual(keptConnection)
    expect(await adapter().listDomains(kept)).toEqual([keptDomain])
    // The domain is free to verify for the organization left.
    expect(await adapter().verifyDomain(kept, domain, at(4))).toEqual({ ...keptDomain, verifiedAt: at(4) })
  })
}

/** A fresh copy of a JSON value (the check keeps its own to compare with). */
function structuredJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}
