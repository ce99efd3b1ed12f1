/**
 * An organization's email domains (issue #28), for the `sso/domains/<verb>` actions and the
 * server helpers: claiming one (a random token to publish as a DNS TXT record), verifying it (the
 * record is looked up, dns.ts; the adapter makes sure one organization at most holds it verified),
 * turning enforcement on or off (a verified domain only), removing it. The actor must hold
 * `organization:update`; a domain the organization has not claimed is "not found"
 * (`InvalidRequest`, naming it). Public mail domains cannot be claimed. Each change is audited.
 */
import { randomBytes } from "node:crypto"
import type { ResolvedConfig } from "../../core/config/resolved.js"
import { audit } from "../../audit/emit.js"
import { InvalidRequest } from "../../errors.js"
import type { Actor } from "../../organizations/access.js"
import { DOMAIN_TAKEN, type AdapterDomain } from "../adapter.js"
import { ssoStorage } from "../access.js"
import { domainProven, txtName, txtValue } from "../dns.js"
import { normalizeDomain } from "../domains-shared.js"
import { DomainNotVerified, DomainTaken } from "../errors.js"
import { flag } from "./fields.js"
import { placeToManage } from "./connection-rules.js"

/** Mail services whose addresses belong to their users, not to an organization. */
export const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  "gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "live.com", "msn.com", "yahoo.com", "icloud.com", "me.com", "aol.com", "proton.me", "protonmail.com", "gmx.com", "mail.com",
])

/** A domain as the organization sees it: the record to publish and its state. */
export interface DomainView {
  domain: string
  txtName: string
  txtValue: string
  verified: boolean
  verifiedAt: Date | null
  enforce: boolean
  createdAt: Date
}

export function domainView(config: ResolvedConfig, claim: AdapterDomain): DomainView {
  return {
    domain: claim.domain,
    txtName: txtName(config, claim.domain),
    txtValue: txtValue(claim.token),
    verified: claim.verifiedAt !== null,
    verifiedAt: claim.verifiedAt,
    enforce: claim.enforceSso,
    createdAt: claim.createdAt,
  }
}

function domainField(value: unknown): string {
  const domain = normalizeDomain(value)
  if (!domain) throw new InvalidRequest(`${JSON.stringify(typeof value === "string" ? value.slice(0, 80) : value)} is not a domain name (example.com)`)
  return domain
}

/** The organization's claim of the domain named; `InvalidRequest` when it has none. */
async function claimToManage(config: ResolvedConfig, organizationId: unknown, value: unknown, actor: Actor): Promise<{ organizationId: string; claim: AdapterDomain }> {
  const place = await placeToManage(config, organizationId, actor)
  const domain = domainField(value)
  const claim = await ssoStorage(config).getDomain(place.organization.id, domain)
  if (!claim) throw new InvalidRequest(`This organization has not claimed ${domain}`)
  return { organizationId: place.organization.id, claim }
}

export async function addDomain(config: ResolvedConfig, organizationId: unknown, value: unknown, actor: Actor): Promise<DomainView> {
  const place = await placeToManage(config, organizationId, actor)
  const domain = domainField(value)
  if (PUBLIC_MAIL_DOMAINS.has(domain)) throw new InvalidRequest(`${domain} is a public mail service: its addresses belong to their users, not to an organization`)
  const created = await ssoStorage(config).createDomain({
    organizationId: place.organization.id,
    domain,
    token: randomBytes(24).toString("base64url"),
    verifiedAt: null,
    enforceSso: false,
    createdAt: new Date(),
  })
  if (created === DOMAIN_TAKEN) throw new DomainTaken(`${domain} is verified by another organization, or this one claimed it already`)
  audit(config, { type: "sso.domain_added", userId: actor?.userId, organizationId: created.organizationId, domain })
  return domainView(config, created)
}

export async function verifyDomain(config: ResolvedConfig, organizationId: unknown, value: unknown, actor: Actor): Promise<DomainView> {
  const { claim } = await claimToManage(config, organizationId, value, actor)
  if (claim.verifiedAt) return domainView(config, claim)
  if (!(await domainProven(config, claim.domain, claim.token))) {
    throw new DomainNotVerified(`No TXT record ${txtName(config, claim.domain)} with the value asked for was found`)
  }
  const verified = await ssoStorage(config).verifyDomain(claim.organizationId, claim.domain, new Date())
  if (verified === DOMAIN_TAKEN) throw new DomainTaken(`Another organization verified ${claim.domain} first`)
  if (!verified) throw new InvalidRequest(`The claim of ${claim.domain} was removed meanwhile`)
  audit(config, { type: "sso.domain_verified", userId: actor?.userId, organizationId: verified.organizationId, domain: verified.domain })
  return domainView(config, verified)
}

export async function setDomainEnforcement(config: ResolvedConfig, organizationId: unknown, value: unknown, enforce: unknown, actor: Actor): Promise<DomainView> {
  const { claim } = await claimToManage(config, organizationId, value, actor)
  const on = flag(enforce ?? false, "enforce")
  if (on && !claim.verifiedAt) throw new DomainNotVerified(`${claim.domain} is not verified: SSO is enforced on verified domains only`)
  const updated = await ssoStorage(config).updateDomain(claim.organizationId, claim.domain, { enforceSso: on })
  if (!updated) throw new InvalidRequest(`The claim of ${claim.domain} was removed meanwhile`)
  audit(config, { type: "sso.domain_enforced", userId: actor?.userId, organizationId: updated.organizationId, domain: updated.domain, enforce: on })
  return domainView(config, updated)
}

export async function removeDomain(config: ResolvedConfig, organizationId: unknown, value: unknown, actor: Actor): Promise<void> {
  const { claim } = await claimToManage(config, organizationId, value, actor)
  await ssoStorage(config).deleteDomain(claim.organizationId, claim.domain)
  audit(config, { type: "sso.domain_removed", userId: actor?.userId, organizationId: claim.organizationId, domain: claim.domain })
}
