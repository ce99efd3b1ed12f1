/**
 * The organization page's SCIM section (issue #29): plain data for views/partials/org-scim.ejs,
 * which lib/organizations/views/organization.ejs includes. Shown only with the `scim` option on
 * and to a viewer who holds `organization:update`; the actions (actions/admin.ts) decide again
 * whatever a form sends. Two adapter calls: the organization's tokens and its directory groups.
 * Also the page that shows a new token once (views/scim-token.ejs).
 */
import type { RequestContext } from "../core/context.js"
import type { MessageKey, Messages } from "../i18n/index.js"
import { capabilityPage } from "../pages/capability-page.js"
import { formatDateTime } from "../devices/when.js"
import { scimEndpoint, scimStorage } from "./manage.js"

/** The page a form's new token is shown on, once (its link goes back to the organization page). */
export const SCIM_TOKEN_PAGE = capabilityPage(import.meta.url, "scim-token", "scim.token.title")

export interface ScimTokenItem {
  id: string
  name: string
  created: string
  /** "Never" when the directory has not used it yet. */
  lastUsed: string
}

export interface ScimGroupItem {
  id: string
  displayName: string
  members: number
  /** The role select: "no role", then the roles the viewer may hand out (and the group's own). */
  options: Array<{ name: string; label: string; selected: boolean }>
}

export interface ScimSection {
  /** `<base>/scim-admin`: the forms post to `<action>/<verb>`. */
  action: string
  /** The SCIM base URL to paste into the directory. */
  endpoint: string
  tokens: ScimTokenItem[]
  groups: ScimGroupItem[]
  /** The status line of a SCIM form that came back (`?saved=scim-<verb>`). */
  status: { saved?: string }
}

const SAVED: Readonly<Record<string, MessageKey>> = Object.freeze({
  "scim-revoke-token": "scim.saved.revoke-token",
  "scim-group-role": "scim.saved.group-role",
})

/**
 * The status line when the query is a SCIM form's saved value (never the query's own text);
 * undefined for any other. A refusal (`?error=InvalidRequest`, `PermissionDenied`, `UnknownRole`)
 * is said at the page's top, as the organization page says every other form's.
 */
export function scimStatus(t: Messages, saved: string | undefined, error: string | undefined): { saved?: string } | undefined {
  if (!error && saved && Object.prototype.hasOwnProperty.call(SAVED, saved)) return { saved: t[SAVED[saved]!] }
  return undefined
}

/** The section for this viewer, or undefined (the option is off, or they may not change the organization). */
export async function scimSection(
  ctx: RequestContext,
  input: {
    organizationId: string
    permissions: ReadonlySet<string>
    t: Messages
    tag: string
    /** The roles the viewer may hand out, with their labels (owner is never offered). */
    roles: ReadonlyArray<{ name: string; label: string }>
    saved?: string
    error?: string
  },
): Promise<ScimSection | undefined> {
  if (!ctx.config.scim || !input.permissions.has("organization:update")) return undefined
  const { t, tag } = input
  const storage = scimStorage(ctx.config)
  const [tokens, groups] = await Promise.all([storage.listScimTokens(input.organizationId), storage.listScimGroups(input.organizationId)])
  const offered = input.roles.filter((role) => role.name !== "owner")
  return {
    action: `${ctx.baseUrl}/scim-admin`,
    endpoint: scimEndpoint(ctx.baseUrl, input.organizationId),
    tokens: tokens.map((token) => ({
      id: token.id,
      name: token.name,
      created: formatDateTime(token.createdAt, tag),
      lastUsed: token.lastUsedAt ? formatDateTime(token.lastUsedAt, tag) : t["scim.tokens.never"],
    })),
    groups: groups.map((group) => {
      const own = group.role && !offered.some((role) => role.name === group.role) ? [{ name: group.role, label: group.role }] : []
      return {
        id: group.id,
        displayName: group.displayName,
        members: group.members.length,
        options: [{ name: "", label: t["scim.groups.noRole"] }, ...own, ...offered].map((role) => ({ ...role, selected: role.name === (group.role ?? "") })),
      }
    }),
    status: scimStatus(t, input.saved, input.error) ?? {},
  }
}
