/**
 * Who may do what in an organization (issue #27), read from the adapter (never the cache: a change
 * is decided on the stored state). Every action names the organization it acts on; the actor must
 * be a member of it, and every member, invitation or role it names must belong to it, so an id of
 * another organization reads as "not found" whatever the caller sends. `actor` null is server
 * code: trusted with every permission, still bound by the rules (the last owner stays).
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { Adapter } from "../adapters.js"
import { type ORGANIZATION_ADAPTER_METHODS, type AdapterMember, type AdapterOrganization } from "./adapter.js"
import { OrganizationNotFound, OrganizationsUnavailable, PermissionDenied, UnknownRole } from "./errors.js"
import type { ResolvedOrganizations } from "./settings.js"
import { grantOf, type RoleGrant } from "./roles.js"

export type Storage = Required<Pick<Adapter, (typeof ORGANIZATION_ADAPTER_METHODS)[number] | "getUser" | "getUserByEmail">>

/** Who acts: a signed-in user, or null for the app's server code. */
export type Actor = { userId: string } | null

export interface Standing {
  organization: AdapterOrganization
  /** The actor's membership (null for server code). */
  member: AdapterMember | null
  /** The actor's role's grant (null for server code: everything). */
  grant: RoleGrant | null
}

export function settingsOf(config: ResolvedConfig): ResolvedOrganizations {
  const settings = config.organizations
  if (!settings) throw new OrganizationsUnavailable("Organizations are off: set the organizations option")
  return settings
}

/** The adapter's organization methods (checked at start-up when the option is on). */
export function storageOf(config: ResolvedConfig): Storage {
  settingsOf(config)
  return config.adapter as Storage
}

/** The organization and the actor's place in it; a non-member is told the organization does not exist. */
export async function standing(config: ResolvedConfig, organizationId: unknown, actor: Actor): Promise<Standing> {
  if (typeof organizationId !== "string" || !organizationId || organizationId.length > 200) throw new OrganizationNotFound("The request names no organization (organizationId)")
  const storage = storageOf(config)
  const organization = await storage.getOrganization(organizationId)
  if (!organization) throw new OrganizationNotFound("No such organization among yours")
  if (!actor) return { organization, member: null, grant: null }
  const member = await storage.getMember(organizationId, actor.userId)
  if (!member) throw new OrganizationNotFound("No such organization among yours")
  const grant = grantOf(settingsOf(config).book, member.role, organization.roles, settingsOf(config).customRoles) ?? null
  return { organization, member, grant: grant ?? { role: member.role, permissions: [], set: new Set() } }
}

export function isOwner(standing: Standing): boolean {
  return standing.member === null || standing.member.role === "owner"
}

/** Refuses unless the actor holds `permission` (server code holds every one). */
export function demand(standing: Standing, permission: string): void {
  if (standing.grant && !standing.grant.set.has(permission)) throw new PermissionDenied(`Your role (${standing.grant.role}) does not allow ${permission}`)
}

/** The grant of `role` in this organization; UnknownRole when nobody defines it. */
export function roleIn(config: ResolvedConfig, organization: AdapterOrganization, role: unknown): RoleGrant {
  const settings = settingsOf(config)
  const found = typeof role === "string" ? grantOf(settings.book, role, organization.roles, settings.customRoles) : undefined
  if (!found) throw new UnknownRole(`${JSON.stringify(role)} is not a role of this organization`)
  return found
}

/** A role may be handed out only by someone who holds every permission it grants; owners only by owners. */
export function mayHandOut(standing: Standing, role: RoleGrant): void {
  if (!standing.grant) return
  if (role.role === "owner" && !isOwner(standing)) throw new PermissionDenied("Only owners make owners")
  for (const permission of role.permissions) {
    if (!standing.grant.set.has(permission)) throw new PermissionDenied(`The role ${role.role} grants ${permission}, which your role does not have`)
  }
}
