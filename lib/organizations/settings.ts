/**
 * The types of the `organizations` option (issue #27), as given and as resolved (options.ts resolves
 * it). A file of its own, with no code, so the modules the resolved option points to can name it
 * without an import cycle.
 */
import type { Awaitable, User } from "../base-types.js"
import type { EmailProviderConfig } from "../providers/types.js"
import type { SessionFacts } from "../core/config/resolved.js"
import type { RolePermissions } from "./adapter.js"
import type { RoleBook } from "./roles.js"

/** An invitation mail, made in the language of the request that sent it. */
export interface InvitationMail {
  to: string
  /** The invitation page's link (with the token: single use, expires). */
  url: string
  expires: Date
  organization: { id: string; slug: string; name: string }
  role: string
  /** Who sent it (null: server code). */
  inviter: { name: string | null; email: string | null } | null
  subject: string
  text: string
  html: string
}

export interface OrganizationsOptions {
  /**
   * Roles, as `resource: [actions]` maps: a built-in name (`admin`, `member`) adds permissions to
   * that role (an owner holds them all); any other name declares a role.
   * Example: `{ member: { project: ["read"] }, editor: { project: ["read", "write"] } }`.
   */
  roles?: Record<string, RolePermissions>
  /**
   * Let each organization define its own roles (stored with it) from the permissions declared
   * here and in `roles` (default false).
   */
  customRoles?: boolean
  /** Permissions the organizations' own roles may use beyond those `roles` names. */
  permissions?: RolePermissions
  /** Who may create organizations: every signed-in user (true, default), only server code (false), or those the function picks. */
  allowCreate?: boolean | ((user: User) => Awaitable<boolean>)
  /** How long an invitation link works, in seconds (default 7 days). */
  invitationMaxAge?: number
  /** The role an invitation gives when none is named (default "member"). */
  defaultRole?: string
  /** Sends the invitation mail yourself; by default it goes through the email provider's server. */
  sendInvitation?: (mail: InvitationMail) => Awaitable<void>
}

export interface ResolvedOrganizations {
  /** Adds `auth.organization` to a signed-in read (session-fact.ts). */
  readonly attach: SessionFacts
  readonly book: RoleBook
  readonly customRoles: boolean
  readonly allowCreate: (user: User) => Promise<boolean>
  readonly invitationMaxAge: number
  readonly defaultRole: string
  readonly sendInvitation?: (mail: InvitationMail) => Awaitable<void>
  /** The email provider that sends invitations when the app does not. */
  readonly email?: EmailProviderConfig
}
