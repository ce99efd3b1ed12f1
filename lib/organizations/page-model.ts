/**
 * The organization page's view model (issue #27): plain data for ./views/organization.ejs, from
 * the organization as its member sees it (details.ts). It decides which forms the viewer is shown
 * from their permissions; the actions decide again whatever a form sends (access.ts).
 */
import type { RequestContext } from "../core/context.js"
import type { Messages } from "../i18n/index.js"
import { accountHeader, type AccountHeader } from "../account/header.js"
import { formatDateTime } from "../devices/when.js"
import type { OrganizationDetails } from "./details.js"
import { settingsOf } from "./access.js"
import { roleLabel, statusOf } from "./page-texts.js"
import { accountPageUrl, organizationPageUrl } from "./actions/common.js"
import { ssoSection, type SsoSection } from "../sso/page-section.js"
import { scimSection, type ScimSection } from "../scim/page-section.js"
import { organizationApiKeysSection, type ApiKeysSection } from "../api-keys/page-section.js"

export interface MemberItem {
  userId: string
  /** The name, else the address, else the id. */
  label: string
  email: string | null
  self: boolean
  role: string
  roleLabel: string
  joined: string
  /** The role select (the roles the viewer may hand out), when the viewer may change this member's role. */
  roleOptions?: Array<{ name: string; label: string }>
  removable: boolean
  /** An owner may make this member the owner (transfer). */
  transferable: boolean
}

export interface OrganizationModel {
  csrfToken: string
  header: AccountHeader
  action: string
  accountUrl: string
  organization: { id: string; name: string; slug: string; logo: string | null }
  roleLabel: string
  status: { saved?: string; error?: string }
  sections: Array<{ id: string; label: string }>
  members: MemberItem[]
  invitations?: Array<{ id: string; email: string; roleLabel: string; expires: string; expired: boolean; mayResend: boolean }>
  mayRevoke: boolean
  /** The invite form's roles (absent: the viewer may not invite). */
  inviteRoles?: Array<{ name: string; label: string; selected: boolean }>
  mayUpdate: boolean
  /** The organization's roles (shown to everybody); `form`: the own-role form and delete buttons. */
  roles: Array<{ name: string; label: string; permissions: readonly string[]; own: boolean }>
  roleForm?: { permissions: readonly string[] }
  active: boolean
  mayDelete: boolean
  /** The SSO section (issue #28): the `sso` option on and a viewer with `organization:update`. */
  sso?: SsoSection
  /** The SCIM section (issue #29): the `scim` option on and a viewer with `organization:update`. */
  scim?: ScimSection
  /** The API keys section (issue #31): the `apiKeys` option on and a viewer with `organization:update`. */
  apiKeys?: ApiKeysSection
}

export async function organizationModel(
  ctx: RequestContext,
  details: OrganizationDetails,
  input: { userId: string; activeId: string | null; csrfToken: string; t: Messages; tag: string; saved?: string; error?: string },
): Promise<OrganizationModel> {
  const { t, tag } = input
  const settings = settingsOf(ctx.config)
  const held = new Set(details.permissions)
  const owner = details.role === "owner"
  const assignable = new Set(details.assignable)
  const options = details.assignable.map((name) => ({ name, label: roleLabel(t, name) }))
  // Acting on a member needs every permission of their role (an owner's only by owners): the roles the viewer may hand out.
  const reachable = (role: string) => assignable.has(role)
  const members = details.members.map((member): MemberItem => {
    const self = member.userId === input.userId
    const mayTouch = !self && reachable(member.role)
    return {
      userId: member.userId,
      label: member.name || member.email || member.userId,
      email: member.name ? member.email : null,
      self,
      role: member.role,
      roleLabel: roleLabel(t, member.role),
      joined: formatDateTime(member.joinedAt, tag),
      roleOptions: mayTouch && held.has("member:update") ? options : undefined,
      removable: mayTouch && held.has("member:remove"),
      transferable: owner && !self && member.role !== "owner",
    }
  })
  const mayRoles = settings.customRoles && held.has("role:update")
  const sso = await ssoSection(ctx, { organizationId: details.organization.id, permissions: held, t, saved: input.saved, error: input.error })
  const scim = await scimSection(ctx, { organizationId: details.organization.id, permissions: held, t, tag, roles: options, saved: input.saved, error: input.error })
  const page = organizationPageUrl(ctx, details.organization.slug)
  const apiKeys = await organizationApiKeysSection(ctx, { organizationId: details.organization.id, page, permissions: held, members, t, tag })
  const sections = [
    { id: "members", label: t["organizations.members.heading"] },
    ...(details.invitations ? [{ id: "invitations", label: t["organizations.invitations.heading"] }] : []),
    ...(held.has("organization:update") ? [{ id: "settings", label: t["organizations.settings.heading"] }] : []),
    ...(sso ? [{ id: "sso", label: t["sso.org.heading"] }] : []),
    ...(scim ? [{ id: "scim", label: t["scim.heading"] }] : []),
    ...(apiKeys ? [{ id: "api-keys", label: t["apiKeys.heading"] }] : []),
    ...(settings.customRoles ? [{ id: "roles", label: t["organizations.roles.heading"] }] : []),
    { id: "danger", label: t["organizations.danger.heading"] },
  ]
  const organization = details.organization
  return {
    csrfToken: input.csrfToken,
    header: await accountHeader(ctx, t),
    action: `${ctx.baseUrl}/organizations`,
    accountUrl: accountPageUrl(ctx),
    organization: { id: organization.id, name: organization.name, slug: organization.slug, logo: organization.logo ?? null },
    roleLabel: roleLabel(t, details.role),
    // An SSO or SCIM form's status is said in its section (the form came back to `#sso`, `#scim`).
    status: (sso && (sso.status.saved || sso.status.error)) || scim?.status.saved || apiKeys?.claimed ? {} : statusOf(t, input.saved, input.error),
    sections,
    members,
    invitations: details.invitations?.map((invitation) => ({
      id: invitation.id,
      email: invitation.email,
      roleLabel: roleLabel(t, invitation.role),
      expires: formatDateTime(invitation.expires, tag),
      expired: invitation.expired,
      mayResend: assignable.has(invitation.role),
    })),
    mayRevoke: held.has("invitation:revoke"),
    inviteRoles: details.invitations ? details.assignable.filter((name) => name !== "owner" || owner).map((name) => ({ name, label: roleLabel(t, name), selected: name === settings.defaultRole })) : undefined,
    mayUpdate: held.has("organization:update"),
    roles: details.roles.map((role) => ({ name: role.name, label: roleLabel(t, role.name), permissions: role.permissions, own: role.own })),
    roleForm: mayRoles ? { permissions: settings.book.universe.filter((permission) => held.has(permission)) } : undefined,
    active: input.activeId === organization.id,
    mayDelete: held.has("organization:delete"),
    ...(sso && { sso }),
    ...(scim && { scim }),
    ...(apiKeys && { apiKeys }),
  }
}
