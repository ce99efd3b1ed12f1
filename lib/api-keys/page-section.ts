/**
 * The "API keys" section of the account page and of the organization page (issue #31): plain data
 * for views/partials/api-keys-section.ejs, which both pages' views include. Shown only with the
 * `apiKeys` option on (account-section.ts: `userKeys` too; here: organizations on and a viewer
 * who holds `organization:update`); the actions (actions/post.ts, ../manage.ts) decide again
 * whatever a form sends. One adapter call: the keys.
 */
import type { RequestContext } from "../core/context.js"
import { queryParam } from "../core/request.js"
import type { MessageKey, Messages } from "../i18n/index.js"
import { formatDateTime } from "../devices/when.js"
import type { Adapter } from "../adapters.js"
import { viewOf, type ApiKeyView } from "./manage.js"

type Storage = Required<Pick<Adapter, "listApiKeys">>

export interface ApiKeyItem {
  id: string
  name: string
  /** The key's first characters and an ellipsis: `gk_Ab12…`. */
  start: string
  /** The scopes joined, or "none". */
  scopes: string
  created: string
  /** The expiry, or "never". */
  expires: string
  lastUsed: string
  /** Who made it (an organization's key): a member's name, or "the application" for server code. */
  by?: string
}

export interface ApiKeysSection {
  /** Whose keys: the intro and the scopes' legend differ. */
  owner: "user" | "organization"
  /** `<base>/api-keys`: the forms post to `<action>/create` and `<action>/revoke`. */
  action: string
  /** Where the forms come back to (the page, marked so its status line is this section's). */
  callbackUrl: string
  organizationId?: string
  keys: ApiKeyItem[]
  /** The scopes the create form offers as checkboxes (none: no fieldset). */
  scopes: string[]
  /** The expiry select's options: seconds, or "" for never. */
  expiries: Array<{ value: string; label: string; selected: boolean }>
  /** The status line of an API-key form that came back; `claimed`: the page says nothing else about it. */
  status: { saved?: string; error?: string }
  claimed: boolean
}

/** The query parameter (and value) marking a page a key form came back to. */
export const FROM = { name: "from", value: "api-keys" } as const

const ERRORS: Readonly<Record<string, MessageKey>> = Object.freeze({
  InvalidRequest: "apiKeys.error.InvalidRequest",
  InsufficientScope: "apiKeys.error.InsufficientScope",
  ApiKeyNotFound: "apiKeys.error.ApiKeyNotFound",
  PermissionDenied: "apiKeys.error.PermissionDenied",
  OrganizationNotFound: "apiKeys.error.OrganizationNotFound",
})

const DAY = 86_400
const DURATIONS = [30, 90, 365]

/**
 * The status line when the query is this section's (a revoked key, or a refusal of a form marked
 * `from=api-keys`); the page's own line otherwise. Never the query's own text.
 */
export function apiKeysStatus(ctx: RequestContext, t: Messages): { status: { saved?: string; error?: string }; claimed: boolean } {
  const error = queryParam(ctx.request, "error")
  const saved = queryParam(ctx.request, "saved")
  if (error !== undefined) {
    if (queryParam(ctx.request, FROM.name) !== FROM.value) return { status: {}, claimed: false }
    const key = Object.prototype.hasOwnProperty.call(ERRORS, error) ? ERRORS[error]! : "error.default.message"
    return { status: { error: t[key] }, claimed: true }
  }
  if (saved === "api-key-revoked") return { status: { saved: t["apiKeys.saved.api-key-revoked"] }, claimed: true }
  return { status: {}, claimed: false }
}

/** 30, 90 and 365 days, and never; with `apiKeys.maxAge`, only what it allows (never is not). */
export function expiryOptions(t: Messages, maxAge: number | undefined): ApiKeysSection["expiries"] {
  const days = DURATIONS.filter((count) => maxAge === undefined || count * DAY <= maxAge).map((count) => ({ value: String(count * DAY), label: t["apiKeys.create.days"].replace("{count}", String(count)) }))
  if (maxAge !== undefined && !days.some((option) => Number(option.value) === maxAge)) days.push({ value: String(maxAge), label: t["apiKeys.create.longest"] })
  const options = maxAge === undefined ? [...days, { value: "", label: t["apiKeys.create.never"] }] : days
  // 90 days when offered: a key that lives for ever is a choice, not the default.
  const preferred = options.some((option) => option.value === String(90 * DAY)) ? String(90 * DAY) : options[0]!.value
  return options.map((option) => ({ ...option, selected: option.value === preferred }))
}

export function keyItem(key: ApiKeyView, t: Messages, tag: string, by?: (userId: string | null) => string): ApiKeyItem {
  const never = t["apiKeys.key.never"]
  return {
    id: key.id,
    name: key.name,
    start: `${key.start}…`,
    scopes: key.scopes.length ? key.scopes.join(", ") : t["apiKeys.key.noScopes"],
    created: formatDateTime(key.createdAt, tag),
    expires: key.expires ? formatDateTime(key.expires, tag) : never,
    lastUsed: key.lastUsedAt ? formatDateTime(key.lastUsedAt, tag) : never,
    ...(by && { by: by(key.createdBy) }),
  }
}

/** The page's URL with the mark that says a key form came from it. */
export function markedUrl(page: string): string {
  return `${page}${page.includes("?") ? "&" : "?"}${FROM.name}=${FROM.value}`
}

/** The organization page's section for this viewer, or undefined (the option is off, or they may not change the organization). */
export async function organizationApiKeysSection(
  ctx: RequestContext,
  input: {
    organizationId: string
    /** The page's URL (the forms come back to it). */
    page: string
    /** The viewer's permissions there: the section needs `organization:update`, and offers them as the key's scopes. */
    permissions: ReadonlySet<string>
    /** The members' labels, to say who made each key. */
    members: ReadonlyArray<{ userId: string; label: string }>
    t: Messages
    tag: string
  },
): Promise<ApiKeysSection | undefined> {
  const settings = ctx.config.apiKeys
  const organizations = ctx.config.organizations
  if (!settings || !organizations || !input.permissions.has("organization:update")) return undefined
  const { t, tag } = input
  // The page has checked the membership and the permission: the keys straight from storage.
  const keys = (await (ctx.config.adapter as Storage).listApiKeys({ organizationId: input.organizationId })).map(viewOf)
  const labels = new Map(input.members.map((member) => [member.userId, member.label]))
  const by = (userId: string | null) => (userId === null ? t["apiKeys.key.byApp"] : (labels.get(userId) ?? userId))
  return {
    owner: "organization",
    action: `${ctx.baseUrl}/api-keys`,
    callbackUrl: markedUrl(input.page),
    organizationId: input.organizationId,
    keys: keys.map((key) => keyItem(key, t, tag, by)),
    scopes: organizations.book.universe.filter((permission) => input.permissions.has(permission)),
    expiries: expiryOptions(t, settings.maxAge),
    ...apiKeysStatus(ctx, t),
  }
}
