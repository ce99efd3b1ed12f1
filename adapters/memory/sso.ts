/**
 * The memory adapter's enterprise sign-in methods (issue #28): SSO connections by id, claimed
 * domains keyed by (organization, domain). Every method checks and writes without awaiting in
 * between, so the rules that must hold under concurrency (an organization claims a domain once, a
 * domain is verified for one organization at most) hold as they would in a database. Records are
 * copied in and out: callers never hold the stored objects (settings and mapping deep-copied).
 */
import type { Adapter, AdapterDomain, AdapterSsoConnection } from "../../lib/adapters.js"
import { DOMAIN_TAKEN } from "../../lib/sso/adapter.js"
import type { SSO_ADAPTER_METHODS } from "../../lib/sso/adapter.js"

export interface SsoMaps {
  ssoConnections: Map<string, AdapterSsoConnection>
  /** `[organizationId, domain]` as JSON -> the claim. */
  domains: Map<string, AdapterDomain>
}

type Put = <V>(map: Map<string, V>, key: string, value: V) => void
type Remove = <V>(map: Map<string, V>, key: string) => void
type SsoMethods = Required<Pick<Adapter, (typeof SSO_ADAPTER_METHODS)[number]>>

const domainKey = (organizationId: string, domain: string) => JSON.stringify([organizationId, domain])
const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T
const byAge = (a: { createdAt: Date }, b: { createdAt: Date }) => a.createdAt.getTime() - b.createdAt.getTime()

function connectionCopy(connection: AdapterSsoConnection): AdapterSsoConnection {
  return {
    id: connection.id,
    organizationId: connection.organizationId,
    type: connection.type,
    name: connection.name,
    enabled: connection.enabled,
    settings: json(connection.settings),
    mapping: connection.mapping === undefined || connection.mapping === null ? null : json(connection.mapping),
    createdAt: new Date(connection.createdAt.getTime()),
    updatedAt: new Date(connection.updatedAt.getTime()),
  }
}

function domainCopy(domain: AdapterDomain): AdapterDomain {
  return {
    organizationId: domain.organizationId,
    domain: domain.domain,
    token: domain.token,
    verifiedAt: domain.verifiedAt ? new Date(domain.verifiedAt.getTime()) : null,
    enforceSso: domain.enforceSso,
    createdAt: new Date(domain.createdAt.getTime()),
  }
}

/** Removes the organization's connections and domains (deleteOrganization). */
export function forgetOrganizationSso(maps: SsoMaps, remove: Remove, organizationId: string): void {
  for (const [key, connection] of maps.ssoConnections) if (connection.organizationId === organizationId) remove(maps.ssoConnections, key)
  for (const [key, domain] of maps.domains) if (domain.organizationId === organizationId) remove(maps.domains, key)
}

export function ssoMethods(maps: SsoMaps & { organizations: Map<string, unknown> }, put: Put, remove: Remove): SsoMethods {
  /** The claim of `domain` another organization than `organizationId` has verified, if any. */
  const verifiedElsewhere = (organizationId: string, domain: string) =>
    [...maps.domains.values()].some((found) => found.domain === domain && found.organizationId !== organizationId && found.verifiedAt !== null)

  return {
    async createSsoConnection(connection) {
      if (maps.ssoConnections.has(connection.id)) throw new Error(`an SSO connection with id ${connection.id} exists`)
      if (!maps.organizations.has(connection.organizationId)) throw new Error(`no organization with id ${connection.organizationId}`)
      put(maps.ssoConnections, connection.id, connectionCopy(connection))
      return connectionCopy(connection)
    },
    async getSsoConnection(id) {
      const found = maps.ssoConnections.get(id)
      return found ? connectionCopy(found) : null
    },
    async listSsoConnections(organizationId) {
      return [...maps.ssoConnections.values()].filter((connection) => connection.organizationId === organizationId).sort(byAge).map(connectionCopy)
    },
    async updateSsoConnection(id, changes) {
      const current = maps.ssoConnections.get(id)
      if (!current) return null
      const next: AdapterSsoConnection = { ...current }
      if (changes.name !== undefined) next.name = changes.name
      if (changes.enabled !== undefined) next.enabled = changes.enabled
      if (changes.settings !== undefined) next.settings = changes.settings
      if (changes.mapping !== undefined) next.mapping = changes.mapping
      if (changes.updatedAt !== undefined) next.updatedAt = changes.updatedAt
      put(maps.ssoConnections, id, connectionCopy(next))
      return connectionCopy(next)
    },
    async deleteSsoConnection(id) {
      remove(maps.ssoConnections, id)
    },

    async createDomain(domain) {
      const key = domainKey(domain.organizationId, domain.domain)
      if (maps.domains.has(key) || verifiedElsewhere(domain.organizationId, domain.domain)) return DOMAIN_TAKEN
      if (!maps.organizations.has(domain.organizationId)) throw new Error(`no organization with id ${domain.organizationId}`)
      put(maps.domains, key, domainCopy(domain))
      return domainCopy(domain)
    },
    async getDomain(organizationId, domain) {
      const found = maps.domains.get(domainKey(organizationId, domain))
      return found ? domainCopy(found) : null
    },
    async getVerifiedDomain(domain) {
      const found = [...maps.domains.values()].find((claim) => claim.domain === domain && claim.verifiedAt !== null)
      return found ? domainCopy(found) : null
    },
    async listDomains(organizationId) {
      return [...maps.domains.values()].filter((claim) => claim.organizationId === organizationId).sort(byAge).map(domainCopy)
    },
    async verifyDomain(organizationId, domain, verifiedAt) {
      // Synchronous between the check and the write: of concurrent verifications, one wins.
      const key = domainKey(organizationId, domain)
      const current = maps.domains.get(key)
      if (!current) return null
      if (verifiedElsewhere(organizationId, domain)) return DOMAIN_TAKEN
      const next = { ...current, verifiedAt }
      put(maps.domains, key, domainCopy(next))
      return domainCopy(next)
    },
    async updateDomain(organizationId, domain, changes) {
      const key = domainKey(organizationId, domain)
      const current = maps.domains.get(key)
      if (!current) return null
      const next = { ...current, enforceSso: changes.enforceSso }
      put(maps.domains, key, domainCopy(next))
      return domainCopy(next)
    },
    async deleteDomain(organizationId, domain) {
      remove(maps.domains, domainKey(organizationId, domain))
    },
  }
}
