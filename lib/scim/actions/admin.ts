/**
 * `POST scim-admin/<create-token|revoke-token|group-role>` (issue #29; the CSRF token is checked
 * by the core): an organization's admins (`organization:update`, a recent sign-in) make and revoke
 * its SCIM tokens and choose the role each directory group maps to (the rules: ../manage.ts).
 * An API call (Accept: application/json) gets JSON; a form goes back to the organization page's
 * SCIM section (`?saved=scim-<verb>#scim`, or `?error=<Type>#scim` for a refusal the page
 * explains). A new token is shown once and never put in a URL: JSON `{ token, ... }`, or for a
 * form a page of its own (views/scim-token.ejs; every answer is `Cache-Control: no-store`).
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { json, redirect } from "../../core/response.js"
import { AuthError, UnknownAction } from "../../errors.js"
import { requireHolder } from "../../session/assurance.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import type { Actor } from "../../organizations/access.js"
import { createToken, revokeToken, scimEndpoint, scimStorage, setGroupRole } from "../manage.js"
import { SCIM_TOKEN_PAGE } from "../page-section.js"

const VERBS = new Set(["create-token", "revoke-token", "group-role"])

/** Refusals the organization page explains in its SCIM section (anything else takes its usual outcome). */
const EXPLAINED = new Set(["InvalidRequest", "PermissionDenied", "UnknownRole"])

function field(ctx: RequestContext, name: string): unknown {
  const body = ctx.request.body as Record<string, unknown> | undefined
  if (!body || !Object.prototype.hasOwnProperty.call(body, name)) return undefined
  return body[name]
}

/** The organization page, for a form's answer: only for a member of the organization the form names. */
async function pageOf(ctx: RequestContext, organizationId: unknown, userId: string | undefined): Promise<string | undefined> {
  if (typeof organizationId !== "string" || !organizationId || organizationId.length > 200) return undefined
  try {
    const adapter = ctx.config.adapter
    const organization = await adapter?.getOrganization?.(organizationId)
    if (!organization) return undefined
    if (userId !== undefined && !(await adapter?.getMember?.(organizationId, userId))) return undefined
    return `${ctx.baseUrl}/organization/${encodeURIComponent(organization.slug)}`
  } catch {
    return undefined
  }
}

function back(page: string, query: Record<string, string>): string {
  return `${page}?${new URLSearchParams(query)}#scim`
}

async function perform(ctx: RequestContext, verb: string, actor: Exclude<Actor, null>, asForm: boolean): Promise<ResponseInternal> {
  const organizationId = field(ctx, "organizationId")
  if (verb === "create-token") {
    const { token, record } = await createToken(ctx.config, organizationId, field(ctx, "name"), actor)
    const endpoint = scimEndpoint(ctx.baseUrl, record.organizationId)
    if (!asForm) return json({ token, id: record.id, name: record.name, createdAt: record.createdAt.toISOString(), endpoint })
    const chosen = pageLocale(ctx)
    const page = await pageOf(ctx, record.organizationId, actor.userId)
    const model = { token, name: record.name, endpoint, backUrl: page ? `${page}#scim` : `${ctx.baseUrl}/organization` }
    return pageResponse(ctx, SCIM_TOKEN_PAGE, record.name, model, 200, chosen)
  }
  const answer =
    verb === "revoke-token"
      ? { organizationId, revoked: await revokeToken(ctx.config, organizationId, field(ctx, "tokenId"), actor) }
      : { organizationId, group: await setGroupRole(ctx.config, organizationId, field(ctx, "groupId"), field(ctx, "role"), actor) }
  if (!asForm) return json(answer)
  const page = await pageOf(ctx, organizationId, actor.userId)
  return redirect(page ? back(page, { saved: `scim-${verb}` }) : `${ctx.baseUrl}/organization`)
}

export async function scimAdmin(ctx: RequestContext): Promise<ResponseInternal> {
  scimStorage(ctx.config)
  const verb = ctx.request.providerId
  if (verb === undefined || !VERBS.has(verb)) throw new UnknownAction(`No action at scim-admin/${verb ?? ""}`)
  const asForm = !ctx.wantsJson && !ctx.request.serverAction
  const organizationId = field(ctx, "organizationId")
  // A stale sign-in: the sign-in page, then back to the organization page's SCIM section.
  const page = asForm ? await pageOf(ctx, organizationId, undefined) : undefined
  if (page) ctx.callbackUrl = `${page}#scim`
  let userId: string | undefined
  try {
    const holder = await requireHolder(ctx, "recent", `scim-admin/${verb}`)
    userId = holder.user.id
    return await perform(ctx, verb, { userId }, asForm)
  } catch (error) {
    if (asForm && error instanceof AuthError && EXPLAINED.has(error.type) && userId !== undefined) {
      const member = await pageOf(ctx, organizationId, userId)
      if (member) {
        ctx.config.logger.debug(`scim-admin/${verb} refused: ${error.type}`)
        return redirect(back(member, { error: error.type }))
      }
    }
    throw error
  }
}
