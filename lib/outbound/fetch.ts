/**
 * The fetch every call to an OAuth/OIDC provider goes through (openid-client's `customFetch`),
 * built once per provider record:
 *
 * - each call is bounded by the provider's `outbound` limits (options.ts);
 * - public GETs (discovery and JWKS: no credentials) go through the shared metadata cache and may
 *   follow up to 5 redirects, each target checked: never from https to http, never to a private,
 *   loopback or link-local address unless the provider's configuration names that host;
 * - everything else (token requests, userinfo with a bearer token) follows no redirect at all:
 *   openid-client refuses the 3xx, and no code, secret or token is sent anywhere else.
 *
 * A provider's own `userinfo.request` gets the `"profile"` kind: the same limits, no cache and no
 * redirects (its URLs may carry a user's token in the query).
 *
 * Every call runs on Gatehouse's transport (transport.ts: connect timeout, total timeout, body
 * cap, and for a redirect's target the address check made on the very addresses connected to),
 * including through a built-in provider's wire-format layer (over-transport.ts). Only a fetch the
 * app gave (`[customFetch]`) replaces the transport: app-fetch.ts keeps the body cap and the
 * total timeout on it, and a redirect's host name is checked before the call, not at connect time.
 */
import { lookup } from "node:dns/promises"
import { isIP } from "node:net"
import { ProviderRedirectRefused } from "../errors.js"
import { customFetch } from "../core/symbols.js"
import type { OAuthProviderConfig } from "../providers/types.js"
import { bareHost, configuredHosts, isInternalAddress } from "./address.js"
import { callWith } from "./app-fetch.js"
import { cachedGet } from "./metadata-cache.js"
import { outboundLimits } from "./options.js"
import { traceProviderFetch } from "../telemetry/outbound.js"
import { layerOf } from "./over-transport.js"
import { call, type CallOptions } from "./transport.js"

export const MAX_REDIRECTS = 5

const built = { metadata: new WeakMap<OAuthProviderConfig, typeof fetch>(), profile: new WeakMap<OAuthProviderConfig, typeof fetch>() }
/** The metadata cache is kept per network path: Gatehouse's transport, or each fetch an app gave. */
const paths = new WeakMap<typeof fetch, number>()
let pathCount = 0

function pathOf(base: typeof fetch | undefined): string {
  if (!base) return "transport"
  if (!paths.has(base)) paths.set(base, ++pathCount)
  return `fetch-${paths.get(base)}`
}

function endpointUrl(option: unknown): string | undefined {
  return typeof option === "string" ? option : (option as { url?: string } | undefined)?.url
}

function refused(from: URL, to: URL, why: string): ProviderRedirectRefused {
  return new ProviderRedirectRefused(`A redirect from ${from.origin}${from.pathname} to ${to.origin} was not followed: ${why}`)
}

export function providerFetch(provider: OAuthProviderConfig, log: (message: string) => void = () => undefined, kind: "metadata" | "profile" = "metadata"): typeof fetch {
  const existing = built[kind].get(provider)
  if (existing) return existing
  const limits = outboundLimits(provider.outbound, `providers.${provider.id}.outbound`)
  const hosts = configuredHosts([provider.issuer, provider.wellKnown, provider.jwks_endpoint, ...[provider.authorization, provider.token, provider.userinfo].map(endpointUrl)])
  const own = provider[customFetch]
  // A built-in provider's layer runs over the transport; any other `[customFetch]` is the app's network path.
  const layer = layerOf(own)
  const base = layer ? undefined : own
  const transport = (options: CallOptions): typeof fetch => {
    const direct = ((input: string | URL | Request, init: RequestInit = {}) =>
      call(new URL(input instanceof Request ? input.url : String(input)), init, limits, options)) as typeof fetch
    return layer ? layer(direct) : direct
  }
  const network = { plain: transport({}), guarded: transport({ refuseAddress: isInternalAddress }) }

  /** Throws unless `to` is a target a redirect may lead to; `guard` is true when its addresses must be checked at connect time. */
  async function check(from: URL, to: URL): Promise<boolean> {
    if (to.protocol !== "https:" && to.protocol !== "http:") throw refused(from, to, `${to.protocol} is not http(s)`)
    if (from.protocol === "https:" && to.protocol === "http:") throw refused(from, to, "it leaves https")
    const host = bareHost(to.hostname)
    if (hosts.has(host)) return false
    if (isIP(host)) {
      if (isInternalAddress(host)) throw refused(from, to, `${host} is an internal address the provider's configuration does not name`)
      return false
    }
    if (base) {
      // The app's own fetch resolves the name again: checked here, as well as a check before can.
      const addresses = await lookup(host, { all: true })
      const bad = addresses.find((entry) => isInternalAddress(entry.address))
      if (bad) throw refused(from, to, `${host} resolves to ${bad.address}, an internal address`)
    }
    return true
  }

  const hop = (url: URL, init: RequestInit, guard: boolean) =>
    base ? callWith(base, url, init, limits) : network[guard ? "guarded" : "plain"](url.href, init)

  async function follow(url: URL, init: RequestInit): Promise<Response> {
    let current = url
    let guard = false
    for (let hops = 0; ; hops++) {
      const response = await hop(current, init, guard)
      const location = response.headers.get("location")
      if (response.status < 300 || response.status > 399 || !location || hops >= MAX_REDIRECTS) return response
      const next = new URL(location, current)
      guard = await check(current, next)
      current = next
    }
  }

  const outbound = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const method = (init.method ?? "GET").toUpperCase()
    if (kind === "profile" || method !== "GET" || new Headers(init.headers).has("authorization")) return hop(url, init, false)
    return cachedGet(`${pathOf(base)} ${url.href}`, () => follow(url, init), log, outbound)
  }) as typeof fetch
  // A span and a duration per call when the provider's configuration has telemetry on (issue #20).
  const traced = traceProviderFetch(provider, kind, outbound)
  built[kind].set(provider, traced)
  return traced
}
