/**
 * Who is an admin (issue #30), decided on the stored state on every admin request (never cached:
 * a removed admin loses the tools at once): a listed user id, the role or a permission in the
 * staff organization, or the app's `isAdmin`; any one is enough.
 */
import type { Adapter, AdapterUser } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { grantOf } from "../organizations/roles.js"
import type { ADMIN_ADAPTER_METHODS } from "./adapter.js"
import { AdminUnavailable, UserNotFound } from "./errors.js"
import type { ResolvedAdmin } from "./settings.js"

export type AdminStorage = Required<Pick<Adapter, (typeof ADMIN_ADAPTER_METHODS)[number] | "getUser" | "getUserByEmail" | "createUser" | "updateUser" | "deleteUser">> & Adapter

export function adminSettingsOf(config: ResolvedConfig): ResolvedAdmin {
  const settings = config.admin
  if (!settings) throw new AdminUnavailable("The admin tools are off: set the admin option")
  return settings
}

/** The adapter, with the methods checked at start-up when the option is on. */
export function adminStorageOf(config: ResolvedConfig): AdminStorage {
  adminSettingsOf(config)
  return config.adapter as AdminStorage
}

/** The stored user with this id; `UserNotFound` otherwise. */
export async function targetUser(config: ResolvedConfig, userId: unknown): Promise<AdapterUser> {
  if (typeof userId !== "string" || !userId || userId.length > 200) throw new UserNotFound("The request names no user (userId)")
  const user = await adminStorageOf(config).getUser(userId)
  if (!user) throw new UserNotFound("No user has this id")
  return user
}

async function staffGrants(config: ResolvedConfig, settings: ResolvedAdmin, userId: string): Promise<boolean> {
  const organizations = config.organizations
  const adapter = config.adapter
  if (!settings.organization || !organizations || !adapter?.getMember || !adapter.getOrganization || !adapter.getOrganizationBySlug) return false
  const organization = (await adapter.getOrganization(settings.organization)) ?? (await adapter.getOrganizationBySlug(settings.organization))
  if (!organization) return false
  const member = await adapter.getMember(organization.id, userId)
  if (!member) return false
  if (settings.role && member.role === settings.role) return true
  if (!settings.permission) return false
  return grantOf(organizations.book, member.role, organization.roles, organizations.customRoles)?.set.has(settings.permission) === true
}

/** True when `user` is an admin by any of the configured rules. */
export async function isAdminUser(config: ResolvedConfig, user: AdapterUser): Promise<boolean> {
  const settings = adminSettingsOf(config)
  if (settings.userIds.has(user.id)) return true
  if (await staffGrants(config, settings, user.id)) return true
  return settings.isAdmin ? (await settings.isAdmin({ user })) === true : false
}
