/**
 * What a directory's user changes do to the organization membership (issue #29), through the
 * organizations code's storage and `changed()` (events, audit, and the membership cache dropped on
 * every process within a second):
 * - `takeMembership`: a deactivation or a deprovisioning removes the member (never the
 *   organization's only owner: 400 mutability); when the user is then a member of no organization
 *   at all, every session of theirs ends (`endUserSessions`). A member elsewhere keeps those
 *   memberships and sessions; their access to this organization ends with the membership.
 * - `giveMembership`: a provisioning or a reactivation adds the member with a role (an existing
 *   membership keeps its role).
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { AdapterMember, AdapterOrganization } from "../organizations/adapter.js"
import { LAST_OWNER } from "../organizations/adapter.js"
import { settingsOf, storageOf } from "../organizations/access.js"
import { changed } from "../organizations/changes.js"
import { grantOf } from "../organizations/roles.js"
import { endUserSessions } from "../devices/revoke-user.js"
import { ScimProblem } from "./problem.js"

export const ONLY_OWNER = "the organization's only owner cannot be deactivated"

/** `role` when the organization still has it (and it is not owner unless `ownerAllowed`), else the default role. */
export function usableRole(config: ResolvedConfig, organization: AdapterOrganization, role: string | null | undefined, ownerAllowed = false): string {
  const settings = settingsOf(config)
  if (role && (ownerAllowed || role !== "owner") && grantOf(settings.book, role, organization.roles, settings.customRoles)) return role
  return settings.defaultRole
}

/** Refuses (400 mutability) before anything is written when `member` is the organization's only owner. */
export async function refuseOnlyOwner(config: ResolvedConfig, member: AdapterMember | null): Promise<void> {
  if (!member || member.role !== "owner") return
  const members = await storageOf(config).listMembers(member.organizationId)
  if (!members.some((other) => other.role === "owner" && other.userId !== member.userId)) throw new ScimProblem(400, ONLY_OWNER, "mutability")
}

/**
 * Removes the membership (the caller checked `refuseOnlyOwner`; a concurrent change that makes the
 * member the only owner still refuses: the adapter keeps that rule atomically). Returns the role
 * they had, or null when they were no member.
 */
export async function takeMembership(config: ResolvedConfig, organizationId: string, userId: string): Promise<string | null> {
  const storage = storageOf(config)
  const removed = await storage.removeMember(organizationId, userId)
  if (removed === LAST_OWNER) throw new ScimProblem(400, ONLY_OWNER, "mutability")
  if (!removed) return null
  await changed(config, { type: "member.removed", organizationId, userId, previousRole: removed.role }, [userId])
  // Signed out everywhere only when nothing else is left to sign in to.
  if (!(await storage.listMemberships(userId)).length) await endUserSessions(config, userId)
  return removed.role
}

/** Adds the member with `role`; an existing membership is kept as it is. Returns the membership. */
export async function giveMembership(config: ResolvedConfig, organizationId: string, userId: string, role: string): Promise<AdapterMember> {
  const storage = storageOf(config)
  const added = await storage.addMember({ organizationId, userId, role, createdAt: new Date() })
  if (added) {
    await changed(config, { type: "member.added", organizationId, userId, role: added.role }, [userId])
    return added
  }
  const existing = await storage.getMember(organizationId, userId)
  if (!existing) throw new ScimProblem(409, "The membership changed while it was being added; retry")
  return existing
}
