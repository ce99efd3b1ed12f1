/**
 * Providers as the rest of the code sees them: validated once, in a Map by id, OAuth providers
 * completed from the environment (AUTH_{ID}_ID, _SECRET, _ISSUER, id in upper snake case).
 * URLs are not stored here because they depend on the request's origin unless AUTH_URL fixes it.
 * What a capability reads from a provider (an email provider's `code`, an OIDC provider's
 * `federatedSignOut`) is checked by the capability, through `checkProvider` (resolve.ts).
 */
import { InvalidEndpoints, InvalidOption } from "../../errors.js"
import type { EmailProviderConfig, OAuthProviderConfig, Provider } from "../../providers/types.js"
import { sendVerificationRequest as defaultSender } from "../../providers/email/send.js"
import type { PublicProvider } from "../../types.js"
import { endpoint } from "../../providers/oauth/options.js"
import { providerEnvName, type EnvObject } from "./env.js"
import { assertProviders } from "./validate.js"
import { show } from "./show.js"

export interface ProviderTable {
  list: readonly Provider[]
  byId: ReadonlyMap<string, Provider>
}

const CHECKS = ["pkce", "state", "nonce", "none"]

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== "string") return false
  try {
    const { protocol } = new URL(value)
    return protocol === "https:" || protocol === "http:"
  } catch {
    return false
  }
}

/** The token endpoint authentication methods that send the client secret (or sign with it). */
const SECRET_METHODS = new Set(["client_secret_basic", "client_secret_post", "client_secret_jwt"])

/**
 * A provider that authenticates at its token endpoint with the client secret needs one: without
 * it every sign-in would fail at the provider's token endpoint, after the user consented. A
 * provider with no method set and no secret is a public client (PKCE, method `none`): allowed.
 */
function assertClientSecret(provider: OAuthProviderConfig, path: string): void {
  const method = provider.client?.token_endpoint_auth_method
  if (method === "private_key_jwt" && !provider.privateKey) {
    throw new InvalidOption(`${path}.privateKey is required: the provider authenticates at its token endpoint with private_key_jwt`)
  }
  if (typeof method !== "string" || !SECRET_METHODS.has(method)) return
  if (typeof provider.clientSecret === "string" && provider.clientSecret) return
  throw new InvalidOption(
    `${path}.clientSecret is required: the provider authenticates at its token endpoint with ${method}, which sends the client secret; ` +
      `set clientSecret, or ${providerEnvName(provider.id, "SECRET")} (got ${show(provider.clientSecret)}). ` +
      `A public client registered for PKCE only sets client: { token_endpoint_auth_method: "none" }.`,
  )
}

function completeOAuth(provider: OAuthProviderConfig, index: number, env: EnvObject): OAuthProviderConfig {
  const path = `providers[${index}] ("${provider.id}")`
  const filled = { ...provider }
  filled.clientId ??= env[providerEnvName(provider.id, "ID")]
  filled.clientSecret ??= env[providerEnvName(provider.id, "SECRET")]
  filled.issuer ??= env[providerEnvName(provider.id, "ISSUER")]
  if (typeof filled.clientId !== "string" || !filled.clientId) {
    throw new InvalidOption(`${path}.clientId is required: set it, or ${providerEnvName(provider.id, "ID")} (got ${show(filled.clientId)})`)
  }
  assertClientSecret(filled, path)
  for (const key of ["issuer", "wellKnown", "redirectProxyUrl"] as const) {
    if (filled[key] !== undefined && !isHttpUrl(filled[key])) throw new InvalidEndpoints(`${path}.${key} must be an http(s) URL (got ${show(filled[key])})`)
  }
  for (const key of ["authorization", "token", "userinfo"] as const) {
    const url = endpoint(filled[key]).url
    if (url !== undefined && !isHttpUrl(url)) throw new InvalidEndpoints(`${path}.${key} must be an http(s) URL or { url, params } (got ${show(url)})`)
  }
  if (!filled.issuer && !filled.wellKnown && (!endpoint(filled.authorization).url || !endpoint(filled.token).url)) {
    throw new InvalidEndpoints(`${path} needs an issuer (or wellKnown) to discover its endpoints, or explicit authorization and token URLs`)
  }
  if (filled.checks !== undefined && (!Array.isArray(filled.checks) || filled.checks.some((check) => !CHECKS.includes(check)))) {
    throw new InvalidOption(`${path}.checks must be a list of ${CHECKS.join(", ")} (got ${show(filled.checks)})`)
  }
  if (filled.profile !== undefined && typeof filled.profile !== "function") throw new InvalidOption(`${path}.profile must be a function`)
  return filled
}

function checkEmail(provider: EmailProviderConfig, index: number): EmailProviderConfig {
  const path = `providers[${index}] ("${provider.id}")`
  for (const key of ["sendVerificationRequest", "normalizeIdentifier", "generateVerificationToken"] as const) {
    if (provider[key] !== undefined && typeof provider[key] !== "function") throw new InvalidOption(`${path}.${key} must be a function (got ${show(provider[key])})`)
  }
  if (provider.maxAge !== undefined && (typeof provider.maxAge !== "number" || !Number.isFinite(provider.maxAge) || provider.maxAge <= 0)) {
    throw new InvalidOption(`${path}.maxAge must be a positive number of seconds (got ${show(provider.maxAge)})`)
  }
  if (provider.sendVerificationRequest === defaultSender && !provider.server) {
    throw new InvalidOption(`${path}.server is required to send sign-in emails: an SMTP URL or nodemailer transport options (or your own sendVerificationRequest)`)
  }
  if (typeof provider.sendVerificationRequest !== "function") throw new InvalidOption(`${path}.sendVerificationRequest is required`)
  return provider
}

/** `checkProvider`: the capabilities' checks of each provider, after its own. */
export function resolveProviders(input: unknown, env: EnvObject, checkProvider: (provider: Provider, path: string) => void): ProviderTable {
  const list = assertProviders(input).map((provider, index) => {
    const complete =
      provider.type === "oauth" || provider.type === "oidc"
        ? completeOAuth(provider, index, env)
        : provider.type === "email"
          ? checkEmail(provider, index)
          : provider
    checkProvider(complete, `providers[${index}] ("${provider.id}")`)
    return Object.freeze({ ...complete }) as Provider
  })
  return Object.freeze({ list: Object.freeze(list), byId: new Map(list.map((provider) => [provider.id, provider])) })
}

/** The client-safe record of a provider: nothing but its id, name, type and URLs. */
export function publicProvider(provider: Provider, baseUrl: string): PublicProvider {
  return {
    id: provider.id,
    name: provider.name,
    type: provider.type,
    signinUrl: `${baseUrl}/signin/${provider.id}`,
    callbackUrl: `${baseUrl}/callback/${provider.id}`,
  }
}
