/**
 * A user whose account is deleted leaves their organizations (issue #27), and no organization is
 * left without an owner: the account of an organization's only owner is not deleted while others
 * are members (`LastOwner`: transfer ownership first); an organization whose only member is that
 * owner is deleted with the account. Called by the account page's delete before the user goes.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { storageOf } from "./access.js"
import { changed } from "./changes.js"
import { LastOwner } from "./errors.js"

/** The organizations to delete with the user; LastOwner when the user is the only owner of one with other members. */
export async function organizationsOwnedAlone(config: ResolvedConfig, userId: string): Promise<string[]> {
  if (!config.organizations) return []
  const storage = storageOf(config)
  const alone: string[] = []
  for (const membership of await storage.listMemberships(userId)) {
    if (membership.role !== "owner") continue
    const members = await storage.listMembers(membership.organizationId)
    if (members.some((member) => member.role === "owner" && member.userId !== userId)) continue
    if (members.length > 1) throw new LastOwner(`You are the only owner of ${membership.organization.name}: make another member an owner first`)
    alone.push(membership.organizationId)
  }
  return alone
}

/** Deletes the organizations the user was the only member of, after the user is gone. */
export async function deleteOrganizationsOf(config: ResolvedConfig, userId: string, organizationIds: readonly string[]): Promise<void> {
  for (const organizationId of organizationIds) {
    await storageOf(config).deleteOrganization(organizationId)
    await changed(config, { type: "organization.deleted", organizationId, actorId: userId }, [userId])
  }
}
