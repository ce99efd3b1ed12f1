/**
 * An organization's own roles (issue #27, `customRoles`): its owners and admins (`role:update`)
 * define roles from the permissions the configuration declares, never granting one they do not
 * hold themselves; a role members hold cannot be deleted (`RoleInUse`). The built-in and
 * configured role names are not theirs to redefine.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { RolePermissions } from "./adapter.js"
import { SLUG_TAKEN } from "./adapter.js"
import { demand, mayHandOut, settingsOf, standing, storageOf, type Actor } from "./access.js"
import { changed } from "./changes.js"
import { RoleInUse, UnknownRole } from "./errors.js"
import { grant, group, ROLE_NAME } from "./roles.js"
import { InvalidRequest } from "../errors.js"

function roleName(config: ResolvedConfig, value: unknown): string {
  if (typeof value !== "string" || !ROLE_NAME.test(value)) throw new InvalidRequest("A role's name is lower-case letters, digits, - and _, starting with a letter (name)")
  if (settingsOf(config).book.roles.has(value)) throw new InvalidRequest(`${value} is a role of the site, not one the organization can define`)
  return value
}

/** Permissions as sent: `["project:read"]`, `"project:read,project:write"`, or `{ project: ["read"] }`. */
function permissionList(config: ResolvedConfig, value: unknown): string[] {
  let list: unknown[]
  if (Array.isArray(value)) list = value
  else if (typeof value === "string") list = value ? value.split(/[\s,]+/).filter(Boolean) : []
  else if (value && typeof value === "object") list = Object.entries(value as Record<string, unknown>).flatMap(([resource, actions]) => (Array.isArray(actions) ? actions.map((action) => `${resource}:${String(action)}`) : [null]))
  else if (value === undefined) list = []
  else throw new InvalidRequest("permissions is a list such as [\"project:read\"]")
  const known = new Set(settingsOf(config).book.universe)
  for (const permission of list) {
    if (typeof permission !== "string" || !known.has(permission)) throw new InvalidRequest(`${JSON.stringify(permission)} is not a permission this site declares`)
  }
  return [...new Set(list as string[])].sort()
}

function customOn(config: ResolvedConfig): void {
  if (!settingsOf(config).customRoles) throw new InvalidRequest("Organizations cannot define their own roles here (customRoles is off)")
}

export async function setOwnRole(config: ResolvedConfig, organizationId: unknown, name: unknown, permissions: unknown, actor: Actor): Promise<Record<string, RolePermissions>> {
  customOn(config)
  const place = await standing(config, organizationId, actor)
  demand(place, "role:update")
  const role = roleName(config, name)
  const list = permissionList(config, permissions)
  mayHandOut(place, grant(role, list))
  const roles = { ...(place.organization.roles ?? {}), [role]: group(list) }
  const updated = await storageOf(config).updateOrganization(place.organization.id, { roles })
  if (!updated || updated === SLUG_TAKEN) throw new InvalidRequest("The organization was deleted meanwhile")
  const members = await storageOf(config).listMembers(place.organization.id)
  await changed(config, { type: "role.updated", organizationId: place.organization.id, actorId: actor?.userId, role }, members.filter((member) => member.role === role).map((member) => member.userId))
  return updated.roles ?? {}
}

export async function deleteOwnRole(config: ResolvedConfig, organizationId: unknown, name: unknown, actor: Actor): Promise<Record<string, RolePermissions>> {
  customOn(config)
  const place = await standing(config, organizationId, actor)
  demand(place, "role:update")
  const role = roleName(config, name)
  const current = place.organization.roles ?? {}
  if (!(role in current)) throw new UnknownRole(`${role} is not a role of this organization`)
  const members = await storageOf(config).listMembers(place.organization.id)
  if (members.some((member) => member.role === role)) throw new RoleInUse(`Members hold the role ${role}`)
  const { [role]: _removed, ...rest } = current
  const updated = await storageOf(config).updateOrganization(place.organization.id, { roles: Object.keys(rest).length ? rest : null })
  if (!updated || updated === SLUG_TAKEN) throw new InvalidRequest("The organization was deleted meanwhile")
  await changed(config, { type: "role.deleted", organizationId: place.organization.id, actorId: actor?.userId, role })
  return updated.roles ?? {}
}
