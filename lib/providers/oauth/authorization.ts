/**
 * Starting an OAuth/OIDC sign-in: the authorization URL and the check cookies.
 *
 * Parameters come from, in order: the provider's `authorization.params` (configuration), the
 * server-side `signIn(…, authorizationParams)`, and the sign-in POST (its `authorizationParams`
 * field or its URL query). The flow's own parameters (client_id, redirect_uri, response_type,
 * state, nonce, PKCE) are never taken from any of them, and a request cannot change the scope.
 */
import * as client from "openid-client"
import type { RequestContext } from "../../core/context.js"
import { nowSeconds, openToken, sealToken } from "../../jwt/codec.js"
import { randomHex } from "../../crypto/random.js"
import type { Cookie } from "../../types.js"
import type { OAuthProviderConfig } from "../types.js"
import { checksOf, issueChecks } from "./checks.js"
import { oauthConfiguration } from "./client.js"
import { endpoint } from "./options.js"

/** Set by the flow itself; never from options or requests (`response_mode` only from the provider's own config). */
const FLOW_PARAMS = new Set([
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "request",
  "request_uri",
])
/** A browser's request may add parameters such as `prompt` or `login_hint`, but not widen the scope. */
const NOT_FROM_REQUESTS = new Set([...FLOW_PARAMS, "response_mode", "scope", "client_secret", "callbackUrl", "csrfToken", "redirectTo"])

/** Salt of the sealed `state` used behind a redirect proxy (it carries where to return). */
const PROXY_STATE_SALT = "gatehouse.redirect-proxy-state"

export function redirectProxyUrl(ctx: RequestContext, provider: OAuthProviderConfig): string | undefined {
  return provider.redirectProxyUrl ?? ctx.config.redirectProxyUrl
}

/** The `redirect_uri`: this site's callback, or the redirect proxy's. */
export function redirectUri(ctx: RequestContext, provider: OAuthProviderConfig): string {
  const proxy = redirectProxyUrl(ctx, provider)
  return `${proxy ? proxy.replace(/\/+$/, "") : ctx.baseUrl}/callback/${provider.id}`
}

function pick(source: Iterable<[string, string]>, refused: Set<string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of source) if (!refused.has(key) && typeof value === "string") out[key] = value
  return out
}

/**
 * Parameters from the request: the app's own `signIn()` may replace the provider's configured
 * ones (except the flow's); a browser's request may only add parameters the provider does not set.
 */
function requestParams(ctx: RequestContext, configured: Record<string, string>): Record<string, string> {
  const field = ctx.request.body?.authorizationParams
  const fromBody = typeof field === "string" ? new URLSearchParams(field) : new URLSearchParams()
  const trusted = ctx.request.serverAction === true && ctx.request.trustedParams === true
  if (trusted) return pick(fromBody, new Set([...FLOW_PARAMS, "response_mode"]))
  return pick([...ctx.request.query, ...fromBody], new Set([...NOT_FROM_REQUESTS, ...Object.keys(configured)]))
}

/** Behind a redirect proxy, `state` is sealed and names this deployment's callback URL. */
function proxyState(ctx: RequestContext, provider: OAuthProviderConfig): string {
  const payload = { callback: `${ctx.baseUrl}/callback/${provider.id}`, random: randomHex(16) }
  return sealToken(payload, ctx.config.secrets[0] as string, PROXY_STATE_SALT, ctx.cookies.state.options.maxAge ?? 900)
}

/** The deployment a proxied callback belongs to, when it is not this one. */
export function proxiedCallback(ctx: RequestContext, provider: OAuthProviderConfig, state: string | undefined): string | undefined {
  if (!state || !redirectProxyUrl(ctx, provider)) return undefined
  const callback = openToken(state, ctx.config.secrets, PROXY_STATE_SALT, nowSeconds(), 0)?.payload.callback
  if (typeof callback !== "string" || callback === `${ctx.baseUrl}/callback/${provider.id}`) return undefined
  return callback
}

export interface AuthorizationStart {
  url: string
  cookies: Cookie[]
  /** The provider answers with a cross-site POST (response_mode=form_post). */
  formPost: boolean
}

/** `startedBy`: the stored user whose session starts this sign-in, if any (see checks.ts). */
export async function startAuthorization(ctx: RequestContext, provider: OAuthProviderConfig, startedBy?: string): Promise<AuthorizationStart> {
  const config = await oauthConfiguration(provider, (message) => ctx.config.logger.debug(message))
  const viaProxy = Boolean(redirectProxyUrl(ctx, provider))
  const checks = await issueChecks(ctx, provider, checksOf(provider, viaProxy), viaProxy ? proxyState(ctx, provider) : undefined, startedBy)
  const configured = endpoint(provider.authorization, provider).params
  const params: Record<string, string> = {
    ...pick(Object.entries(configured), new Set([...FLOW_PARAMS, "response_mode"])),
    // The provider's config may ask for form_post (Apple); nothing else (a fragment would lose the code).
    ...(configured.response_mode === "form_post" ? { response_mode: "form_post" } : {}),
    ...requestParams(ctx, configured),
    ...checks.params,
    redirect_uri: redirectUri(ctx, provider),
    response_type: "code",
  }
  params.scope ??= configured.scope ?? (provider.type === "oidc" ? "openid profile email" : "")
  if (!params.scope) delete params.scope
  return { url: client.buildAuthorizationUrl(config, params).href, cookies: checks.cookies, formPost: params.response_mode === "form_post" }
}
