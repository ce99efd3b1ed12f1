/**
 * The account page's organizations section (issue #27), when the `organizations` option is on:
 * the user's organizations (name, role, a link to each one's page, the active one marked, a Switch
 * form for the others that comes back here) and the form to create one (when `allowCreate` lets
 * the user). Read through the membership cache: no database round trip while it is fresh.
 */
import type { RequestContext } from "../core/context.js"
import type { Messages } from "../i18n/index.js"
import type { AdapterUser } from "../adapters.js"
import { userMemberships } from "../organizations/memberships.js"
import { activeOf, organizationCookieName } from "../organizations/session-fact.js"
import { roleLabel } from "../organizations/page-texts.js"
import { organizationPageUrl } from "../organizations/actions/common.js"

export interface OrganizationsSection {
  items: Array<{ id: string; name: string; role: string; url: string; active: boolean }>
  /** Where the Switch forms post (with `callbackUrl` back to the account page). */
  switchAction: string
  /** The create form's action, when the user may create organizations. */
  createAction?: string
  callbackUrl: string
}

export async function organizationsSection(ctx: RequestContext, user: AdapterUser, back: string, t: Messages): Promise<OrganizationsSection | undefined> {
  const settings = ctx.config.organizations
  if (!settings) return undefined
  const memberships = await userMemberships(ctx.config, settings, user.id)
  const active = activeOf(memberships, ctx.request.cookies[organizationCookieName(ctx.cookies.sessionToken.options.secure === true)])
  return {
    items: memberships.list.map((membership) => ({
      id: membership.fact.id,
      name: membership.name,
      role: roleLabel(t, membership.fact.role),
      url: organizationPageUrl(ctx, membership.fact.slug),
      active: membership.fact.id === active?.id,
    })),
    switchAction: `${ctx.baseUrl}/organizations/switch`,
    createAction: (await settings.allowCreate(user)) ? `${ctx.baseUrl}/organizations/create` : undefined,
    callbackUrl: `${back}#organizations`,
  }
}
