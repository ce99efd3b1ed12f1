/**
 * `POST sso` (issue #28): "Sign in with SSO". The person types their work address (routed by its
 * domain, only when an organization verified it) or their organization's slug; the organization's
 * first enabled connection starts the sign-in at its identity provider (SAML AuthnRequest, or an
 * OIDC authorization request). Nothing tells an address with no SSO apart from a mistyped one:
 * both are `SsoNotConfigured`.
 */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { resolveCallbackUrl } from "../core/callback-url.js"
import { bodyString } from "../core/request.js"
import { json, redirect } from "../core/response.js"
import type { AdapterSsoConnection } from "./adapter.js"
import { ssoStorage } from "./access.js"
import { domainOf } from "./domains-shared.js"
import { SsoNotConfigured } from "./errors.js"
import { saveRelay } from "./relay.js"

/** The organization the identifier names, if it has SSO: by a verified domain, or by slug. */
async function organizationFor(ctx: RequestContext, identifier: string): Promise<string | undefined> {
  const storage = ssoStorage(ctx.config)
  if (identifier.includes("@")) {
    const domain = domainOf(identifier)
    return domain ? (await storage.getVerifiedDomain(domain))?.organizationId : undefined
  }
  const slug = identifier.trim().toLowerCase()
  if (!/^[a-z0-9-]{1,48}$/.test(slug)) return undefined
  return (await ctx.config.adapter?.getOrganizationBySlug?.(slug))?.id
}

/** The organization's connection that signs people in: its oldest enabled one. */
export async function connectionFor(ctx: RequestContext, organizationId: string): Promise<AdapterSsoConnection | undefined> {
  return (await ssoStorage(ctx.config).listSsoConnections(organizationId)).find((connection) => connection.enabled)
}

/** The identity provider's URL that starts a sign-in through `connection`, coming back to `callbackUrl`. */
export async function startUrl(ctx: RequestContext, connection: AdapterSsoConnection, callbackUrl: string): Promise<string> {
  if (connection.type === "saml") {
    const relay = await saveRelay(ctx.config, { connectionId: connection.id, callbackUrl })
    return (await import("./saml/start.js")).startSaml(ctx, connection, relay)
  }
  return (await import("./oidc/start.js")).startOidc(ctx, connection, callbackUrl)
}

export async function startSso(ctx: RequestContext): Promise<ResponseInternal> {
  const identifier = (bodyString(ctx.request, "identifier") ?? bodyString(ctx.request, "email") ?? bodyString(ctx.request, "organization") ?? "").trim()
  ctx.callbackUrl = await resolveCallbackUrl(ctx, bodyString(ctx.request, "callbackUrl"))
  const organizationId = identifier && identifier.length <= 320 ? await organizationFor(ctx, identifier) : undefined
  const connection = organizationId ? await connectionFor(ctx, organizationId) : undefined
  if (!connection) throw new SsoNotConfigured("No organization with single sign-on matches what was typed")
  const url = await startUrl(ctx, connection, ctx.callbackUrl)
  return ctx.wantsJson ? json({ url }) : redirect(url)
}
