/**
 * Creating, changing and deleting organizations (issue #27). Whoever creates one is its first
 * owner. Changing needs `organization:update`; deleting `organization:delete` (owners), and the
 * pages and actions ask for a recent sign-in first. Every member's next request sees the change.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { AdapterOrganization, OrganizationUpdate } from "./adapter.js"
import { SLUG_TAKEN } from "./adapter.js"
import { demand, settingsOf, standing, storageOf, type Actor } from "./access.js"
import { changed } from "./changes.js"
import { PermissionDenied, SlugTaken } from "./errors.js"
import { checkLogo, checkMetadata, checkName, checkSlug, newId, slugFrom } from "./fields.js"
import { InvalidRequest } from "../errors.js"

export interface OrganizationInput {
  name?: unknown
  slug?: unknown
  logo?: unknown
  metadata?: unknown
}

/** Creates an organization with `ownerId` as its owner. A slug made from the name gets a suffix when taken; one given is refused (`SlugTaken`). */
export async function createOrganization(config: ResolvedConfig, ownerId: string, input: OrganizationInput, actor: Actor): Promise<AdapterOrganization> {
  const settings = settingsOf(config)
  const storage = storageOf(config)
  if (actor) {
    const user = await storage.getUser(actor.userId)
    if (!user || !(await settings.allowCreate(user))) throw new PermissionDenied("You may not create organizations here")
  }
  const name = checkName(input.name)
  const given = input.slug !== undefined && input.slug !== ""
  const base = given ? checkSlug(input.slug) : slugFrom(name)
  const now = new Date()
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = attempt === 0 ? base : `${base.slice(0, 40)}-${newId().slice(0, 6)}`
    const organization: AdapterOrganization = {
      id: newId(),
      slug,
      name,
      logo: input.logo === undefined ? null : checkLogo(input.logo),
      metadata: input.metadata === undefined ? null : checkMetadata(input.metadata),
      roles: null,
      createdAt: now,
    }
    const made = await storage.createOrganization(organization, { organizationId: organization.id, userId: ownerId, role: "owner", createdAt: now })
    if (made !== SLUG_TAKEN) {
      await changed(config, { type: "organization.created", organizationId: made.id, actorId: actor?.userId, userId: ownerId, role: "owner" }, [ownerId])
      return made
    }
    if (given) throw new SlugTaken(`The slug ${slug} is taken`)
  }
  throw new SlugTaken("No free slug was found for this name; choose one")
}

export async function updateOrganization(config: ResolvedConfig, organizationId: unknown, input: OrganizationInput, actor: Actor): Promise<AdapterOrganization> {
  const place = await standing(config, organizationId, actor)
  demand(place, "organization:update")
  const changes: OrganizationUpdate = {}
  if (input.name !== undefined) changes.name = checkName(input.name)
  if (input.slug !== undefined) changes.slug = checkSlug(input.slug)
  if (input.logo !== undefined) changes.logo = checkLogo(input.logo)
  if (input.metadata !== undefined) changes.metadata = checkMetadata(input.metadata)
  if (!Object.keys(changes).length) throw new InvalidRequest("Nothing to change: send name, slug, logo or metadata")
  const storage = storageOf(config)
  const updated = await storage.updateOrganization(place.organization.id, changes)
  if (updated === SLUG_TAKEN) throw new SlugTaken(`The slug ${changes.slug} is taken`)
  if (!updated) throw new InvalidRequest("The organization was deleted meanwhile")
  // The slug is part of every member's `auth.organization`.
  const members = await storage.listMembers(updated.id)
  await changed(config, { type: "organization.updated", organizationId: updated.id, actorId: actor?.userId }, members.map((member) => member.userId))
  return updated
}

export async function deleteOrganization(config: ResolvedConfig, organizationId: unknown, actor: Actor): Promise<void> {
  const place = await standing(config, organizationId, actor)
  demand(place, "organization:delete")
  const storage = storageOf(config)
  const members = await storage.listMembers(place.organization.id)
  await storage.deleteOrganization(place.organization.id)
  await changed(config, { type: "organization.deleted", organizationId: place.organization.id, actorId: actor?.userId }, members.map((member) => member.userId))
}
