/**
 * The support actions on one user (issue #30): everything an admin sees of them (the user view),
 * ending their sessions, removing a lost second factor, mailing a password-reset link, and
 * deleting the user. Each names the admin and the user in its `admin` event and audit record.
 */
import type { AdapterAccount } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { RequestContext } from "../core/context.js"
import type { AuditRecord } from "../audit/types.js"
import { InvalidRequest, MissingAdapterMethods } from "../errors.js"
import { endUserSessions } from "../devices/revoke-user.js"
import { listUserSessions, type SessionInfo } from "../devices/list.js"
import { deleteUserAccount } from "../account/delete.js"
import type { AccountHolder } from "../account/user.js"
import { issueLink } from "../password/links.js"
import { sendPasswordMail } from "../password/mail.js"
import { isPasswordProvider } from "../password/actions/common.js"
import { linkUrl } from "../password/actions/urls.js"
import { adminSettingsOf, adminStorageOf, isAdminUser, targetUser } from "./access.js"
import { adminChanged, type Actor } from "./changes.js"
import { summaryOf, type AdminUserSummary } from "./users.js"

const AUDIT_LIMIT = 20

export interface AdminUserDetails {
  user: AdminUserSummary
  /** Whether this user is an admin too (admins are not impersonated unless configured). */
  isAdmin: boolean
  accounts: { provider: string; type: string; providerAccountId: string }[]
  passkeys: { id: string; name: string | null; createdAt: string | null; lastUsedAt: string | null }[]
  /** null: two-factor sign-in is off for this app or the user. */
  twoFactor: { enabledAt: string } | null
  sessions: SessionInfo[]
  organizations: { id: string; slug: string; name: string; role: string }[]
  /** The app's own audit records of this user (admin.auditRecords), newest first; null when the app stores none. */
  audit: AuditRecord[] | null
}

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null)

function accountView(account: AdapterAccount) {
  return { provider: account.provider, type: account.type, providerAccountId: account.providerAccountId }
}

export async function userDetails(config: ResolvedConfig, userId: unknown): Promise<AdminUserDetails> {
  const storage = adminStorageOf(config)
  const settings = adminSettingsOf(config)
  const user = await targetUser(config, userId)
  const [ban, isAdmin, accounts, passkeys, twoFactor, sessions, memberships, audit] = await Promise.all([
    storage.getUserBan(user.id),
    isAdminUser(config, user),
    storage.listAccountsByUserId ? storage.listAccountsByUserId(user.id) : [],
    storage.listAuthenticatorsByUserId ? storage.listAuthenticatorsByUserId(user.id) : [],
    config.twoFactor && storage.getTwoFactor ? storage.getTwoFactor(user.id) : null,
    listUserSessions(config, { userId: user.id }).catch((error: unknown) => (config.logger.error(error as Error), [] as SessionInfo[])),
    config.organizations && storage.listMemberships ? storage.listMemberships(user.id) : [],
    settings.auditRecords ? settings.auditRecords({ userId: user.id, limit: AUDIT_LIMIT }) : null,
  ])
  return {
    user: summaryOf(user, ban),
    isAdmin,
    accounts: accounts.map(accountView),
    passkeys: passkeys.map((passkey) => ({ id: passkey.credentialID, name: passkey.name ?? null, createdAt: iso(passkey.createdAt), lastUsedAt: iso(passkey.lastUsedAt) })),
    twoFactor: twoFactor ? { enabledAt: new Date(twoFactor.enabledAt).toISOString() } : null,
    sessions: sessions.map((session) => ({ ...session, current: false })),
    organizations: memberships.map((membership) => ({ id: membership.organizationId, slug: membership.organization.slug, name: membership.organization.name, role: membership.role })),
    audit: audit ? [...audit].slice(0, AUDIT_LIMIT) : null,
  }
}

/** Ends every session of the user, on every process. */
export async function revokeUserSessionsAsAdmin(config: ResolvedConfig, userId: unknown, actor: Actor): Promise<void> {
  const user = await targetUser(config, userId)
  await endUserSessions(config, user.id)
  await adminChanged(config, { type: "admin.sessions_revoked", adminId: actor?.userId ?? null, userId: user.id })
}

/** Removes the user's second factor and recovery codes (a lost phone); false when there was none. */
export async function removeTwoFactor(config: ResolvedConfig, userId: unknown, actor: Actor): Promise<boolean> {
  const storage = adminStorageOf(config)
  if (!storage.getTwoFactor || !storage.disableTwoFactor) throw new MissingAdapterMethods("Removing two-factor sign-in needs the adapter methods getTwoFactor and disableTwoFactor")
  const user = await targetUser(config, userId)
  if (!(await storage.getTwoFactor(user.id))) return false
  await storage.disableTwoFactor(user.id)
  await adminChanged(config, { type: "admin.two_factor_removed", adminId: actor?.userId ?? null, userId: user.id })
  return true
}

/** Mails the user a password-reset link (the password provider's own mail and link lifetime). */
export async function sendPasswordReset(ctx: RequestContext, userId: unknown, actor: Actor): Promise<void> {
  const { config } = ctx
  const provider = config.providers.list.find(isPasswordProvider)
  if (!provider) throw new InvalidRequest("A password-reset mail needs the password provider")
  const user = await targetUser(config, userId)
  const { token, expires } = await issueLink(config, "reset", user.id, provider.password.resetMaxAge)
  await sendPasswordMail(ctx, provider.password, "reset", user.email, linkUrl(ctx, "reset-password", user.id, token, ctx.request.origin), expires)
  await adminChanged(config, { type: "admin.password_reset_sent", adminId: actor?.userId ?? null, userId: user.id })
}

/** Deletes the user as account deletion does (organizations they own alone first: `LastOwner` when others remain). */
export async function deleteUserAsAdmin(config: ResolvedConfig, userId: unknown, actor: Actor): Promise<void> {
  const user = await targetUser(config, userId)
  await deleteUserAccount(config, { user } as AccountHolder)
  await adminChanged(config, { type: "admin.user_deleted", adminId: actor?.userId ?? null, userId: user.id })
}
