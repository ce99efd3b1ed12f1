/**
 * `GET organizations` (JSON): the signed-in user's organizations (`id`, `slug`, `name`, `role`,
 * `permissions`) and the active one (`auth.organization`); `GET organizations/<id>`: one of them
 * with its members, pending invitations (for those who may invite) and roles
 * (lib/organizations/details.ts). Not a member: 404 `OrganizationNotFound`.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { json } from "../../core/response.js"
import { requireHolder } from "../../session/assurance.js"
import { settingsOf, storageOf } from "../access.js"
import { organizationDetails } from "../details.js"
import { membershipCache } from "../memberships.js"
import { activeOf, organizationCookieName } from "../session-fact.js"

export async function organizationsGet(ctx: RequestContext): Promise<ResponseInternal> {
  storageOf(ctx.config)
  const holder = await requireHolder(ctx, "session", "The organizations list")
  const id = ctx.request.providerId
  if (id !== undefined) return json(await organizationDetails(ctx.config, id, holder.user.id))
  const memberships = await membershipCache(ctx.config).load(ctx.config, settingsOf(ctx.config), holder.user.id)
  const chosen = ctx.request.cookies[organizationCookieName(ctx.cookies.sessionToken.options.secure === true)]
  return json({
    organizations: memberships.list.map((membership) => ({ ...membership.fact, name: membership.name })),
    active: activeOf(memberships, chosen),
  })
}
