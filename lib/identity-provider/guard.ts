/**
 * Access tokens on the app's routes (issue #32): `requireAuth(config, { accessToken: { audience,
 * scope } })` takes `Authorization: Bearer <token>` issued by the app's identity provider for
 * its APIs, beside sessions (or alone with `only: true`). A request that presents a bearer token
 * that looks like a JWT is judged by it alone. `req.auth` is then `{ user: { id }, via:
 * "accessToken", accessToken: { clientId, subject, scopes, audience, expires } }`. Refusals are
 * JSON with `WWW-Authenticate` as RFC 6750 and RFC 9728 say: 401 `AccessTokenInvalid` /
 * `AccessTokenRequired` (`error="invalid_token"`, and `resource_metadata` when the route names its
 * metadata), 403 `InsufficientScope` (`error="insufficient_scope"`).
 */
import type { Session } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { InvalidOption, type AuthError } from "../errors.js"
import { json } from "../core/response.js"
import { publicMessage } from "../core/error-messages.js"
import { writeResponse } from "../express/respond.js"
import type { GatehouseRequest, GatehouseResponse } from "../express/types.js"
import { InsufficientScope } from "../api-keys/errors.js"
import { AccessTokenInvalid } from "./errors.js"
import { accepts, checkAccessToken, type CheckedAccessToken } from "./access-token.js"

/** How a route takes access tokens. */
export interface AccessTokenRule {
  audiences: readonly string[]
  scopes: readonly string[]
  only: boolean
  /** The route's protected resource metadata URL (RFC 9728), told in `WWW-Authenticate`. */
  resourceMetadata?: string
}

/** What `requireAuth({ accessToken })` takes. */
export type AccessTokenOption = true | { audience?: string | readonly string[]; scope?: string | readonly string[]; only?: boolean; resourceMetadata?: string }

function list(value: unknown, name: string): string[] {
  const values = value === undefined ? [] : typeof value === "string" ? [value] : value
  if (!Array.isArray(values) || values.some((each) => typeof each !== "string" || !each)) throw new InvalidOption(`requireAuth: accessToken.${name} must be a string or a list of strings (got ${JSON.stringify(value)})`)
  return [...values] as string[]
}

/** Checks the option's shape once, when the middleware is made. */
export function accessTokenRule(option: unknown): AccessTokenRule | undefined {
  if (option === undefined || option === false) return undefined
  if (option !== true && (!option || typeof option !== "object" || Array.isArray(option))) throw new InvalidOption(`requireAuth: accessToken must be true or { audience, scope, only, resourceMetadata } (got ${JSON.stringify(option)})`)
  const given = option === true ? {} : (option as Exclude<AccessTokenOption, true>)
  if (given.only !== undefined && typeof given.only !== "boolean") throw new InvalidOption("requireAuth: accessToken.only must be a boolean")
  if (given.resourceMetadata !== undefined && (typeof given.resourceMetadata !== "string" || !URL.canParse(given.resourceMetadata))) throw new InvalidOption("requireAuth: accessToken.resourceMetadata must be an absolute URL")
  return { audiences: list(given.audience, "audience"), scopes: list(given.scope, "scope"), only: given.only ?? false, ...(given.resourceMetadata && { resourceMetadata: given.resourceMetadata }) }
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i

/** The JWT-shaped bearer token the request presents (an API key or anything else: undefined). */
export function requestAccessToken(req: GatehouseRequest): string | undefined {
  const header = req.headers.authorization
  if (typeof header !== "string") return undefined
  const token = BEARER.exec(header)?.[1]
  return token && token.split(".").length === 3 ? token : undefined
}

/** The request carries `Authorization: Bearer ...` of any kind. */
export function presentsBearer(req: GatehouseRequest): boolean {
  const header = req.headers.authorization
  return typeof header === "string" && /^Bearer\b/i.test(header)
}

/** `WWW-Authenticate` for a refusal (RFC 6750 section 3, RFC 9728 section 5.1). */
function challenge(rule: AccessTokenRule, error?: "invalid_token" | "insufficient_scope", scopes?: readonly string[]): string {
  const parts = ['Bearer realm="api"']
  if (error) parts.push(`error="${error}"`)
  if (error === "insufficient_scope" && scopes?.length) parts.push(`scope="${scopes.join(" ")}"`)
  if (rule.resourceMetadata) parts.push(`resource_metadata="${rule.resourceMetadata}"`)
  return parts.join(", ")
}

export function refuseToken(res: GatehouseResponse, rule: AccessTokenRule, error: AuthError | "missing"): false {
  const type = error === "missing" ? "AccessTokenRequired" : (error.constructor as unknown as { type: string }).type
  const status = type === "InsufficientScope" ? 403 : 401
  const code = error === "missing" ? undefined : status === 403 ? "insufficient_scope" : "invalid_token"
  writeResponse(res, json({ error: { type, message: publicMessage(type) } }, status, { "WWW-Authenticate": challenge(rule, code, rule.scopes), "Cache-Control": "no-store" }))
  return false
}

/** The token checked against the route's rule: the token, or false (refused and answered). */
export async function tokenCaller(res: GatehouseResponse, config: ResolvedConfig, rule: AccessTokenRule, token: string): Promise<CheckedAccessToken | false> {
  let checked: CheckedAccessToken
  try {
    checked = await checkAccessToken(config, token)
  } catch (error) {
    if (error instanceof AccessTokenInvalid) return refuseToken(res, rule, error)
    throw error
  }
  const verdict = accepts(checked, rule.audiences, rule.scopes)
  if (verdict === "audience") return refuseToken(res, rule, new AccessTokenInvalid("The access token is for another audience"))
  if (verdict === "scope") return refuseToken(res, rule, new InsufficientScope(`The route needs the scope ${rule.scopes.join(" and ")}`))
  return checked
}

/** `req.auth` for a token: made per request (the app may change it). */
export function tokenSession(token: CheckedAccessToken): Session {
  return {
    user: { id: token.sub },
    expires: new Date(token.expires * 1000).toISOString(),
    via: "accessToken",
    accessToken: { clientId: token.clientId, subject: token.subject, scopes: [...token.scopes], audience: [...token.audience], expires: token.expires },
  }
}
