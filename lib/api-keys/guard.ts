/**
 * API keys on the app's routes (issue #31): `requireAuth(config, { apiKey: true })` takes a key
 * in `Authorization: Bearer <key>` (or the configured header) on the same routes as sessions, and
 * `{ apiKey: "only" }` takes nothing else. A request that presents a key is judged by the key
 * alone (never by a cookie beside it): a bad key is refused, not read as signed out. `req.auth`
 * is then `{ user, via: "apiKey", apiKey: { id, name, owner, userId, organizationId, scopes,
 * expires }, organization }` (an organization's key acts in its organization with its scopes as
 * permissions, so `{ permission }` rules work). `{ scope }` needs every listed scope of a key.
 * Each key is rate limited (`apiKeys.rateLimit`, the shared store) with `RateLimit-*` headers.
 * Refusals are JSON: 401 `ApiKeyInvalid`/`ApiKeyExpired`/`ApiKeyRequired` (with
 * `WWW-Authenticate: Bearer`), 403 `InsufficientScope`/`UserBanned`, 429 `RateLimited`.
 */
import type { ServerResponse } from "node:http"
import type { Session } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { AuthError, InvalidOption, RateLimited } from "../errors.js"
import { audit } from "../audit/emit.js"
import { json } from "../core/response.js"
import { publicMessage } from "../core/error-messages.js"
import { writeResponse } from "../express/respond.js"
import type { GatehouseRequest } from "../express/types.js"
import type { ApiKeyCaller, ApiKeyFact } from "./caller.js"
import { presentedKey, verifyApiKey } from "./verify.js"
import type { ResolvedApiKeys } from "./settings.js"

/** How a route takes keys: alongside sessions, or only keys. */
export type ApiKeyRule = { mode: true | "only"; scopes: readonly string[] }

/** Far in the future: `expires` of a key that has none. */
const NEVER = "9999-12-31T23:59:59.999Z"

/** Checks the options' shape once, when the middleware is made. */
export function apiKeyRule(apiKey: unknown, scope: unknown): ApiKeyRule | undefined {
  if (apiKey === undefined || apiKey === false) {
    if (scope !== undefined) throw new InvalidOption("requireAuth: scope needs apiKey: true (scopes are API keys')")
    return undefined
  }
  if (apiKey !== true && apiKey !== "only") throw new InvalidOption(`requireAuth: apiKey must be true or "only" (got ${JSON.stringify(apiKey)})`)
  const scopes = scope === undefined ? [] : typeof scope === "string" ? [scope] : scope
  if (!Array.isArray(scopes) || scopes.some((each) => typeof each !== "string" || !each)) throw new InvalidOption(`requireAuth: scope must be a scope name or a list of them (got ${JSON.stringify(scope)})`)
  return { mode: apiKey, scopes: [...scopes] }
}

export function keySettings(config: ResolvedConfig): ResolvedApiKeys {
  const settings = config.apiKeys
  if (!settings) throw new InvalidOption("requireAuth: apiKey needs the apiKeys option")
  return settings
}

function headerOf(req: GatehouseRequest): (name: string) => string | undefined {
  return (name) => {
    const value = req.headers[name]
    return Array.isArray(value) ? value[0] : value
  }
}

/** The key the request presents (undefined: none). */
export function requestKey(req: GatehouseRequest, settings: ResolvedApiKeys): string | undefined {
  return presentedKey(settings, headerOf(req))
}

function factOf(caller: ApiKeyCaller): ApiKeyFact {
  const { key } = caller
  return { id: key.id, name: key.name, owner: key.organizationId === null ? "user" : "organization", userId: key.userId, organizationId: key.organizationId, scopes: [...key.scopes], expires: key.expires?.toISOString() ?? null }
}

/** `req.auth` for a key: made per request (the app may change it), from the cached caller. */
export function keySession(caller: ApiKeyCaller): Session {
  const { user, organization, key } = caller
  const session: Session = {
    user: user ? { name: user.name, email: user.email, image: user.image } : { name: organization?.name ?? null },
    expires: key.expires?.toISOString() ?? NEVER,
    via: "apiKey",
    apiKey: factOf(caller),
  }
  if (organization) session.organization = { id: organization.id, slug: organization.slug, role: "apiKey", permissions: [...key.scopes] }
  else if (caller.key.userId !== null) session.organization = null
  return session
}

const BEARER = (error: string, extra = "") => ({ "WWW-Authenticate": `Bearer error="${error}"${extra}`, "Cache-Control": "no-store" })

/** A key refused: the named error as JSON (never a page: an API client sent it). */
export function refuseKey(res: ServerResponse, error: unknown): false {
  const type = error instanceof AuthError ? error.type : "ApiKeyInvalid"
  const status = type === "InsufficientScope" || type === "UserBanned" ? 403 : type === "RateLimited" ? 429 : 401
  // RFC 6750 §3.1: no error code when the request carried no credentials.
  const headers = type === "InsufficientScope" ? BEARER("insufficient_scope") : type === "ApiKeyRequired" ? { "WWW-Authenticate": "Bearer", "Cache-Control": "no-store" } : status === 401 ? BEARER("invalid_token") : { "Cache-Control": "no-store" }
  const sent: Record<string, string> = { ...headers }
  if (error instanceof RateLimited) sent["Retry-After"] = String(error.retryAfter)
  writeResponse(res, json({ error: { type, message: publicMessage(type) } }, status, sent))
  return false
}

/** The key's caller, or the refusal sent. */
export function callerOf(res: ServerResponse, config: ResolvedConfig, settings: ResolvedApiKeys, presented: string): ApiKeyCaller | false | Promise<ApiKeyCaller | false> {
  let verified: ApiKeyCaller | Promise<ApiKeyCaller>
  try {
    verified = verifyApiKey(config, settings, presented)
  } catch (error) {
    return refuseKey(res, error)
  }
  if (!(verified instanceof Promise)) return verified
  return verified.then(
    (caller) => caller,
    (error: unknown) => {
      if (!(error instanceof AuthError)) throw error
      return refuseKey(res, error)
    },
  )
}

/** The scopes the route needs, all held by the key. */
export function holdsScopes(caller: ApiKeyCaller, rule: ApiKeyRule): boolean {
  for (const scope of rule.scopes) if (!caller.scopes.has(scope)) return false
  return true
}

/** Counts the request against the key's limit; sets `RateLimit-*`; false (429 sent) when over. */
export function withinLimit(res: ServerResponse, config: ResolvedConfig, settings: ResolvedApiKeys, caller: ApiKeyCaller): boolean | Promise<boolean> {
  const limit = settings.rateLimit
  if (!limit) return true
  return config.store.hit(`rl:apikey:${caller.key.id}`, limit.window).then(({ count, resetAt }) => {
    const reset = Math.max(0, Math.ceil((resetAt - Date.now()) / 1000))
    if (!res.headersSent) {
      res.setHeader("RateLimit-Limit", String(limit.limit))
      res.setHeader("RateLimit-Remaining", String(Math.max(0, limit.limit - count)))
      res.setHeader("RateLimit-Reset", String(reset))
    }
    if (count <= limit.limit) return true
    audit(config, { type: "rate_limited", outcome: "failure", reason: "RateLimited", limit: "apiKey", keyId: caller.key.id })
    return refuseKey(res, new RateLimited(`More than ${limit.limit} requests in ${limit.window} s with this API key`, { retryAfter: reset }))
  })
}
