/** The account page's view model (issue #15): plain data for ./views/account.ejs. */
import type { RequestContext } from "../core/context.js"
import type { Messages } from "../i18n/en.js"
import type { AccountHolder } from "./user.js"
import { signInMethods } from "./methods.js"
import { listUserSessions } from "../devices/list.js"
import { isPasswordProvider } from "../password/actions/common.js"
import type { AdapterAuthenticator } from "../adapters.js"
import { keepsPasskeyDetails } from "../passkeys/record.js"
import { userAgentParts } from "../devices/user-agent.js"

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

export interface AccountModel {
  csrfToken: string
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
  devices?: Array<{ id: string; current: boolean; label: string; ip: string | null; since: string | null }>
}

/** "Firefox · Linux" from a user agent: the browser and the system, or null. */
export function deviceLabel(userAgent: string | null): string | null {
  if (!userAgent) return null
  const { browser, system } = userAgentParts(userAgent)
  if (browser && system) return `${browser} · ${system}`
  return browser ?? system ?? userAgent.slice(0, 60)
}

/**
 * A passkey as the page lists it: its name (else the end of its credential id), when it was added
 * and last used, in the page's language; dates unknown (an adapter without passkey details, or a
 * passkey registered before it kept them) are left out, and `notUsed` says a known passkey has
 * not signed in yet.
 */
function passkeyItem(passkey: AdapterAuthenticator, t: Messages, when: Intl.DateTimeFormat): PasskeyItem {
  // Defensive: another adapter's record may carry a string or an invalid date in these fields (and
  // a Date from another realm fails instanceof, so it is recognised by its getTime).
  const date = (value: unknown) => {
    const time = typeof (value as Date | null)?.getTime === "function" ? (value as Date).getTime() : typeof value === "string" ? Date.parse(value) : NaN
    return Number.isFinite(time) ? when.format(time) : null
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
  const when = new Intl.DateTimeFormat(input.tag, { dateStyle: "medium", timeStyle: "short" })
  const sessions = await listUserSessions(config, holder.identity).catch(() => undefined)
  return {
    csrfToken: input.csrfToken,
    base,
    back,
    error: input.error,
    saved: input.saved,
    user: { name: holder.user.name ?? "", email: holder.user.email },
    emailChange: config.providers.list.some((provider) => provider.type === "email"),
    changePasswordUrl: config.providers.list.some(isPasswordProvider) ? `${base}/change-password?${new URLSearchParams({ callbackUrl: back })}` : undefined,
    providers,
    passkeys: hasPasskeys
      ? {
          items: methods.passkeys.map((passkey) => passkeyItem(passkey, input.t, when)),
          addUrl: `${base}/passkey-setup?${new URLSearchParams({ callbackUrl: back })}`,
          rename: keepsPasskeyDetails(config.adapter),
        }
      : undefined,
    devices: sessions?.map((session) => ({
      id: session.id,
      current: session.current,
      label: deviceLabel(session.userAgent) ?? input.t["account.devices.unknown"],
      ip: session.ip,
      since: session.createdAt ? when.format(new Date(session.createdAt)) : null,
    })),
  }
}
