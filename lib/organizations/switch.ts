/**
 * Switching the organization the signed-in user acts for (issue #27): the user must be a member of
 * it; this browser's choice is kept in the `gatehouse.organization` cookie (session-fact.ts), and
 * the next request's `auth.organization` is that organization.
 */
import type { RequestContext } from "../core/context.js"
import { OrganizationNotFound } from "./errors.js"
import { settingsOf } from "./access.js"
import { membershipCache, type ActiveOrganization } from "./memberships.js"
import { organizationCookie } from "./session-fact.js"

export async function switchOrganization(ctx: RequestContext, userId: string, organizationId: unknown): Promise<ActiveOrganization> {
  if (typeof organizationId !== "string" || !organizationId) throw new OrganizationNotFound("The request names no organization (organizationId)")
  // Fresh from the adapter: a membership made a moment ago (created, accepted) is there.
  const memberships = await membershipCache(ctx.config).load(ctx.config, settingsOf(ctx.config), userId)
  const membership = memberships.byId.get(organizationId)
  if (!membership) throw new OrganizationNotFound("No such organization among yours")
  ctx.outCookies.push(organizationCookie(ctx.cookies.sessionToken.options.secure === true, organizationId))
  return membership.fact
}
