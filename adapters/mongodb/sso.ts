/**
 * The MongoDB adapter's enterprise sign-in methods (issue #28): one document per SSO connection
 * in `sso_connections` (`_id` the connection id, a string Gatehouse made; settings and mapping
 * kept as JSON text, since attribute and group names such as `cn=admins.eu` or `$group` cannot
 * all be field names), one per claimed domain in `sso_domains`. Both go with their organization
 * (`deleteOrganization`).
 *
 * The rules, decided by the unique indexes of `setupIndexes`, so they hold with or without
 * transactions: an organization claims a domain once (unique (organizationId, domain)); a domain
 * is verified for one organization at most: a verified claim also holds `verifiedDomain` (the
 * domain), unique among the documents that have it (a partial index), so of two organizations
 * verifying one domain at the same moment the server lets one write through and refuses the
 * other's with a duplicate key error, answered `"domainTaken"` (that write changed nothing).
 */
import type { ClientSession, Document } from "mongodb"
import type { Adapter, AdapterDomain, AdapterSsoConnection } from "../../lib/adapters.js"
import { DOMAIN_TAKEN } from "../../lib/sso/adapter.js"
import type { Handles } from "./collections.js"
import { key } from "./convert.js"
import type { SSO_ADAPTER_METHODS } from "../../lib/sso/adapter.js"

type SsoMethods = Required<Pick<Adapter, (typeof SSO_ADAPTER_METHODS)[number]>>
type Options = { session?: ClientSession }

/** The server's duplicate key error (a unique index refused the write). */
function isDuplicateKey(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === 11000
}

const fromJson = <T>(value: unknown): T => JSON.parse(String(value)) as T

function toConnection(document: Document): AdapterSsoConnection {
  return {
    id: String(document._id),
    organizationId: String(document.organizationId),
    type: String(document.type) as AdapterSsoConnection["type"],
    name: String(document.name),
    enabled: document.enabled === true,
    settings: fromJson(document.settings),
    mapping: typeof document.mapping === "string" ? fromJson(document.mapping) : null,
    createdAt: new Date(document.createdAt as Date),
    updatedAt: new Date(document.updatedAt as Date),
  }
}

function toDomain(document: Document): AdapterDomain {
  return {
    organizationId: String(document.organizationId),
    domain: String(document.domain),
    token: String(document.token),
    verifiedAt: document.verifiedAt ? new Date(document.verifiedAt as Date) : null,
    enforceSso: document.enforceSso === true,
    createdAt: new Date(document.createdAt as Date),
  }
}

export function ssoMethods(handles: () => Promise<Handles>, opts: Options): SsoMethods {
  const claimFilter = (organizationId: string, domain: string) => ({ organizationId: key(organizationId, "organizationId"), domain: key(domain, "domain") })

  return {
    async createSsoConnection(connection) {
      const document = {
        _id: key(connection.id, "id") as never,
        organizationId: key(connection.organizationId, "organizationId"),
        type: connection.type,
        name: connection.name,
        enabled: connection.enabled,
        settings: JSON.stringify(connection.settings),
        mapping: connection.mapping === undefined || connection.mapping === null ? null : JSON.stringify(connection.mapping),
        createdAt: connection.createdAt,
        updatedAt: connection.updatedAt,
      }
      await (await handles()).ssoConnections.insertOne(document, opts)
      return toConnection(document)
    },
    async getSsoConnection(id) {
      const found = await (await handles()).ssoConnections.findOne({ _id: key(id, "id") as never }, opts)
      return found ? toConnection(found) : null
    },
    async listSsoConnections(organizationId) {
      const found = await (await handles()).ssoConnections.find({ organizationId: key(organizationId, "organizationId") }, opts).sort({ createdAt: 1, _id: 1 }).toArray()
      return found.map(toConnection)
    },
    async updateSsoConnection(id, changes) {
      const $set: Record<string, unknown> = {}
      if (changes.name !== undefined) $set.name = changes.name
      if (changes.enabled !== undefined) $set.enabled = changes.enabled
      if (changes.settings !== undefined) $set.settings = JSON.stringify(changes.settings)
      if (changes.mapping !== undefined) $set.mapping = changes.mapping === null ? null : JSON.stringify(changes.mapping)
      if (changes.updatedAt !== undefined) $set.updatedAt = changes.updatedAt
      const { ssoConnections } = await handles()
      const filter = { _id: key(id, "id") as never }
      const found = Object.keys($set).length ? await ssoConnections.findOneAndUpdate(filter, { $set }, { ...opts, returnDocument: "after" }) : await ssoConnections.findOne(filter, opts)
      return found ? toConnection(found) : null
    },
    async deleteSsoConnection(id) {
      await (await handles()).ssoConnections.deleteOne({ _id: key(id, "id") as never }, opts)
    },

    async createDomain(domain) {
      const { ssoDomains } = await handles()
      const filter = claimFilter(domain.organizationId, domain.domain)
      if (await ssoDomains.findOne({ verifiedDomain: filter.domain, organizationId: { $ne: filter.organizationId } }, { ...opts, projection: { _id: 1 } })) return DOMAIN_TAKEN
      const document: Document = { ...filter, token: domain.token, verifiedAt: domain.verifiedAt, enforceSso: domain.enforceSso, createdAt: domain.createdAt }
      if (domain.verifiedAt) document.verifiedDomain = filter.domain
      try {
        await ssoDomains.insertOne(document, opts)
      } catch (error) {
        // Claimed by this organization already (or, stored verified, verified by another meanwhile).
        if (isDuplicateKey(error) && !opts.session) return DOMAIN_TAKEN
        throw error
      }
      return toDomain(document)
    },
    async getDomain(organizationId, domain) {
      const found = await (await handles()).ssoDomains.findOne(claimFilter(organizationId, domain), opts)
      return found ? toDomain(found) : null
    },
    async getVerifiedDomain(domain) {
      const found = await (await handles()).ssoDomains.findOne({ verifiedDomain: key(domain, "domain") }, opts)
      return found ? toDomain(found) : null
    },
    async listDomains(organizationId) {
      const found = await (await handles()).ssoDomains.find({ organizationId: key(organizationId, "organizationId") }, opts).sort({ createdAt: 1, domain: 1 }).toArray()
      return found.map(toDomain)
    },
    async verifyDomain(organizationId, domain, verifiedAt) {
      const { ssoDomains } = await handles()
      const filter = claimFilter(organizationId, domain)
      if (await ssoDomains.findOne({ verifiedDomain: filter.domain, organizationId: { $ne: filter.organizationId } }, { ...opts, projection: { _id: 1 } })) {
        return (await ssoDomains.findOne(filter, { ...opts, projection: { _id: 1 } })) ? DOMAIN_TAKEN : null
      }
      try {
        // One write: the partial unique index on verifiedDomain lets it through for one organization only.
        const updated = await ssoDomains.findOneAndUpdate(filter, { $set: { verifiedAt, verifiedDomain: filter.domain } }, { ...opts, returnDocument: "after" })
        return updated ? toDomain(updated) : null
      } catch (error) {
        // Inside a transaction the error aborts it: the caller's to handle.
        if (isDuplicateKey(error) && !opts.session) return DOMAIN_TAKEN
        throw error
      }
    },
    async updateDomain(organizationId, domain, changes) {
      const found = await (await handles()).ssoDomains.findOneAndUpdate(claimFilter(organizationId, domain), { $set: { enforceSso: changes.enforceSso } }, { ...opts, returnDocument: "after" })
      return found ? toDomain(found) : null
    },
    async deleteDomain(organizationId, domain) {
      await (await handles()).ssoDomains.deleteOne(claimFilter(organizationId, domain), opts)
    },
  }
}
