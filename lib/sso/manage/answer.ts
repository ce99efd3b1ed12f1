/**
 * What the SSO management actions share (issue #28): the body's fields, the signed-in user with a
 * recent sign-in, and the answer. API calls (Accept: application/json) and the server helpers get
 * JSON, or the error's own outcome; a form goes back to the organization page's SSO section,
 * `?saved=sso-<verb>#sso`, or `?error=<Type>#sso` for a refusal the page explains. A stale sign-in
 * signs in again and comes back to that page.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { json, redirect } from "../../core/response.js"
import { AuthError } from "../../errors.js"
import { requireHolder } from "../../session/assurance.js"
import type { Actor } from "../../organizations/access.js"
import { ssoStorage } from "../access.js"

/** Refusals the organization page explains in place (anything else takes its usual outcome). */
const EXPLAINED = new Set(["InvalidSsoConnection", "DomainTaken", "DomainNotVerified", "InvalidRequest", "PermissionDenied", "SsoConnectionNotFound"])

/** A body field as sent (JSON keeps booleans, lists and objects; a form sends strings). */
export function field(ctx: RequestContext, name: string): unknown {
  const body = ctx.request.body as Record<string, unknown> | undefined
  if (!body || !Object.prototype.hasOwnProperty.call(body, name)) return undefined
  return body[name]
}

/** Every field of `names` that the body has. */
export function fields<K extends string>(ctx: RequestContext, names: readonly K[]): Partial<Record<K, unknown>> {
  const out: Partial<Record<K, unknown>> = {}
  for (const name of names) {
    const value = field(ctx, name)
    if (value !== undefined) out[name] = value
  }
  return out
}

/** The organization page of the organization the request names (directly, or through its connection), for a form's redirect. */
async function pageOf(ctx: RequestContext, organizationId: unknown, connectionId: unknown): Promise<string | undefined> {
  try {
    let id = typeof organizationId === "string" && organizationId ? organizationId : undefined
    if (!id && typeof connectionId === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(connectionId)) id = (await ssoStorage(ctx.config).getSsoConnection(connectionId))?.organizationId
    if (!id || id.length > 200) return undefined
    const organization = await ctx.config.adapter?.getOrganization?.(id)
    return organization ? `${ctx.baseUrl}/organization/${encodeURIComponent(organization.slug)}` : undefined
  } catch {
    return undefined
  }
}

/** A signed-in user may see the page only of an organization they belong to. */
async function memberOf(ctx: RequestContext, page: string, organizationId: unknown, connectionId: unknown, userId: string | undefined): Promise<string | undefined> {
  if (!userId) return undefined
  try {
    let id = typeof organizationId === "string" && organizationId ? organizationId : undefined
    if (!id && typeof connectionId === "string") id = (await ssoStorage(ctx.config).getSsoConnection(connectionId))?.organizationId
    return id && (await ctx.config.adapter?.getMember?.(id, userId)) ? page : undefined
  } catch {
    return undefined
  }
}

function withQuery(page: string, query: Record<string, string>): string {
  return `${page}?${new URLSearchParams(query)}#sso`
}

/** Runs a management action `what` (`connections/create`) as the signed-in user with a recent sign-in, and answers. */
export async function manage(ctx: RequestContext, what: string, verb: string, perform: (actor: Exclude<Actor, null>) => Promise<Record<string, unknown>>): Promise<ResponseInternal> {
  const organizationId = field(ctx, "organizationId")
  const connectionId = field(ctx, "connectionId")
  const asForm = !ctx.wantsJson && !ctx.request.serverAction
  const page = asForm ? await pageOf(ctx, organizationId, connectionId) : undefined
  // A stale sign-in: the sign-in page, then back to the organization page.
  if (page) ctx.callbackUrl = `${page}#sso`
  let userId: string | undefined
  let answer: Record<string, unknown>
  try {
    const holder = await requireHolder(ctx, "recent", `sso/${what}`)
    userId = holder.user.id
    answer = await perform({ userId })
  } catch (error) {
    const back = page && error instanceof AuthError && EXPLAINED.has(error.type) ? await memberOf(ctx, page, organizationId, connectionId, userId) : undefined
    if (back && error instanceof AuthError) {
      ctx.config.logger.debug(`sso/${what} refused: ${error.type}`)
      return redirect(withQuery(back, { error: error.type }))
    }
    throw error
  }
  if (!asForm) return json(answer)
  const organization = typeof answer.organizationId === "string" ? answer.organizationId : undefined
  const after = page ?? (organization ? await pageOf(ctx, organization, undefined) : undefined)
  return redirect(after ? withQuery(after, { saved: `sso-${verb}` }) : `${ctx.baseUrl}/account`)
}
