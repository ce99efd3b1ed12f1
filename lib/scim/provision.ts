/**
 * What a directory's user requests do (issue #29), called by the SCIM protocol layer with an
 * organization the token belongs to. Every refusal is a `ScimProblem` (RFC 7644 status and
 * scimType), and nothing is changed by a refused request.
 * - provisionUser: the Gatehouse user with the address (the primary or first email, else the
 *   userName) is linked only when this organization verified the address's domain and the user
 *   proved the address (else 409 uniqueness: an account this organization cannot claim); otherwise
 *   a new user is created, its address verified only for such a domain. They become a member with
 *   the default role (a member keeps their role); `active: false` leaves them out of it.
 * - updateProvisionedUser: replaces the record; active true -> false removes the membership (its
 *   role kept in `suspendedRole`) and, when no other membership is left, ends every session;
 *   false -> true adds it back with that role. The Gatehouse user itself (email, name) is never
 *   changed by an update: a new address stays in the attributes (a directory must not move an
 *   account to an address nobody proved).
 * - deprovisionUser: removes the membership and the record (and so the user from the groups);
 *   the Gatehouse user is kept (they may be a member elsewhere).
 * - scimBlocksSignIn: a deactivated provisioned user (the SSO sign-in asks).
 * Groups are in groups.ts (re-exported here).
 */
import { randomUUID } from "node:crypto"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { Adapter, AdapterUser } from "../adapters.js"
import { fireEvent } from "../core/events.js"
import { audit } from "../audit/emit.js"
import { settingsOf, storageOf } from "../organizations/access.js"
import { domainOf } from "../sso/domains-shared.js"
import { SCIM_UNIQUENESS, type AdapterScimUser, type ScimUserUpdate } from "./adapter.js"
import { giveMembership, refuseOnlyOwner, takeMembership, usableRole } from "./membership.js"
import { ScimProblem } from "./problem.js"
import { organizationOf, scimStorage } from "./storage.js"
import { provisionedAddress, provisionedName } from "./user-fields.js"

export { createGroup, deleteGroup, updateGroup, type ScimGroupInput } from "./provision-groups.js"

export interface ScimUserInput {
  userName: string
  externalId: string | null
  active: boolean
  attributes: Record<string, unknown>
}

const TAKEN = "A user of this organization has this userName or externalId"
const UNCLAIMABLE = "An account with this address exists that this organization cannot claim"
const UNPROVEN = "An account with this address exists whose address nobody has proved; it can be provisioned after its owner signs in once through this organization's SSO or an email link"

function checkedUser(input: ScimUserInput): ScimUserInput {
  if (!input || typeof input !== "object") throw new ScimProblem(400, "The user is missing", "invalidSyntax")
  const { userName, externalId, active, attributes } = input
  if (typeof userName !== "string" || !userName.trim() || userName.length > 256) throw new ScimProblem(400, "userName must be a non-empty string of at most 256 characters", "invalidValue")
  if (externalId !== null && (typeof externalId !== "string" || externalId.length > 256)) throw new ScimProblem(400, "externalId must be a string of at most 256 characters", "invalidValue")
  if (typeof active !== "boolean") throw new ScimProblem(400, "active must be true or false", "invalidValue")
  if (!attributes || typeof attributes !== "object" || Array.isArray(attributes)) throw new ScimProblem(400, "The user's attributes must be an object", "invalidSyntax")
  return { userName, externalId, active, attributes }
}

/** Whether this organization verified the domain of `address` (false without the SSO adapter methods). */
async function domainVerifiedBy(config: ResolvedConfig, organizationId: string, address: string): Promise<boolean> {
  const lookup = (config.adapter as Adapter | undefined)?.getVerifiedDomain
  const domain = domainOf(address)
  if (typeof lookup !== "function" || !domain) return false
  const verified = await lookup.call(config.adapter, domain)
  return verified?.organizationId === organizationId
}

/** A new Gatehouse user; 409 when a concurrent request stored one with the address first. */
async function newUser(config: ResolvedConfig, address: string, name: string | null, proven: boolean): Promise<AdapterUser> {
  const adapter = config.adapter as Required<Pick<Adapter, "createUser" | "getUserByEmail">>
  try {
    return await adapter.createUser({ id: randomUUID(), email: address, name, image: null, emailVerified: proven ? new Date() : null })
  } catch (error) {
    if (await adapter.getUserByEmail(address)) throw new ScimProblem(409, UNCLAIMABLE, "uniqueness")
    throw error
  }
}

async function forgetNewUser(config: ResolvedConfig, userId: string): Promise<void> {
  // Best effort: the refusal is what the directory must hear.
  await Promise.resolve((config.adapter as Adapter).deleteUser?.(userId)).catch(() => undefined)
}

export async function provisionUser(config: ResolvedConfig, organizationId: string, input: ScimUserInput): Promise<AdapterScimUser> {
  const organization = await organizationOf(config, organizationId)
  const { userName, externalId, active, attributes } = checkedUser(input)
  const address = provisionedAddress(userName, attributes)
  if (!address) throw new ScimProblem(400, "The user has no email address (emails[].value, or a userName that is an address)", "invalidValue")
  const storage = storageOf(config)
  const proven = await domainVerifiedBy(config, organization.id, address)
  const existing = await storage.getUserByEmail(address)
  if (existing && !proven) throw new ScimProblem(409, UNCLAIMABLE, "uniqueness")
  // An address nobody proved may be a squatter's account: the directory's word does not hand it the organization.
  if (existing && !existing.emailVerified) throw new ScimProblem(409, UNPROVEN, "uniqueness")
  const member = existing ? await storage.getMember(organization.id, existing.id) : null
  if (!active) await refuseOnlyOwner(config, member)
  const user = existing ?? (await newUser(config, address, provisionedName(attributes), proven))
  const role = member?.role ?? settingsOf(config).defaultRole
  const now = new Date()
  const record: AdapterScimUser = { organizationId: organization.id, userId: user.id, userName, userNameKey: userName.toLowerCase(), externalId, active, suspendedRole: active ? null : role, attributes, createdAt: now, updatedAt: now }
  const stored = await scimStorage(config).createScimUser(record)
  if (stored === SCIM_UNIQUENESS) {
    if (!existing) await forgetNewUser(config, user.id)
    throw new ScimProblem(409, TAKEN, "uniqueness")
  }
  if (!existing) await fireEvent(config, "createUser", { user })
  if (active) await giveMembership(config, organization.id, user.id, role)
  else if (member) {
    try {
      await takeMembership(config, organization.id, user.id)
    } catch (error) {
      // Refused (a concurrent change made them the only owner): the member stays, unprovisioned.
      if (error instanceof ScimProblem) await scimStorage(config).deleteScimUser(organization.id, user.id)
      throw error
    }
  }
  audit(config, { type: "scim.user_provisioned", organizationId: organization.id, userId: user.id, active, linked: Boolean(existing) })
  return stored
}

/** The organization's provisioned user (404 otherwise: another organization's id reads as none). */
async function provisionedUser(config: ResolvedConfig, organizationId: string, userId: string): Promise<AdapterScimUser> {
  const found = typeof userId === "string" && userId ? await scimStorage(config).getScimUser(organizationId, userId) : null
  if (!found) throw new ScimProblem(404, "No such user in this organization")
  return found
}

async function writeUser(config: ResolvedConfig, organizationId: string, userId: string, changes: ScimUserUpdate): Promise<AdapterScimUser> {
  const updated = await scimStorage(config).updateScimUser(organizationId, userId, changes)
  if (updated === SCIM_UNIQUENESS) throw new ScimProblem(409, TAKEN, "uniqueness")
  if (!updated) throw new ScimProblem(404, "No such user in this organization")
  return updated
}

export async function updateProvisionedUser(config: ResolvedConfig, organizationId: string, userId: string, input: ScimUserInput): Promise<AdapterScimUser> {
  const organization = await organizationOf(config, organizationId)
  const { userName, externalId, active, attributes } = checkedUser(input)
  const current = await provisionedUser(config, organization.id, userId)
  const changes: ScimUserUpdate = { userName, userNameKey: userName.toLowerCase(), externalId, attributes, updatedAt: new Date() }
  const base = { organizationId: organization.id, userId: current.userId }
  if (current.active === active) {
    const updated = await writeUser(config, organization.id, current.userId, changes)
    audit(config, { type: "scim.user_updated", ...base })
    return updated
  }
  if (!active) {
    const member = await storageOf(config).getMember(organization.id, current.userId)
    await refuseOnlyOwner(config, member)
    const updated = await writeUser(config, organization.id, current.userId, { ...changes, active: false, suspendedRole: member?.role ?? null })
    try {
      await takeMembership(config, organization.id, current.userId)
    } catch (error) {
      // Refused (a concurrent change made them the only owner): the membership stays, so does the record as it was.
      if (!(error instanceof ScimProblem)) throw error
      const { userName: was, userNameKey, externalId: wasExternal, attributes: wasAttributes } = current
      await scimStorage(config).updateScimUser(organization.id, current.userId, { userName: was, userNameKey, externalId: wasExternal, attributes: wasAttributes, active: true, suspendedRole: null, updatedAt: current.updatedAt })
      throw error
    }
    audit(config, { type: "scim.user_deactivated", ...base })
    return updated
  }
  const updated = await writeUser(config, organization.id, current.userId, { ...changes, active: true, suspendedRole: null })
  // The role they had (an owner stays one), if the organization still has it; else the default.
  await giveMembership(config, organization.id, current.userId, usableRole(config, organization, current.suspendedRole, true))
  audit(config, { type: "scim.user_reactivated", ...base })
  return updated
}

export async function deprovisionUser(config: ResolvedConfig, organizationId: string, userId: string): Promise<void> {
  const organization = await organizationOf(config, organizationId)
  const current = await provisionedUser(config, organization.id, userId)
  await refuseOnlyOwner(config, await storageOf(config).getMember(organization.id, current.userId))
  await takeMembership(config, organization.id, current.userId)
  await scimStorage(config).deleteScimUser(organization.id, current.userId)
  audit(config, { type: "scim.user_deprovisioned", organizationId: organization.id, userId: current.userId })
}

/** True when the user is provisioned in the organization and deactivated (false with SCIM off). */
export async function scimBlocksSignIn(config: ResolvedConfig, organizationId: string, userId: string): Promise<boolean> {
  if (!config.scim) return false
  const provisioned = await scimStorage(config).getScimUser(organizationId, userId)
  return provisioned?.active === false
}
