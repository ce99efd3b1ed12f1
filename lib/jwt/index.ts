/**
 * `gatehouse/jwt`: seal and open session tokens outside the request pipeline, and read the
 * session token of a request (`getToken`). Prefer `getSession`/`req.auth` in app code: these
 * helpers skip the `jwt` and `session` callbacks. `encode` and `decode` live in encode-decode.ts,
 * which code inside Gatehouse imports: `getToken` resolves the app's configuration, so nothing
 * inside Gatehouse imports this file (no import cycles).
 */
import { parse as parseCookies } from "cookie"
import { InvalidOption } from "../errors.js"
import type { AuthConfig, JWT, JWTDecodeParams } from "../types.js"
import { readEnv } from "../core/config/env.js"
import type { LoggerInstance } from "../core/logger.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { readChunked } from "../session/chunks.js"
import { DEFAULT_MAX_AGE } from "./codec.js"
import { decode, encode, secretList } from "./encode-decode.js"

export { DEFAULT_MAX_AGE, decode, encode }

type HeaderSource = Headers | Record<string, string | string[] | undefined>

export interface GetTokenParams<Raw extends boolean = false> {
  /** A web Request, an Express/Node request, or any object with `headers`. */
  req: { headers: HeaderSource }
  /** Default: the session cookie name for `secureCookie`. */
  cookieName?: string
  /** Read the `__Secure-` cookie. Default: true only when AUTH_URL is https. */
  secureCookie?: boolean
  /** Default: AUTH_SECRET and AUTH_SECRET_1..3. */
  secret?: string | string[]
  /** Default: the cookie name. */
  salt?: string
  /** Return the token string as found, without opening it. */
  raw?: Raw
  decode?: (params: JWTDecodeParams) => Promise<JWT | null> | JWT | null
  logger?: Pick<LoggerInstance, "debug"> | Console
  /**
   * The app's Gatehouse configuration (the object given to `authRouter`). With it, a token whose
   * session was signed out or revoked (issue #14: `revokeSession`, `revokeUserSessions`, ...)
   * reads as null, checked the way session reads check it (this process's cache, no store round
   * trip per call); its secrets are the default `secret`. Without it, the token is only decoded.
   */
  config?: AuthConfig
}

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined
  const value = (headers as Record<string, string | string[] | undefined>)[name]
  return Array.isArray(value) ? value[0] : value
}

/** The bearer token of an `Authorization` header; malformed percent-encoding reads as absent. */
function bearerToken(value: string | undefined): string | undefined {
  if (!value) return undefined
  const match = /^Bearer\s+(\S+)$/i.exec(value.trim())
  if (!match) return undefined
  try {
    return decodeURIComponent(match[1] as string)
  } catch {
    return undefined
  }
}

/** Whether the token's session was signed out or revoked (the session read's check). */
async function revoked(config: ResolvedConfig, token: JWT): Promise<boolean> {
  const { cookieSessionRevoked } = await import("../devices/check.js")
  return cookieSessionRevoked(config, token)
}

/**
 * The session token of a request: from the session cookie (chunks put back together) or from
 * `Authorization: Bearer <token>` (tried when there is no cookie or it does not open). Returns the
 * decoded payload, the raw string with `raw: true` (the cookie's when there is one), or null.
 * With `config`, a token of a session signed out or revoked is null (with `raw` too: it is opened
 * to be checked).
 */
export async function getToken(params: GetTokenParams<false>): Promise<JWT | null>
export async function getToken(params: GetTokenParams<true>): Promise<string | null>
export async function getToken(params: GetTokenParams<boolean>): Promise<JWT | string | null> {
  const env = readEnv(process.env)
  const secureCookie = params.secureCookie ?? env.url?.protocol === "https:"
  const cookieName = params.cookieName ?? (secureCookie ? "__Secure-authjs.session-token" : "authjs.session-token")
  const headers = params.req?.headers
  if (!headers) throw new InvalidOption("getToken: req must have headers")
  const cookieHeader = header(headers, "cookie")
  const fromCookie = cookieHeader ? readChunked(parseCookies(cookieHeader), cookieName) : undefined
  const fromHeader = bearerToken(header(headers, "authorization"))
  if (!fromCookie && !fromHeader) return null
  if (params.raw && !params.config) return (fromCookie || fromHeader) as string
  const resolved = params.config ? (await import("../core/config/resolve.js")).resolveConfig(params.config) : undefined
  const secret = params.secret ?? (resolved ? [...resolved.secrets] : env.secrets)
  if (!params.decode) secretList(secret, "getToken")
  const salt = params.salt ?? cookieName
  // The cookie first; a cookie that does not open (stale, from another app on the host) does not
  // hide a valid bearer token.
  for (const token of [fromCookie, fromHeader]) {
    if (!token) continue
    let decoded: JWT | null = null
    try {
      decoded = params.decode ? await params.decode({ token, secret, salt }) : await decode({ token, secret, salt })
    } catch (error) {
      params.logger?.debug?.("getToken: the token could not be decoded", { error: (error as Error).message })
    }
    if (!decoded) continue
    if (resolved && (await revoked(resolved, decoded))) return null
    return params.raw ? token : decoded
  }
  return null
}
