/**
 * What a directory's group requests do (issue #29; re-exported by provision.ts). A group's members
 * are users provisioned in the same organization (anything else: 400 invalidValue naming the
 * value); its displayName is unique in the organization (409 uniqueness). Its role is set by the
 * organization's admins, never by the directory. When the members of a group with a role change,
 * or such a group goes, the users who joined or left it get the role their groups now give them
 * (roles.ts); a group without a role changes nobody's role.
 */
import { randomUUID } from "node:crypto"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { audit } from "../audit/emit.js"
import { SCIM_UNIQUENESS, type AdapterScimGroup } from "./adapter.js"
import { ScimProblem } from "./problem.js"
import { applyGroupRoles } from "./roles.js"
import { organizationOf, scimStorage } from "./storage.js"

export interface ScimGroupInput {
  displayName: string
  externalId: string | null
  members: string[]
}

const TAKEN = "A group of this organization has this displayName"
/** Above this many new members, one list of the organization's users beats a lookup each. */
const LOOKUPS = 20

function checkedGroup(input: ScimGroupInput): ScimGroupInput {
  if (!input || typeof input !== "object") throw new ScimProblem(400, "The group is missing", "invalidSyntax")
  const { displayName, externalId, members } = input
  if (typeof displayName !== "string" || !displayName.trim() || displayName.length > 256) throw new ScimProblem(400, "displayName must be a non-empty string of at most 256 characters", "invalidValue")
  if (externalId !== null && (typeof externalId !== "string" || externalId.length > 256)) throw new ScimProblem(400, "externalId must be a string of at most 256 characters", "invalidValue")
  if (!Array.isArray(members)) throw new ScimProblem(400, "members must be a list of user ids", "invalidValue")
  for (const member of members) if (typeof member !== "string" || !member) throw new ScimProblem(400, `${JSON.stringify(member)} is not a user id`, "invalidValue")
  return { displayName, externalId, members: [...new Set(members)] }
}

/** Refuses a member that is not a user provisioned in this organization; `known` are members already checked. */
async function checkMembers(config: ResolvedConfig, organizationId: string, members: readonly string[], known: readonly string[] = []): Promise<void> {
  const scim = scimStorage(config)
  const fresh = members.filter((member) => !known.includes(member))
  const refuse = (value: string) => {
    throw new ScimProblem(400, `${JSON.stringify(value.slice(0, 100))} is not a user provisioned in this organization`, "invalidValue")
  }
  if (fresh.length > LOOKUPS) {
    const provisioned = new Set((await scim.listScimUsers(organizationId)).map((user) => user.userId))
    for (const member of fresh) if (!provisioned.has(member)) refuse(member)
    return
  }
  for (const member of fresh) if (!(await scim.getScimUser(organizationId, member))) refuse(member)
}

/** The organization's group (404 otherwise: another organization's id reads as none). */
async function groupOf(config: ResolvedConfig, organizationId: string, groupId: string): Promise<AdapterScimGroup> {
  const found = typeof groupId === "string" && groupId ? await scimStorage(config).getScimGroup(organizationId, groupId) : null
  if (!found) throw new ScimProblem(404, "No such group in this organization")
  return found
}

export async function createGroup(config: ResolvedConfig, organizationId: string, input: ScimGroupInput): Promise<AdapterScimGroup> {
  const organization = await organizationOf(config, organizationId)
  const { displayName, externalId, members } = checkedGroup(input)
  await checkMembers(config, organization.id, members)
  const now = new Date()
  const created = await scimStorage(config).createScimGroup({ id: randomUUID(), organizationId: organization.id, displayName, externalId, members, role: null, createdAt: now, updatedAt: now })
  if (created === SCIM_UNIQUENESS) throw new ScimProblem(409, TAKEN, "uniqueness")
  audit(config, { type: "scim.group_changed", organizationId: organization.id, groupId: created.id, change: "created" })
  return created
}

export async function updateGroup(config: ResolvedConfig, organizationId: string, groupId: string, input: ScimGroupInput): Promise<AdapterScimGroup> {
  const organization = await organizationOf(config, organizationId)
  const { displayName, externalId, members } = checkedGroup(input)
  const current = await groupOf(config, organization.id, groupId)
  await checkMembers(config, organization.id, members, current.members)
  const updated = await scimStorage(config).updateScimGroup(organization.id, current.id, { displayName, externalId, members, updatedAt: new Date() })
  if (updated === SCIM_UNIQUENESS) throw new ScimProblem(409, TAKEN, "uniqueness")
  if (!updated) throw new ScimProblem(404, "No such group in this organization")
  if (updated.role) {
    const joined = updated.members.filter((member) => !current.members.includes(member))
    const left = current.members.filter((member) => !updated.members.includes(member))
    await applyGroupRoles(config, organization, [...joined, ...left])
  }
  audit(config, { type: "scim.group_changed", organizationId: organization.id, groupId: updated.id, change: "updated" })
  return updated
}

export async function deleteGroup(config: ResolvedConfig, organizationId: string, groupId: string): Promise<void> {
  const organization = await organizationOf(config, organizationId)
  const current = await groupOf(config, organization.id, groupId)
  await scimStorage(config).deleteScimGroup(organization.id, current.id)
  if (current.role) await applyGroupRoles(config, organization, current.members)
  audit(config, { type: "scim.group_changed", organizationId: organization.id, groupId: current.id, change: "deleted" })
}
