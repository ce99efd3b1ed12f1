/**
 * Fetch helpers for catalog providers whose servers stray from RFC 6749 on the wire. The OAuth
 * flow has no hook for the token request or its answer, so such a provider installs its own
 * `[customFetch]` built here: a layer that rewrites only the token request (recognised as a form
 * POST carrying `grant_type`) and its answer. Over the fetch the app gave in the provider's
 * options, if any (the app's network path: lib/outbound/app-fetch.ts); otherwise the layer is
 * marked to run over Gatehouse's own transport (lib/outbound/over-transport.ts), so the provider
 * gets every outbound limit, the connect timeout and the connect-time address check included.
 */
import { customFetch } from "../../core/symbols.js"
import { layered } from "../../outbound/over-transport.js"

export type Fetch = typeof fetch

export interface TokenRewrite {
  /** Edits the form body of the token request in place. */
  body?: (body: URLSearchParams) => void
  /**
   * Rewrites the token endpoint's JSON answer: return the object to send on (with `status` to
   * change the HTTP status), or undefined to leave the answer untouched.
   */
  answer?: (json: Record<string, unknown>, status: number) => { json: Record<string, unknown>; status?: number } | undefined
}

function formBody(body: unknown): URLSearchParams | undefined {
  if (body instanceof URLSearchParams) return new URLSearchParams(body)
  if (typeof body === "string") return new URLSearchParams(body)
  return undefined
}

/** A fetch that applies `rewrite` to token requests (form POSTs with `grant_type`) and their answers. */
export function tokenFetch(underlying: Fetch, rewrite: TokenRewrite): Fetch {
  return async (input, init) => {
    const body = init?.method?.toUpperCase() === "POST" && !(input instanceof Request) ? formBody(init.body) : undefined
    if (!body || !body.has("grant_type")) return underlying(input, init)
    rewrite.body?.(body)
    const response = await underlying(input, { ...init, body })
    if (!rewrite.answer) return response
    const type = response.headers.get("content-type") ?? ""
    if (!/json/i.test(type)) return response
    let json: unknown
    try {
      json = await response.clone().json()
    } catch {
      return response
    }
    if (!json || typeof json !== "object" || Array.isArray(json)) return response
    const changed = rewrite.answer(json as Record<string, unknown>, response.status)
    if (!changed) return response
    const headers = new Headers(response.headers)
    headers.delete("content-length")
    headers.delete("content-encoding")
    headers.set("content-type", "application/json")
    return new Response(JSON.stringify(changed.json), { status: changed.status ?? response.status, headers })
  }
}

/**
 * A catalog provider's `[customFetch]`: `rewrite` over the fetch the app passed in `options`, or,
 * when it passed none, over Gatehouse's transport (the global fetch only when called directly).
 */
export function catalogFetch(options: { [customFetch]?: Fetch } | undefined, rewrite: TokenRewrite): Fetch {
  const given = options?.[customFetch]
  if (given) return tokenFetch(given, rewrite)
  return layered((base) => tokenFetch(base, rewrite), (input, init) => globalThis.fetch(input, init))
}
