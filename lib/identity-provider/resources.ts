/**
 * The app's APIs as resource servers (RFC 8707) and what a client may have: an access token for a
 * configured resource is a JWT (RS256) with that resource's audience, lifetime and scopes, which
 * `requireAuth({ accessToken })` checks without a database read. A client that lists `resources`
 * gets tokens for those only. A client registering itself (dynamic registration) gets at most the
 * registration scopes, never the client credentials grant, at most 10 redirect URIs, and no
 * `resources` beyond the configured ones.
 */
import type { ResolvedOidcProvider } from "./settings.js"

interface ProviderErrorClasses {
  InvalidTarget: new (description?: string) => Error
  InvalidClientMetadata: new (description: string) => Error
}

interface ClientLike {
  resources?: unknown
}

export function resourceServer(options: ResolvedOidcProvider, indicator: string, client: ClientLike, errors: ProviderErrorClasses) {
  const resource = options.resources.get(indicator)
  if (!resource) throw new errors.InvalidTarget("the resource is not one of this provider's")
  const allowed = client.resources
  if (Array.isArray(allowed) && !allowed.includes(indicator)) throw new errors.InvalidTarget("the client may not get tokens for this resource")
  return {
    scope: resource.scopes.join(" "),
    audience: resource.audience,
    accessTokenTTL: resource.accessTokenTtl,
    accessTokenFormat: "jwt" as const,
    jwt: { sign: { alg: "RS256" } },
  }
}

const MAX_REDIRECT_URIS = 10

/**
 * oidc-provider's `extraClientMetadata.validator` for `resources`: run for every client (declared
 * or registered) once; with a request (`koa`), the client is registering or updating itself.
 */
export function checkClientMetadata(options: ResolvedOidcProvider, errors: ProviderErrorClasses, koa: unknown, key: string, value: unknown, metadata: Record<string, unknown>): void {
  if (key !== "resources") return
  if (value !== undefined && (!Array.isArray(value) || value.some((indicator) => typeof indicator !== "string" || !options.resources.has(indicator)))) {
    throw new errors.InvalidClientMetadata("resources must list resource indicators of this provider")
  }
  if (!koa) return
  const grants = metadata.grant_types
  if (Array.isArray(grants) && grants.some((grant) => grant !== "authorization_code" && grant !== "refresh_token" && grant !== "urn:ietf:params:oauth:grant-type:device_code")) {
    throw new errors.InvalidClientMetadata("a registered client may use only the authorization_code, refresh_token and device_code grants")
  }
  const uris = metadata.redirect_uris
  if (Array.isArray(uris) && uris.length > MAX_REDIRECT_URIS) throw new errors.InvalidClientMetadata(`at most ${MAX_REDIRECT_URIS} redirect_uris`)
  const allowed = options.registration.scopes
  const asked = typeof metadata.scope === "string" ? metadata.scope.split(" ").filter(Boolean) : undefined
  if (asked && asked.some((scope) => !allowed.includes(scope))) throw new errors.InvalidClientMetadata(`a registered client may have only these scopes: ${allowed.join(" ")}`)
  metadata.scope = (asked ?? allowed).join(" ")
}
