/**
 * Building OAuth provider records: a factory's defaults merged with the app's options (endpoint
 * params are merged key by key, so `authorization: { params: { prompt: "consent" } }` keeps the
 * default scope), and reading an endpoint option as a URL plus fixed parameters.
 */
import type { EndpointOption, OAuthProviderConfig, OAuthUserConfig, ParamValue } from "../types.js"
import type { Profile } from "../../types.js"

type Endpoint = Exclude<EndpointOption, string> & Record<string, unknown>

function asEndpoint(option: unknown): Endpoint | undefined {
  if (option === undefined || option === null) return undefined
  return typeof option === "string" ? { url: option } : (option as Endpoint)
}

function mergeEndpoint(base: unknown, override: unknown): unknown {
  const a = asEndpoint(base)
  const b = asEndpoint(override)
  if (!a || !b) return b ?? a
  return { ...a, ...b, params: { ...a.params, ...b.params } }
}

/** A provider record from a factory's defaults and the app's options. */
export function oauthProvider<P extends Record<string, unknown> = Profile>(
  defaults: OAuthProviderConfig<P>,
  options: OAuthUserConfig<P> = {},
): OAuthProviderConfig<P> {
  const merged = { ...defaults, ...options } as OAuthProviderConfig<P>
  for (const key of ["authorization", "token", "userinfo"] as const) {
    const value = mergeEndpoint(defaults[key], options[key])
    if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value
  }
  if (defaults.style || options.style) merged.style = { ...defaults.style, ...options.style }
  return merged
}

/**
 * The URL and parameters of an endpoint option (either may be absent). A query in the URL becomes
 * parameters (explicit `params` win), so nothing is sent twice, unless `keepQuery` (the token
 * endpoint: its params go in the body, the URL is used as given); function values are computed
 * from `provider`, the final record.
 */
export function endpoint(option: unknown, provider?: OAuthProviderConfig, keepQuery = false): { url?: string; params: Record<string, string> } {
  const value = asEndpoint(option)
  const params: Record<string, string> = {}
  let url = value?.url
  if (!keepQuery && url?.includes("?")) {
    const parsed = new URL(url)
    parsed.searchParams.forEach((v, key) => (params[key] = v))
    parsed.search = ""
    url = parsed.href
  }
  for (const [key, raw] of Object.entries((value?.params ?? {}) as Record<string, ParamValue>)) {
    const computed = typeof raw === "function" ? (provider ? raw(provider) : undefined) : raw
    if (typeof computed === "string") params[key] = computed
  }
  return { url, params }
}
