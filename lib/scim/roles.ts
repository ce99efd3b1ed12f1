/**
 * Group roles (issue #29): a provisioned user's organization role follows their groups. The role
 * is that of the oldest group they belong to whose `role` the organization still has, else the
 * organization's default role. Never `owner` through SCIM, and an owner's role is never changed
 * (owners are changed by owners). A deactivated user keeps the computed role in `suspendedRole`,
 * which their reactivation restores. Called after every change to a group's members or role
 * (`applyGroupRoles(config, organization, affected user ids)`).
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { AdapterOrganization } from "../organizations/adapter.js"
import { LAST_OWNER } from "../organizations/adapter.js"
import { storageOf } from "../organizations/access.js"
import { changed } from "../organizations/changes.js"
import type { AdapterScimGroup } from "./adapter.js"
import { usableRole } from "./membership.js"
import { scimStorage } from "./storage.js"

/** The role `userId` gets from `groups` (oldest first). */
export function groupRole(config: ResolvedConfig, organization: AdapterOrganization, groups: readonly AdapterScimGroup[], userId: string): string {
  for (const group of groups) {
    if (!group.role || !group.members.includes(userId)) continue
    const role = usableRole(config, organization, group.role)
    if (role === group.role) return role
  }
  return usableRole(config, organization, null)
}

/** Brings each affected user's role in line with the organization's groups as stored now. */
export async function applyGroupRoles(config: ResolvedConfig, organization: AdapterOrganization, userIds: Iterable<string>): Promise<void> {
  const affected = [...new Set(userIds)]
  if (!affected.length) return
  const scim = scimStorage(config)
  const storage = storageOf(config)
  const groups = await scim.listScimGroups(organization.id)
  for (const userId of affected) {
    const provisioned = await scim.getScimUser(organization.id, userId)
    if (!provisioned) continue
    const role = groupRole(config, organization, groups, userId)
    if (!provisioned.active) {
      if (provisioned.suspendedRole !== "owner" && provisioned.suspendedRole !== role) await scim.updateScimUser(organization.id, userId, { suspendedRole: role, updatedAt: new Date() })
      continue
    }
    // A member an admin removed is not added back by a group change.
    const member = await storage.getMember(organization.id, userId)
    if (!member || member.role === "owner" || member.role === role) continue
    const updated = await storage.updateMemberRole(organization.id, userId, role)
    if (!updated || updated === LAST_OWNER) continue
    await changed(config, { type: "member.role_changed", organizationId: organization.id, userId, role, previousRole: member.role }, [userId])
  }
}
