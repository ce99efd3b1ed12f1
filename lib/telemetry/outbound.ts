/**
 * Calls to OAuth/OIDC providers, traced: a `gatehouse.provider.<operation>` span per call made
 * through the outbound fetch (lib/outbound/fetch.ts, which openid-client's `customFetch` and the
 * back-channel logout's JWKS use), and its duration in `gatehouse.provider.request.duration`.
 * Attributes: provider id, operation, method, host and port, the answer's status. Never the URL's
 * path or query, headers or bodies (they carry codes, tokens and client secrets).
 *
 * Which configuration a provider record belongs to is recorded when the configuration is resolved
 * (`bindProviders`); a record of a configuration with telemetry off is not traced.
 */
import type { Attributes } from "@opentelemetry/api"
import type { Provider } from "../providers/types.js"
import type { Telemetry } from "./instruments.js"
import { ATTR } from "./names.js"
import { SpanKind, traced } from "./span.js"

const owners = new WeakMap<object, Telemetry>()

export function bindProviders(providers: readonly Provider[], telemetry: Telemetry | undefined): void {
  if (!telemetry) return
  for (const provider of providers) if (provider.type === "oauth" || provider.type === "oidc") owners.set(provider, telemetry)
}

export type ProviderOperation = "discovery" | "jwks" | "token" | "userinfo" | "revocation" | "request"

/** What a call is, from its method, path and whether it carries a bearer token. */
export function providerOperation(url: URL, method: string, bearer: boolean, kind: "metadata" | "profile"): ProviderOperation {
  if (kind === "profile") return "userinfo"
  if (method === "GET") {
    if (url.pathname.includes("/.well-known/")) return "discovery"
    return bearer ? "userinfo" : "jwks"
  }
  if (method === "POST") {
    if (/revoke|revocation/i.test(url.pathname)) return "revocation"
    return bearer ? "userinfo" : "token"
  }
  return "request"
}

type Fetch = typeof fetch

/** `outbound`, traced when `provider` belongs to a configuration with telemetry on. */
export function traceProviderFetch(provider: object & { id: string }, kind: "metadata" | "profile", outbound: Fetch): Fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const telemetry = owners.get(provider)
    if (!telemetry) return outbound(input, init)
    const url = new URL(input instanceof Request ? input.url : String(input))
    const method = (init.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase()
    const operation = providerOperation(url, method, /^(bearer|dpop) /i.test(new Headers(init.headers).get("authorization") ?? ""), kind)
    const metricAttributes: Attributes = { [ATTR.providerId]: provider.id, [ATTR.providerOperation]: operation }
    const attributes: Attributes = {
      ...metricAttributes,
      [ATTR.httpMethod]: method,
      [ATTR.serverAddress]: url.hostname,
      [ATTR.serverPort]: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
    }
    return traced(
      telemetry,
      {
        name: `gatehouse.provider.${operation}`,
        kind: SpanKind.CLIENT,
        attributes,
        histogram: telemetry.providerDuration,
        metricAttributes,
        inspect: (response: Response, span) => {
          span.setAttribute(ATTR.httpStatus, response.status)
          return response.status >= 400 ? String(response.status) : undefined
        },
      },
      () => outbound(input, init),
    )
  }) as Fetch
}
