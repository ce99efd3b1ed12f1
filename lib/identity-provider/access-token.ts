/**
 * Checking the access tokens the provider issued, where the app's own APIs take them
 * (`requireAuth({ accessToken })`, guard.ts) or another service does (`verifyAccessToken`): a
 * token for a configured resource is a JWT (`typ: at+jwt`, RS256) signed with the provider's
 * keys, checked without a database read: signature, issuer, expiry, audience and scopes. A checked
 * token is remembered until its expiry (at most 1000 per process), so a client repeating its
 * token costs one map read. A JWT access token is not revocable: its lifetime is the bound
 * (`resources[...].accessTokenTtl`, default one hour; revoking the grant stops its refresh).
 */
import { createLocalJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { ResolvedOidcProvider } from "./settings.js"
import { AccessTokenInvalid } from "./errors.js"
import { publicKeys, signingKeys } from "./keys.js"

/** `req.auth.accessToken`: what the token says. */
export interface AccessTokenFact {
  /** The client it was issued to. */
  clientId: string
  /** `user`: on behalf of a user (`auth.user.id` is theirs); `client`: the client itself (client credentials). */
  subject: "user" | "client"
  scopes: string[]
  /** Its audience (the resource). */
  audience: string[]
  /** Its expiry, epoch seconds. */
  expires: number
}

export interface CheckedAccessToken extends AccessTokenFact {
  /** The user's id, or the client's for `subject: "client"`. */
  sub: string
}

const keySets = new WeakMap<ResolvedOidcProvider, Promise<JWTVerifyGetKey>>()
const remembered = new WeakMap<ResolvedOidcProvider, Map<string, CheckedAccessToken>>()
const REMEMBERED = 1000
const LEEWAY = 15

function keySet(config: ResolvedConfig, options: ResolvedOidcProvider): Promise<JWTVerifyGetKey> {
  let found = keySets.get(options)
  if (!found) {
    found = signingKeys(config, options).then((keys) => createLocalJWKSet({ keys: publicKeys(keys) }))
    found.catch(() => keySets.delete(options))
    keySets.set(options, found)
  }
  return found
}

const JWT_SHAPE = /^[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}$/
const MAX_LENGTH = 8192

function stringList(value: unknown): string[] {
  if (typeof value === "string") return [value]
  return Array.isArray(value) ? value.filter((each): each is string => typeof each === "string") : []
}

/** The token checked (signature, issuer path, expiry, `typ`), or a thrown `AccessTokenInvalid`. Audience and scopes: `accepts`. */
export async function checkAccessToken(config: ResolvedConfig, token: string, now = Date.now()): Promise<CheckedAccessToken> {
  const options = config.oidcProvider
  if (!options) throw new AccessTokenInvalid("The oidcProvider option is off")
  let cache = remembered.get(options)
  const known = cache?.get(token)
  if (known) {
    if (known.expires + LEEWAY > now / 1000) return known
    cache!.delete(token)
  }
  if (token.length > MAX_LENGTH || !JWT_SHAPE.test(token)) throw new AccessTokenInvalid("The access token is not one of this provider's")
  let payload: Record<string, unknown>
  try {
    ;({ payload } = await jwtVerify(token, await keySet(config, options), { typ: "at+jwt", algorithms: ["RS256", "ES256"], clockTolerance: LEEWAY, currentDate: new Date(now) }))
  } catch (error) {
    throw new AccessTokenInvalid("The access token is expired, malformed or not one of this provider's", { cause: { err: error } })
  }
  const iss = payload.iss
  const suffix = `${config.basePath === "/" ? "" : config.basePath}/${options.path}`
  if (typeof iss !== "string" || !iss.endsWith(suffix)) throw new AccessTokenInvalid("The access token's issuer is not this provider")
  const sub = payload.sub
  const clientId = payload.client_id
  if (typeof sub !== "string" || typeof clientId !== "string" || typeof payload.exp !== "number") throw new AccessTokenInvalid("The access token lacks its subject, client or expiry")
  const checked: CheckedAccessToken = {
    sub,
    clientId,
    // oidc-provider issues client credentials tokens with the client as subject.
    subject: sub === clientId && payload.scope !== undefined && !("auth_time" in payload) && payload.acr === undefined ? "client" : "user",
    scopes: typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : [],
    audience: stringList(payload.aud),
    expires: payload.exp,
  }
  if (!cache) {
    cache = new Map()
    remembered.set(options, cache)
  }
  if (cache.size >= REMEMBERED) cache.delete(cache.keys().next().value as string)
  cache.set(token, checked)
  return checked
}

/** The token is for one of `audiences` (any, when none given) and holds every scope of `scopes`. */
export function accepts(token: AccessTokenFact, audiences: readonly string[], scopes: readonly string[]): "ok" | "audience" | "scope" {
  if (audiences.length && !token.audience.some((each) => audiences.includes(each))) return "audience"
  return scopes.every((scope) => token.scopes.includes(scope)) ? "ok" : "scope"
}
