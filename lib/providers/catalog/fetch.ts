/**
 * Fetch helpers for catalog providers whose servers stray from RFC 6749 on the wire. The OAuth
 * flow has no hook for the token request or its answer, so such a provider installs its own
 * `[customFetch]` built here: it wraps the fetch the app gave in the provider's options (or the
 * global one, looked up on every call so test doubles keep working) and rewrites only the token
 * request, recognised as a form POST carrying `grant_type`.
 */
import { customFetch } from "../../core/symbols.js"

export type Fetch = typeof fetch

/** The fetch the app passed as the provider's `[customFetch]` option, else the global fetch. */
export function appFetch(options: { [customFetch]?: Fetch } | undefined): Fetch {
  const given = options?.[customFetch]
  return (input, init) => (given ?? globalThis.fetch)(input, init)
}

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
