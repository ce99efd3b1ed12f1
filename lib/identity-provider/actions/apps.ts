/**
 * The signed-in user's connected apps (issue #32): `GET connected-apps` (JSON `{ apps }`, each
 * client they allowed with its scopes and APIs) and `POST connected-apps/revoke` (CSRF-protected,
 * `clientId`; needs a session): the client's grants, tokens and codes are deleted. A form goes
 * back where it came from (`callbackUrl`, else the account page) with `?saved=app-revoked` (or
 * `?error=InvalidRequest&from=connected-apps`); JSON answers `{ revoked }`, false when the user
 * had not allowed that client (nothing to revoke).
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { json, redirect } from "../../core/response.js"
import { InvalidRequest, UnknownAction } from "../../errors.js"
import { requireHolder } from "../../session/assurance.js"
import { IdentityProviderUnavailable } from "../errors.js"
import { listConnectedApps, revokeConnectedApp } from "../grants.js"
import { FROM, SAVED } from "../account-section.js"

const MAX_CLIENT_ID = 255

function available(ctx: RequestContext): void {
  if (!ctx.config.oidcProvider) throw new IdentityProviderUnavailable("The identity provider is off: set the oidcProvider option")
}

function field(ctx: RequestContext, name: string): unknown {
  const body = ctx.request.body as Record<string, unknown> | undefined
  if (!body || !Object.prototype.hasOwnProperty.call(body, name)) return undefined
  return body[name]
}

/** The page a form came from (`callbackUrl`, this site only), else the account page. */
async function backTo(ctx: RequestContext): Promise<string> {
  const back = field(ctx, "callbackUrl")
  if (typeof back === "string" && back) return resolveCallbackUrl(ctx, back)
  const custom = ctx.config.pages.account
  return custom ? new URL(custom, ctx.request.origin).href : `${ctx.baseUrl}/account`
}

function withQuery(url: string, query: Record<string, string>): string {
  return `${url}${url.includes("?") ? "&" : "?"}${new URLSearchParams(query)}`
}

export async function connectedAppsGet(ctx: RequestContext): Promise<ResponseInternal> {
  available(ctx)
  if (ctx.request.providerId !== undefined) throw new UnknownAction(`No page at connected-apps/${ctx.request.providerId}`)
  const holder = await requireHolder(ctx, "session", "Listing connected apps")
  const apps = await listConnectedApps(ctx.config, holder.user.id)
  return json({ apps }, 200, { "Cache-Control": "no-store" })
}

export async function connectedAppsPost(ctx: RequestContext): Promise<ResponseInternal> {
  available(ctx)
  const action = ctx.request.providerId ?? ""
  if (action !== "revoke") throw new UnknownAction(`No action at connected-apps/${action}`)
  const form = !ctx.wantsJson && !ctx.request.serverAction
  const back = await backTo(ctx)
  ctx.callbackUrl = back
  const holder = await requireHolder(ctx, "session", "Revoking a connected app")
  const clientId = field(ctx, "clientId")
  if (typeof clientId !== "string" || !clientId || clientId.length > MAX_CLIENT_ID) {
    const refused = new InvalidRequest("The request names no app (clientId)")
    if (form) return redirect(withQuery(back, { error: refused.type, [FROM.name]: FROM.value }))
    throw refused
  }
  const revoked = await revokeConnectedApp(ctx.config, holder.user.id, clientId, holder.user.id)
  return form ? redirect(withQuery(back, { saved: SAVED })) : json({ revoked })
}
