/**
 * The `oidcProvider` option (issue #32), checked and resolved once with the configuration. Off
 * unless given; `oidcProvider: true` (or `{}`) turns it on with the defaults. A mistake throws
 * `InvalidOption` naming the option; an adapter without the storage methods throws
 * `MissingAdapterMethods` (grants, codes and clients are stored, so every process shares them).
 */
import { InvalidOption, MissingAdapter, MissingAdapterMethods } from "../errors.js"
import type { Adapter } from "../adapters.js"
import { OIDC_ADAPTER_METHODS } from "./adapter.js"
import type { OidcClientMetadata, OidcProviderOptions, ResolvedOidcProvider, ResolvedOidcResource } from "./settings.js"

export type { OidcClientMetadata, OidcProviderOptions, ResolvedOidcProvider } from "./settings.js"

const PATH = /^[a-z][a-z0-9-]{0,31}$/
const SCOPE = /^[A-Za-z0-9][A-Za-z0-9:._/-]{0,63}$/
const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/
/** The scopes every provider has. */
export const STANDARD_SCOPES = ["openid", "profile", "email", "offline_access"] as const
const DEFAULT_TTL = { accessToken: 3600, refreshToken: 14 * 86_400, idToken: 3600, authorizationCode: 60, deviceCode: 600, grant: 365 * 86_400, session: 14 * 86_400, interaction: 3600 }

function assertStorage(adapter: Adapter | undefined): void {
  if (!adapter) throw new MissingAdapter("oidcProvider needs an adapter (clients, grants, codes and tokens are stored, shared by every process)")
  const missing = [...OIDC_ADAPTER_METHODS, "getUser"].filter((method) => typeof adapter[method as keyof Adapter] !== "function")
  if (missing.length) throw new MissingAdapterMethods(`oidcProvider needs these adapter methods, which the adapter lacks: ${missing.join(", ")}`)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value)
}

function scopeList(value: unknown, name: string): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value) || value.some((scope) => typeof scope !== "string" || !SCOPE.test(scope))) {
    throw new InvalidOption(`${name} must be a list of scope names (letters, digits, : . _ / -) (got ${JSON.stringify(value)})`)
  }
  return value as string[]
}

function seconds(value: unknown, name: string, min: number): void {
  if (value !== undefined && (typeof value !== "number" || !Number.isInteger(value) || value < min)) throw new InvalidOption(`${name} must be a whole number of seconds, at least ${min} (got ${JSON.stringify(value)})`)
}

function absoluteUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === "https:" || url.protocol === "http:") && !url.hash
  } catch {
    return false
  }
}

function checkClient(client: unknown, index: number, seen: Set<string>): Readonly<OidcClientMetadata> {
  const where = `oidcProvider.clients[${index}]`
  if (!isObject(client)) throw new InvalidOption(`${where} must be client metadata such as { client_id, client_secret, redirect_uris } (got ${JSON.stringify(client)})`)
  const id = client.client_id
  if (typeof id !== "string" || !CLIENT_ID.test(id)) throw new InvalidOption(`${where}.client_id must be letters, digits and . _ : - (got ${JSON.stringify(id)})`)
  if (seen.has(id)) throw new InvalidOption(`${where}.client_id ${JSON.stringify(id)} is declared twice`)
  seen.add(id)
  const secret = client.client_secret
  const method = client.token_endpoint_auth_method ?? (secret === undefined ? "none" : "client_secret_basic")
  if (secret !== undefined && (typeof secret !== "string" || secret.length < 32)) throw new InvalidOption(`${where}.client_secret must be at least 32 characters (make one with \`openssl rand -base64 32\`)`)
  if (method !== "none" && secret === undefined && method !== "private_key_jwt") throw new InvalidOption(`${where} authenticates with ${String(method)} but has no client_secret`)
  for (const list of ["redirect_uris", "post_logout_redirect_uris"] as const) {
    const uris = client[list]
    if (uris !== undefined && (!Array.isArray(uris) || uris.some((uri) => typeof uri !== "string" || !URL.canParse(uri)))) throw new InvalidOption(`${where}.${list} must be a list of absolute URLs (got ${JSON.stringify(uris)})`)
  }
  return Object.freeze({ ...client, client_id: id, token_endpoint_auth_method: String(method) })
}

function resolveResources(value: unknown): Map<string, ResolvedOidcResource> {
  const resources = new Map<string, ResolvedOidcResource>()
  if (value === undefined) return resources
  if (!isObject(value)) throw new InvalidOption(`oidcProvider.resources must map resource URLs to { scopes } (got ${JSON.stringify(value)})`)
  for (const [indicator, given] of Object.entries(value)) {
    const where = `oidcProvider.resources[${JSON.stringify(indicator)}]`
    if (!absoluteUrl(indicator)) throw new InvalidOption(`${where}: a resource indicator must be an absolute http(s) URL without a fragment (RFC 8707)`)
    if (!isObject(given)) throw new InvalidOption(`${where} must be { scopes, audience?, accessTokenTtl? }`)
    const scopes = scopeList(given.scopes, `${where}.scopes`)
    if (given.audience !== undefined && (typeof given.audience !== "string" || !given.audience)) throw new InvalidOption(`${where}.audience must be a string`)
    seconds(given.accessTokenTtl, `${where}.accessTokenTtl`, 30)
    resources.set(indicator, Object.freeze({ indicator, scopes: Object.freeze(scopes), audience: (given.audience as string | undefined) ?? indicator, accessTokenTtl: (given.accessTokenTtl as number | undefined) ?? 3600 }))
  }
  return resources
}

const CLAIM = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/
/** Claims Gatehouse sets itself: an app's claim cannot take their place. */
const OWN_CLAIMS = new Set(["sub", "email", "email_verified", "name", "picture", "organizations", "iss", "aud", "exp", "iat", "auth_time", "nonce", "acr", "amr", "azp", "sid", "at_hash", "c_hash", "jti", "scope", "client_id"])

function resolveScopeClaims(value: unknown): Readonly<Record<string, readonly string[]>> {
  if (value === undefined) return Object.freeze({})
  if (!isObject(value)) throw new InvalidOption(`oidcProvider.scopeClaims must map scopes to claim names, such as { billing: ["plan"] } (got ${JSON.stringify(value)})`)
  const resolved: Record<string, readonly string[]> = {}
  for (const [scope, names] of Object.entries(value)) {
    if (!SCOPE.test(scope)) throw new InvalidOption(`oidcProvider.scopeClaims: ${JSON.stringify(scope)} is not a scope name`)
    if (!Array.isArray(names) || names.some((name) => typeof name !== "string" || !CLAIM.test(name) || OWN_CLAIMS.has(name))) {
      throw new InvalidOption(`oidcProvider.scopeClaims.${scope} must list claim names of your own (not ${[...OWN_CLAIMS].slice(0, 6).join(", ")}, ...)`)
    }
    resolved[scope] = Object.freeze([...names])
  }
  return Object.freeze(resolved)
}

export function resolveOidcProvider(option: unknown, adapter: Adapter | undefined, organizations: boolean): ResolvedOidcProvider | undefined {
  if (option === undefined || option === false) return undefined
  if (option !== true && !isObject(option)) throw new InvalidOption(`oidcProvider must be true or an object such as { clients: [...] } (got ${JSON.stringify(option)})`)
  const given = (option === true ? {} : option) as OidcProviderOptions
  const known = new Set(["path", "clients", "scopes", "resources", "registration", "deviceFlow", "clientCredentials", "keys", "ttl", "claims", "scopeClaims", "skipConsent", "logoutEndsSession"])
  for (const name of Object.keys(given)) if (!known.has(name)) throw new InvalidOption(`oidcProvider.${name} is not an option (options: ${[...known].join(", ")})`)
  const { path = "oidc", clients = [], deviceFlow = true, clientCredentials = true, logoutEndsSession = true, skipConsent = [] } = given
  if (typeof path !== "string" || !PATH.test(path)) throw new InvalidOption(`oidcProvider.path must be one lower-case path segment such as "oidc" (got ${JSON.stringify(path)})`)
  if (!Array.isArray(clients)) throw new InvalidOption(`oidcProvider.clients must be a list of client metadata (got ${JSON.stringify(clients)})`)
  const seen = new Set<string>()
  const checkedClients = clients.map((client, index) => checkClient(client, index, seen))
  const own = scopeList(given.scopes, "oidcProvider.scopes")
  const resources = resolveResources(given.resources)
  const scopeClaims = resolveScopeClaims(given.scopeClaims)
  const scopes = [...new Set([...STANDARD_SCOPES, ...(organizations ? ["organization"] : []), ...own, ...Object.keys(scopeClaims), ...[...resources.values()].flatMap((resource) => resource.scopes)])]
  for (const flag of ["deviceFlow", "clientCredentials", "logoutEndsSession"] as const) {
    if (typeof given[flag] !== "undefined" && typeof given[flag] !== "boolean") throw new InvalidOption(`oidcProvider.${flag} must be a boolean (got ${JSON.stringify(given[flag])})`)
  }
  const registration = given.registration ?? false
  if (typeof registration !== "boolean" && !isObject(registration)) throw new InvalidOption(`oidcProvider.registration must be a boolean or { initialAccessToken?, scopes? } (got ${JSON.stringify(registration)})`)
  const initialAccessToken = typeof registration === "object" ? registration.initialAccessToken : undefined
  if (initialAccessToken !== undefined && (typeof initialAccessToken !== "string" || initialAccessToken.length < 16)) throw new InvalidOption("oidcProvider.registration.initialAccessToken must be a string of at least 16 characters")
  const registrationScopes = typeof registration === "object" && registration.scopes !== undefined ? scopeList(registration.scopes, "oidcProvider.registration.scopes") : scopes.filter((scope) => scope !== "organization")
  for (const scope of registrationScopes) if (!scopes.includes(scope)) throw new InvalidOption(`oidcProvider.registration.scopes names ${scope}, which is not a scope of the provider`)
  if (given.keys !== undefined) {
    if (!Array.isArray(given.keys) || given.keys.length === 0 || given.keys.some((key) => !isObject(key) || (key.kty !== "RSA" && key.kty !== "EC") || typeof key.d !== "string")) {
      throw new InvalidOption("oidcProvider.keys must be a list of private JWKs (RSA or EC P-256), the first RSA key signing")
    }
    if (!given.keys.some((key) => key.kty === "RSA")) throw new InvalidOption("oidcProvider.keys needs an RSA key: RS256 is what OpenID Connect clients expect by default")
  }
  const ttl = { ...DEFAULT_TTL }
  if (given.ttl !== undefined) {
    if (!isObject(given.ttl)) throw new InvalidOption(`oidcProvider.ttl must be an object of seconds (got ${JSON.stringify(given.ttl)})`)
    for (const [name, value] of Object.entries(given.ttl)) {
      if (!(name in DEFAULT_TTL)) throw new InvalidOption(`oidcProvider.ttl.${name} is not a lifetime (lifetimes: ${Object.keys(DEFAULT_TTL).join(", ")})`)
      seconds(value, `oidcProvider.ttl.${name}`, 10)
      ttl[name as keyof typeof DEFAULT_TTL] = value as number
    }
  }
  if (given.claims !== undefined && typeof given.claims !== "function") throw new InvalidOption("oidcProvider.claims must be a function ({ user, scopes, clientId, use }) => claims")
  if (!Array.isArray(skipConsent) || skipConsent.some((id) => typeof id !== "string" || !seen.has(id))) {
    throw new InvalidOption(`oidcProvider.skipConsent must list client ids declared in oidcProvider.clients (got ${JSON.stringify(skipConsent)})`)
  }
  assertStorage(adapter)
  return Object.freeze({
    path,
    clients: Object.freeze(checkedClients),
    scopes: Object.freeze(scopes),
    resources,
    registration: Object.freeze({ enabled: registration !== false, initialAccessToken, scopes: Object.freeze(registrationScopes) }),
    deviceFlow,
    clientCredentials,
    keys: given.keys ? Object.freeze([...given.keys]) : undefined,
    ttl: Object.freeze(ttl),
    claims: given.claims,
    scopeClaims,
    skipConsent: new Set(skipConsent),
    logoutEndsSession,
  })
}
