/**
 * The account page's two-step verification section (issue #26): whether it is on, since when, and
 * how many recovery codes are left. Its forms post to `two-factor/setup` (lib/two-factor), which
 * asks for a current code and a recent sign-in, and comes back here.
 */
import type { RequestContext } from "../core/context.js"
import type { Adapter } from "../adapters.js"
import { formatDateTime } from "../devices/when.js"

export interface TwoFactorSection {
  on: boolean
  /** When it was turned on, in the page's language (null when off or unknown). */
  since: string | null
  /** Unused recovery codes (0 when off). */
  remaining: number
  /** The setup page, coming back to the account page. */
  setupUrl: string
  /** Where the section's forms post (`two-factor/setup`), and the `callbackUrl` they carry. */
  action: string
  callbackUrl: string
}

type Storage = Required<Pick<Adapter, "getTwoFactor" | "countRecoveryCodes">>

/** The section's data, or undefined when two-factor sign-in is off for the site. */
export async function twoFactorStatus(ctx: RequestContext, userId: string, back: string, tag: string): Promise<TwoFactorSection | undefined> {
  if (!ctx.config.twoFactor) return undefined
  const adapter = ctx.config.adapter as Partial<Storage> | undefined
  if (typeof adapter?.getTwoFactor !== "function" || typeof adapter.countRecoveryCodes !== "function") return undefined
  const record = await adapter.getTwoFactor(userId)
  const remaining = record ? await adapter.countRecoveryCodes(userId) : 0
  return {
    on: Boolean(record),
    since: record?.enabledAt ? formatDateTime(record.enabledAt, tag) || null : null,
    remaining,
    setupUrl: `${ctx.baseUrl}/two-factor/setup?${new URLSearchParams({ callbackUrl: back })}`,
    action: `${ctx.baseUrl}/two-factor/setup`,
    callbackUrl: back,
  }
}
