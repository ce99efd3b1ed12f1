/**
 * One organization as its members see it (issue #27): its fields, the viewer's role and
 * permissions, its members (with their names and addresses), its pending invitations (for those
 * who may invite), and the roles a viewer may hand out. Shared by `GET organizations/<id>` (JSON)
 * and the organization page. Only members see it; anyone else is told it does not exist.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { AdapterOrganization, RolePermissions } from "./adapter.js"
import { isOwner, settingsOf, standing, storageOf, type Standing } from "./access.js"
import { publicInvitation, type PublicInvitation } from "./invitations.js"
import { grantOf, within } from "./roles.js"

export interface MemberView {
  userId: string
  name: string | null
  email: string | null
  role: string
  joinedAt: Date
}

export interface OrganizationDetails {
  organization: AdapterOrganization
  /** The viewer's role and permissions here. */
  role: string
  permissions: readonly string[]
  members: MemberView[]
  /** Pending invitations (null: the viewer may not invite). */
  invitations: PublicInvitation[] | null
  /** Every role of the organization, with its permissions (`{ project: ["read"] }`), built-ins first. */
  roles: Array<{ name: string; permissions: readonly string[]; own: boolean }>
  /** The roles the viewer may hand out (invite with, change to). */
  assignable: string[]
}

function rolesOf(config: ResolvedConfig, organization: AdapterOrganization): OrganizationDetails["roles"] {
  const settings = settingsOf(config)
  const list: OrganizationDetails["roles"] = [...settings.book.roles.values()].map((grant) => ({ name: grant.role, permissions: grant.permissions, own: false }))
  if (settings.customRoles) {
    for (const name of Object.keys(organization.roles ?? {})) {
      const grant = grantOf(settings.book, name, organization.roles, true)
      if (grant && !settings.book.roles.has(name)) list.push({ name, permissions: grant.permissions, own: true })
    }
  }
  return list
}

function assignableBy(config: ResolvedConfig, place: Standing, roles: OrganizationDetails["roles"]): string[] {
  if (!place.grant) return roles.map((role) => role.name)
  const settings = settingsOf(config)
  const owner = isOwner(place)
  return roles
    .filter((role) => (role.name === "owner" ? owner : within(grantOf(settings.book, role.name, place.organization.roles, settings.customRoles)!, place.grant!)))
    .map((role) => role.name)
}

export async function organizationDetails(config: ResolvedConfig, organizationId: unknown, viewerId: string): Promise<OrganizationDetails> {
  const place = await standing(config, organizationId, { userId: viewerId })
  const storage = storageOf(config)
  const organization = place.organization
  const rows = await storage.listMembers(organization.id)
  const members = await Promise.all(
    rows.map(async (row): Promise<MemberView> => {
      const user = await storage.getUser(row.userId)
      return { userId: row.userId, name: user?.name ?? null, email: user?.email ?? null, role: row.role, joinedAt: row.createdAt }
    }),
  )
  const mayInvite = place.grant?.set.has("invitation:create") ?? true
  const now = Date.now()
  const invitations = mayInvite ? (await storage.listInvitations(organization.id)).map((invitation) => publicInvitation(invitation, now)) : null
  const roles = rolesOf(config, organization)
  return {
    organization,
    role: place.member?.role ?? "owner",
    permissions: place.grant?.permissions ?? settingsOf(config).book.universe,
    members,
    invitations,
    roles,
    assignable: assignableBy(config, place, roles),
  }
}

export type { RolePermissions }
