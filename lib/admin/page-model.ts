/**
 * The admin pages' view models (issue #30): plain data for ./views/admin-list.ejs and
 * ./views/admin-user.ejs, with every text already in the page's language and every date formatted.
 * They decide which forms are shown from the configuration and the user's state; the actions
 * decide again whatever a form sends (actions/post.ts). The list page also shows the identity
 * provider's clients when it is on (lib/identity-provider/admin-section.ts, issue #32).
 */
import type { RequestContext } from "../core/context.js"
import { format, type Messages } from "../i18n/index.js"
import { accountHeader, type AccountHeader } from "../account/header.js"
import { formatDateTime } from "../devices/when.js"
import { labelWith } from "../devices/label.js"
import { isPasswordProvider } from "../password/actions/common.js"
import { roleLabel } from "../organizations/page-texts.js"
import type { AdminHolder } from "./guard.js"
import type { AdminUserSummary, UserPage } from "./users.js"
import type { AdminUserDetails } from "./support.js"
import { statusOf } from "./page-texts.js"
import { adminPageUrl, userPageUrl } from "./actions/common.js"
import { adminOidcClientsSection, type OidcClientsSection } from "../identity-provider/admin-section.js"

type Status = { saved?: string; error?: string }

interface PageInput {
  csrfToken: string
  t: Messages
  tag: string
  saved?: string
  error?: string
}

export interface UserItem {
  id: string
  url: string
  email: string
  name: string | null
  verified: boolean
  banned: boolean
}

export interface ListModel {
  csrfToken: string
  header: AccountHeader
  listUrl: string
  createAction: string
  search: string
  heading: string
  users: UserItem[]
  nextUrl?: string
  status: Status
  /** The identity provider's clients (issue #32); absent when it is off. */
  oidcClients?: OidcClientsSection
}

export async function listModel(ctx: RequestContext, page: UserPage, input: PageInput & { search?: string }): Promise<ListModel> {
  const { t } = input
  const search = (input.search ?? "").trim()
  const oidcClients = await adminOidcClientsSection(ctx, t, input.tag)
  return {
    csrfToken: input.csrfToken,
    header: await accountHeader(ctx, t),
    listUrl: adminPageUrl(ctx),
    createAction: `${ctx.baseUrl}/admin/create-user`,
    search,
    heading: search ? format(t["admin.list.results"], { search }) : t["admin.list.heading"],
    users: page.users.map((user) => ({ id: user.id, url: userPageUrl(ctx, user.id), email: user.email, name: user.name, verified: user.emailVerified !== null, banned: user.ban !== null })),
    // The next page keeps the search it continues.
    nextUrl: page.next ? adminPageUrl(ctx, { cursor: page.next, ...(search && { search }) }) : undefined,
    status: statusOf(t, input.saved, input.error),
    ...(oidcClients && { oidcClients }),
  }
}

/** Values of the ban form's duration (seconds; "" is until lifted), with their texts' keys. */
const DURATIONS = [
  ["3600", "admin.ban.hour"],
  ["86400", "admin.ban.day"],
  ["604800", "admin.ban.week"],
  ["2592000", "admin.ban.month"],
  ["", "admin.ban.forever"],
] as const

export interface UserModel {
  csrfToken: string
  header: AccountHeader
  listUrl: string
  action: string
  status: Status
  sections: Array<{ id: string; label: string }>
  user: { id: string; label: string; email: string; name: string; idText: string; verified: boolean; verifiedText: string; isAdmin: boolean; banned: boolean }
  ban: { since: string; reason: string; until: string } | null
  banOptions: Array<{ value: string; label: string }>
  accounts: string[]
  passkeys: Array<{ name: string; added: string | null; used: string }>
  twoFactor: string
  twoFactorOn: boolean
  sessions: Array<{ device: string; started: string | null; lastSeen: string | null; ip: string | null }>
  organizations: Array<{ name: string; role: string }>
  audit: Array<{ time: string; iso: string; type: string; outcome: string }> | null
  mayResetPassword: boolean
  /** Absent: impersonation is off, or the user is banned (or is the admin). `allowed` false: shown with why not. */
  impersonation?: { allowed: boolean }
  deleteConfirm: string
}

function banOf(ban: AdminUserSummary["ban"], t: Messages, tag: string): UserModel["ban"] {
  if (!ban) return null
  return {
    since: format(t["admin.ban.since"], { date: formatDateTime(ban.createdAt, tag) }),
    reason: ban.reason ? format(t["admin.ban.reason"], { reason: ban.reason }) : t["admin.ban.noReason"],
    until: ban.expires ? format(t["admin.ban.until"], { date: formatDateTime(ban.expires, tag) }) : t["admin.ban.untilLifted"],
  }
}

export async function userModel(ctx: RequestContext, admin: AdminHolder, details: AdminUserDetails, input: PageInput): Promise<UserModel> {
  const { t, tag } = input
  const { user } = details
  const when = (value: string | null) => (value ? formatDateTime(value, tag) : null)
  const settings = ctx.config.admin?.impersonation
  const label = user.name || user.email
  const impersonation = settings && !user.ban && user.id !== admin.user.id ? { allowed: !details.isAdmin || settings.admins } : undefined
  const sections = [
    { id: "details", label: t["admin.edit.heading"] },
    { id: "ban", label: t["admin.ban.heading"] },
    { id: "sign-in", label: t["admin.accounts.heading"] },
    { id: "sessions", label: t["admin.sessions.heading"] },
    { id: "organizations", label: t["admin.organizations.heading"] },
    ...(details.audit ? [{ id: "activity", label: t["admin.audit.heading"] }] : []),
    ...(impersonation ? [{ id: "impersonate", label: t["admin.impersonate.heading"] }] : []),
    { id: "danger", label: t["admin.danger.heading"] },
  ]
  return {
    csrfToken: input.csrfToken,
    header: await accountHeader(ctx, t),
    listUrl: adminPageUrl(ctx),
    action: `${ctx.baseUrl}/admin`,
    status: statusOf(t, input.saved, input.error),
    sections,
    user: {
      id: user.id,
      label,
      email: user.email,
      name: user.name ?? "",
      idText: format(t["admin.user.id"], { id: user.id }),
      verified: user.emailVerified !== null,
      verifiedText: user.emailVerified ? format(t["admin.user.verifiedOn"], { date: formatDateTime(user.emailVerified, tag) }) : t["admin.user.unverified"],
      isAdmin: details.isAdmin,
      banned: user.ban !== null,
    },
    ban: banOf(user.ban, t, tag),
    banOptions: DURATIONS.map(([value, key]) => ({ value, label: t[key] })),
    accounts: details.accounts.map((account) => format(t["admin.accounts.item"], { provider: account.provider, type: account.type })),
    passkeys: details.passkeys.map((passkey) => ({
      name: passkey.name || t["admin.passkeys.unnamed"],
      added: passkey.createdAt ? format(t["admin.passkeys.added"], { date: formatDateTime(passkey.createdAt, tag) }) : null,
      used: passkey.lastUsedAt ? format(t["admin.passkeys.used"], { date: formatDateTime(passkey.lastUsedAt, tag) }) : t["admin.passkeys.neverUsed"],
    })),
    twoFactor: details.twoFactor ? format(t["admin.twoFactor.on"], { date: formatDateTime(details.twoFactor.enabledAt, tag) }) : t["admin.twoFactor.off"],
    twoFactorOn: details.twoFactor !== null,
    sessions: details.sessions.map((session) => {
      const started = when(session.createdAt)
      const lastSeen = when(session.lastSeenAt)
      return {
        device: labelWith(session.userAgent, t) ?? t["admin.sessions.unknownDevice"],
        started: started && format(t["admin.sessions.started"], { date: started }),
        lastSeen: lastSeen && format(t["admin.sessions.lastSeen"], { date: lastSeen }),
        ip: session.ip && format(t["admin.sessions.ip"], { ip: session.ip }),
      }
    }),
    organizations: details.organizations.map((membership) => ({ name: membership.name, role: format(t["admin.organizations.role"], { role: roleLabel(t, membership.role) }) })),
    audit: details.audit?.map((record) => ({ time: formatDateTime(record.time, tag), iso: record.time, type: record.type, outcome: t[record.outcome === "success" ? "admin.audit.success" : "admin.audit.failure"] })) ?? null,
    mayResetPassword: ctx.config.providers.list.some(isPasswordProvider),
    ...(impersonation && { impersonation }),
    deleteConfirm: format(t["admin.delete.confirm"], { user: label }),
  }
}
