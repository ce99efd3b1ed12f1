/**
 * Helpers for providers that fetch their profile themselves (`userinfo: { request }`): the
 * userinfo URL of the provider record (the app's override included, fixed params as query
 * parameters) and a JSON GET whose failures are named errors.
 */
import { OAuthCallbackError, OAuthProfileParseError } from "../../errors.js"
import type { TokenSet } from "../../types.js"
import { endpoint } from "../oauth/options.js"
import type { OAuthProviderConfig } from "../types.js"
import type { Fetch } from "./fetch.js"

/** The provider's userinfo URL (or `fallback`) with its configured params set as query parameters. */
export function userinfoUrl(provider: OAuthProviderConfig, fallback?: string): URL {
  const { url, params } = endpoint(provider.userinfo)
  const target = url ?? fallback
  if (!target) throw new OAuthCallbackError(`Provider "${provider.id}" has no userinfo URL`)
  const result = new URL(target)
  for (const [key, value] of Object.entries(params)) result.searchParams.set(key, value)
  return result
}

/** The access token of a token set; its absence is an OAuthCallbackError. */
export function accessToken(provider: OAuthProviderConfig, tokens: TokenSet): string {
  const token = tokens.access_token
  if (typeof token !== "string" || !token) throw new OAuthCallbackError(`Provider "${provider.id}" returned no access token`)
  return token
}

export interface JsonAnswer {
  status: number
  ok: boolean
  /** The parsed JSON body, or undefined when it is not JSON. */
  json: unknown
  /** The body when it is a JSON object, else undefined. */
  body: Record<string, unknown> | undefined
}

/** GETs `url` and reads the answer as JSON. A network failure is an OAuthCallbackError. */
export async function getJson(fetchImpl: Fetch, url: URL, provider: OAuthProviderConfig, headers: Record<string, string>): Promise<JsonAnswer> {
  let response: Response
  try {
    response = await fetchImpl(url.href, { method: "GET", headers: { accept: "application/json", ...headers }, redirect: "manual" })
  } catch (error) {
    throw new OAuthCallbackError(`The profile request of provider "${provider.id}" failed`, { cause: { err: error, url: url.origin + url.pathname } })
  }
  const json: unknown = await response.json().catch(() => undefined)
  return { status: response.status, ok: response.ok, json, body: record(json) }
}

/** The body of a successful answer; a failed status is an OAuthCallbackError, a non-object body an OAuthProfileParseError. */
export function okBody(answer: JsonAnswer, provider: OAuthProviderConfig, what: string): Record<string, unknown> {
  if (!answer.ok) throw new OAuthCallbackError(`The ${what} request of provider "${provider.id}" answered ${answer.status}`)
  if (!answer.body) throw new OAuthProfileParseError(`The ${what} of provider "${provider.id}" is not a JSON object`)
  return answer.body
}

/** A plain object (not null, not an array), or undefined. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}
