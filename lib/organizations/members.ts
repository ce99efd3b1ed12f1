/**
 * Members and their roles (issue #27). The rules hold whatever the caller sends:
 * - an organization always keeps at least one owner (the adapter refuses atomically: `LastOwner`);
 * - only owners make, change or remove owners;
 * - nobody changes their own role but an owner stepping down (and `transfer`);
 * - a role is handed out only by someone who holds every permission it grants, and a member is
 *   changed or removed only by someone who holds every permission the member's role grants;
 * - the member named must belong to the organization named.
 * Each change reaches the member's next request on every process (changes.ts).
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { LAST_OWNER, type AdapterMember } from "./adapter.js"
import { demand, isOwner, mayHandOut, roleIn, standing, storageOf, type Actor, type Standing } from "./access.js"
import { changed } from "./changes.js"
import { AlreadyMember, LastOwner, MemberNotFound, PermissionDenied } from "./errors.js"
import { checkUserId } from "./fields.js"
import { InvalidRequest } from "../errors.js"

async function memberOf(config: ResolvedConfig, place: Standing, userId: unknown): Promise<AdapterMember> {
  const id = checkUserId(userId)
  const member = await storageOf(config).getMember(place.organization.id, id)
  if (!member) throw new MemberNotFound("That user is not a member of this organization")
  return member
}

/** The actor may act on `target` (a member of another role than their own may be stronger). */
function mayActOn(config: ResolvedConfig, place: Standing, target: AdapterMember): void {
  if (!place.grant) return
  if (target.role === "owner" && !isOwner(place)) throw new PermissionDenied("Only owners change or remove owners")
  mayHandOut(place, roleIn(config, place.organization, target.role))
}

/** Adds a user (server code, or an accepted invitation: invitations.ts). `AlreadyMember` when they are one. */
export async function addMember(config: ResolvedConfig, organizationId: unknown, userId: unknown, role: unknown, actor: Actor): Promise<AdapterMember> {
  const place = await standing(config, organizationId, actor)
  demand(place, "member:update")
  const grant = roleIn(config, place.organization, role)
  mayHandOut(place, grant)
  const id = checkUserId(userId)
  const storage = storageOf(config)
  if (!(await storage.getUser(id))) throw new InvalidRequest("There is no such user (userId)")
  const added = await storage.addMember({ organizationId: place.organization.id, userId: id, role: grant.role, createdAt: new Date() })
  if (!added) throw new AlreadyMember("That user is a member already")
  await changed(config, { type: "member.added", organizationId: place.organization.id, actorId: actor?.userId, userId: id, role: grant.role }, [id])
  return added
}

export async function changeRole(config: ResolvedConfig, organizationId: unknown, userId: unknown, role: unknown, actor: Actor): Promise<AdapterMember> {
  const place = await standing(config, organizationId, actor)
  demand(place, "member:update")
  const target = await memberOf(config, place, userId)
  const grant = roleIn(config, place.organization, role)
  const self = actor !== null && target.userId === actor.userId
  // Stepping down is an owner's own choice; nobody else changes their own role.
  if (self && !isOwner(place)) throw new PermissionDenied("You cannot change your own role")
  if (!self) mayActOn(config, place, target)
  mayHandOut(place, grant)
  if (target.role === grant.role) return target
  const updated = await storageOf(config).updateMemberRole(place.organization.id, target.userId, grant.role)
  if (updated === LAST_OWNER) throw new LastOwner("The organization needs another owner first")
  if (!updated) throw new MemberNotFound("That user is no longer a member of this organization")
  await changed(config, { type: "member.role_changed", organizationId: place.organization.id, actorId: actor?.userId, userId: target.userId, role: grant.role, previousRole: target.role }, [target.userId])
  return updated
}

export async function removeMember(config: ResolvedConfig, organizationId: unknown, userId: unknown, actor: Actor): Promise<void> {
  const place = await standing(config, organizationId, actor)
  demand(place, "member:remove")
  const target = await memberOf(config, place, userId)
  if (actor && target.userId === actor.userId) throw new InvalidRequest("To leave an organization, use leave")
  mayActOn(config, place, target)
  const removed = await storageOf(config).removeMember(place.organization.id, target.userId)
  if (removed === LAST_OWNER) throw new LastOwner("The organization needs another owner first")
  if (!removed) throw new MemberNotFound("That user is no longer a member of this organization")
  await changed(config, { type: "member.removed", organizationId: place.organization.id, actorId: actor?.userId, userId: target.userId, previousRole: target.role }, [target.userId])
}

/** The signed-in user leaves (never the last owner). */
export async function leaveOrganization(config: ResolvedConfig, organizationId: unknown, actor: { userId: string }): Promise<void> {
  const place = await standing(config, organizationId, actor)
  const removed = await storageOf(config).removeMember(place.organization.id, actor.userId)
  if (removed === LAST_OWNER) throw new LastOwner("You are the only owner: make another member an owner first, or delete the organization")
  if (!removed) throw new MemberNotFound("You are no longer a member of this organization")
  await changed(config, { type: "member.left", organizationId: place.organization.id, actorId: actor.userId, userId: actor.userId, previousRole: removed.role }, [actor.userId])
}

/** An owner makes another member the owner and becomes `admin` (server code: the member becomes an owner). */
export async function transferOwnership(config: ResolvedConfig, organizationId: unknown, userId: unknown, actor: Actor): Promise<void> {
  const place = await standing(config, organizationId, actor)
  if (!isOwner(place)) throw new PermissionDenied("Only owners transfer ownership")
  const target = await memberOf(config, place, userId)
  const storage = storageOf(config)
  // The new owner first: the organization never has none, even between the two writes.
  if (target.role !== "owner") {
    const promoted = await storage.updateMemberRole(place.organization.id, target.userId, "owner")
    if (!promoted || promoted === LAST_OWNER) throw new MemberNotFound("That user is no longer a member of this organization")
  }
  const affected = [target.userId]
  if (actor && actor.userId !== target.userId) {
    const stepped = await storage.updateMemberRole(place.organization.id, actor.userId, "admin")
    if (stepped && stepped !== LAST_OWNER) affected.push(actor.userId)
  }
  await changed(config, { type: "ownership.transferred", organizationId: place.organization.id, actorId: actor?.userId, userId: target.userId, role: "owner", previousRole: target.role }, affected)
}
