/** The account page's view model (issue #15): plain data for ./views/account.ejs. */
import type { RequestContext } from "../core/context.js"
import type { Messages } from "../i18n/en.js"
import type { AccountHolder } from "./user.js"
import { signInMethods } from "./methods.js"
import { listUserSessions } from "../devices/list.js"
import { isPasswordProvider } from "../password/actions/common.js"
import type { AdapterAuthenticator } from "../adapters.js"
import { keepsPasskeyDetails } from "../passkeys/record.js"
import { labelWith } from "../devices/label.js"
import { placeWith } from "../devices/place.js"
import { formatDateTime, formatRelativeTime, timeOf } from "../devices/when.js"
import { twoFactorStatus, type TwoFactorSection } from "./two-factor-section.js"
import { accountHeader, type AccountHeader } from "./header.js"
import { organizationsSection, type OrganizationsSection } from "./organizations-section.js"
import { accountApiKeysSection } from "../api-keys/account-section.js"
import type { ApiKeysSection } from "../api-keys/page-section.js"
import { accountConnectedAppsSection, type ConnectedAppsSection } from "../identity-provider/account-section.js"

export interface PasskeyItem {
  id: string
  /** What the person sees: the passkey's name, or "Passkey <end of its id>" without one. */
  label: string
  /** How the Remove button names it: the name, or the end of its id. */
  ref: string
  /** The stored name ("" without one), the rename field's value. */
  name: string
  created: string | null
  lastUsed: string | null
  notUsed: boolean
}

export interface DeviceItem {
  id: string
  current: boolean
  /** "Chrome on macOS", or the page's "Unknown device". */
  label: string
  /** "This computer", "Local network", a public address; null when unknown. */
  place: string | null
  /** When it was last active: "5 minutes ago" (`lastActiveAt`: the full date and time; `lastActiveIso`: ISO 8601). */
  lastActive: string | null
  lastActiveAt: string | null
  lastActiveIso: string | null
  /** When it signed in, as a date and time. */
  since: string | null
}

export interface AccountModel {
  csrfToken: string
  /** The header: the app's name, its logo, the link back to the app and the sign-out page. */
  header: AccountHeader
  base: string
  back: string
  error?: string
  /** What was just saved (`name`, `email`, `confirm-email`, …), for the status line. */
  saved?: string
  user: { name: string; email: string }
  /** An email provider can send the confirmation link of a new address. */
  emailChange: boolean
  /** With the Password provider: its change-password page, coming back here (issue #18). */
  changePasswordUrl?: string
  providers: Array<{ id: string; name: string; linked: boolean }>
  /** `rename`: the adapter keeps passkey names (`updateAuthenticator`), so each has a Rename form. */
  passkeys?: { items: PasskeyItem[]; addUrl: string; rename: boolean }
  /** Two-step verification, when the `twoFactor` option is on. */
  twoFactor?: TwoFactorSection
  devices?: DeviceItem[]
  /** The user's organizations, when the `organizations` option is on (organizations-section.ts). */
  organizations?: OrganizationsSection
  /** The user's API keys, when the `apiKeys` option is on with `userKeys` (lib/api-keys/account-section.ts). */
  apiKeys?: ApiKeysSection
  /** The apps the user allowed, when the `oidcProvider` option is on (lib/identity-provider/account-section.ts). */
  connectedApps?: ConnectedAppsSection
  /** The in-page navigation: the sections this page has, in order. */
  sections: Array<{ id: string; label: string }>
}

/**
 * A passkey as the page lists it: its name (else the end of its credential id), when it was added
 * and last used, in the page's language; dates unknown (an adapter without passkey details, or a
 * passkey registered before it kept them) are left out, and `notUsed` says a known passkey has
 * not signed in yet.
 */
function passkeyItem(passkey: AdapterAuthenticator, t: Messages, tag: string): PasskeyItem {
  // Defensive: another adapter's record may carry a string or an invalid date in these fields (and
  // a Date from another realm fails instanceof, so it is recognised by its getTime).
  const date = (value: unknown) => {
    const time = timeOf(value)
    return time === null ? null : formatDateTime(time, tag)
  }
  const created = date(passkey.createdAt)
  const lastUsed = date(passkey.lastUsedAt)
  return {
    id: passkey.credentialID,
    label: passkey.name || t["account.passkeys.item"].replace("{id}", passkey.credentialID.slice(-8)),
    ref: passkey.name || passkey.credentialID.slice(-8),
    name: passkey.name ?? "",
    created,
    lastUsed,
    notUsed: Boolean(created) && !lastUsed,
  }
}

export async function accountModel(
  ctx: RequestContext,
  holder: AccountHolder,
  input: { csrfToken: string; t: Messages; tag: string; error?: string; saved?: string },
): Promise<AccountModel> {
  const { config } = ctx
  const base = ctx.baseUrl
  const back = `${base}/account`
  const methods = await signInMethods(config, holder.user.id)
  const providers = config.providers.list
    .filter((provider) => provider.type === "oauth" || provider.type === "oidc")
    .map((provider) => ({ id: provider.id, name: provider.name, linked: methods.accounts.some((account) => account.provider === provider.id) }))
  const hasPasskeys = config.providers.list.some((provider) => provider.type === "webauthn")
  const { t, tag } = input
  const sessions = await listUserSessions(config, holder.identity).catch(() => undefined)
  const twoFactor = await twoFactorStatus(ctx, holder.user.id, back, tag)
  const organizations = await organizationsSection(ctx, holder.user, back, t)
  const apiKeys = await accountApiKeysSection(ctx, holder.user.id, back, t, tag)
  const connectedApps = await accountConnectedAppsSection(ctx, holder.user.id, back, t, tag)
  const changePasswordUrl = config.providers.list.some(isPasswordProvider) ? `${base}/change-password?${new URLSearchParams({ callbackUrl: back })}` : undefined
  const sections = [
    { id: "profile", label: t["account.profile.heading"] },
    ...(changePasswordUrl || twoFactor || hasPasskeys || providers.length ? [{ id: "security", label: t["account.security.heading"] }] : []),
    ...(sessions ? [{ id: "devices", label: t["account.devices.heading"] }] : []),
    ...(organizations ? [{ id: "organizations", label: t["organizations.account.heading"] }] : []),
    ...(apiKeys ? [{ id: "api-keys", label: t["apiKeys.heading"] }] : []),
    ...(connectedApps ? [{ id: "connected-apps", label: t["oidcProvider.apps.heading"] }] : []),
    { id: "danger", label: t["account.danger.heading"] },
  ]
  return {
    csrfToken: input.csrfToken,
    header: await accountHeader(ctx, t),
    sections,
    twoFactor,
    organizations,
    apiKeys,
    connectedApps,
    base,
    back,
    // An API-key or connected-app form's status is said in its section.
    error: apiKeys?.claimed || connectedApps?.claimed ? undefined : input.error,
    saved: apiKeys?.claimed || connectedApps?.claimed ? undefined : input.saved,
    user: { name: holder.user.name ?? "", email: holder.user.email },
    emailChange: config.providers.list.some((provider) => provider.type === "email"),
    changePasswordUrl,
    providers,
    passkeys: hasPasskeys
      ? {
          items: methods.passkeys.map((passkey) => passkeyItem(passkey, t, tag)),
          addUrl: `${base}/passkey-setup?${new URLSearchParams({ callbackUrl: back })}`,
          rename: keepsPasskeyDetails(config.adapter),
        }
      : undefined,
    devices: sessions?.map((session): DeviceItem => {
      const active = session.lastSeenAt ?? session.createdAt
      return {
        id: session.id,
        current: session.current,
        label: labelWith(session.userAgent, t) ?? t["account.devices.unknown"],
        place: placeWith(session.ip, t),
        lastActive: active ? formatRelativeTime(active, tag) : null,
        lastActiveAt: active ? formatDateTime(active, tag) : null,
        lastActiveIso: active,
        since: session.createdAt ? formatDateTime(session.createdAt, tag) : null,
      }
    }),
  }
}
