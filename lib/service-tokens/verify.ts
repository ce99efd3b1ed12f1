/**
 * `verifyServiceToken` (issue #31), for the services that receive service tokens: checks the
 * signature against the app's JWKS (its URL, fetched and cached by jose, or the keys themselves),
 * the algorithm (ES256 or EdDSA only: never `none`, never HMAC with a public key), the audience,
 * the issuer when given, and the times. Any failure is `ServiceTokenInvalid`, its cause saying
 * why (jose's error and code). This file loads jose and nothing of Gatehouse but the error classes,
 * so `gatehouse/service-tokens` suits a service that does not run Gatehouse.
 */
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify } from "jose"
import type { Jwk as JWK, JwkSet as JSONWebKeySet, JwtClaims as JWTPayload } from "./jwk.js"
import { InvalidOption } from "../core/named-errors.js"
import { ServiceTokenInvalid } from "./errors.js"

/** What a service token carries (docs/service-tokens.md, "Claims"). */
export interface ServiceTokenPayload extends JWTPayload {
  iss: string
  /** The user's id, or `org:<organization id>` for an organization's API key. */
  sub: string
  aud: string
  iat: number
  exp: number
  jti: string
  /** Space-separated scopes; absent when none were asked for. */
  scope?: string
  /** The organization the caller acts for. */
  org?: string
  /** How the caller proved itself to Gatehouse. */
  via: "session" | "apiKey"
  /** The admin behind an impersonated session (RFC 8693). */
  act?: { sub: string }
}

interface VerifyOptionsBase {
  /** The audience this service accepts (`serviceTokens.audiences`); a list accepts any of them. */
  audience: string | string[]
  /** The issuer to require (`serviceTokens.issuer`, by default the auth router's base URL). */
  issuer?: string | string[]
  /** Seconds of clock difference allowed on `exp` and `iat` (default 15). */
  clockTolerance?: number
  /** The time to check against (default: now). */
  currentDate?: Date
}

export type VerifyServiceTokenOptions = VerifyOptionsBase &
  (
    | { /** The app's `<base>/jwks`: fetched on first use, cached, fetched again for a key it has not seen (at most every 30 s). */ jwksUrl: string | URL; keys?: never }
    | { /** The public keys (a JWKS or its `keys`), for a service given them rather than the URL. */ keys: JSONWebKeySet | JWK[]; jwksUrl?: never }
  )

const ALGORITHMS = ["ES256", "EdDSA"]
/** The longest `serviceTokens.maxAge`: a token claiming a longer life was not made by Gatehouse. */
const MAX_TOKEN_AGE = 3600
const CLOCK_TOLERANCE = 15

/** Where jwtVerify finds the key: the app's JWKS by URL, or given. */
type KeySource = ReturnType<typeof createLocalJWKSet> | ReturnType<typeof createRemoteJWKSet>

/** One remote set per URL, so its cache is shared by every call (a service verifies against few URLs). */
const remote = new Map<string, KeySource>()
const MAX_REMOTE = 64
const local = new WeakMap<object, KeySource>()

function remoteSet(url: string | URL): KeySource {
  const parsed = new URL(url)
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new InvalidOption(`verifyServiceToken: jwksUrl must be an http(s) URL (got ${parsed.protocol})`)
  let found = remote.get(parsed.href)
  if (!found) {
    if (remote.size >= MAX_REMOTE) remote.delete(remote.keys().next().value as string)
    found = createRemoteJWKSet(parsed)
    remote.set(parsed.href, found)
  }
  return found
}

function localSet(keys: JSONWebKeySet | JWK[]): KeySource {
  let found = local.get(keys)
  if (!found) {
    found = createLocalJWKSet(Array.isArray(keys) ? { keys } : keys)
    local.set(keys, found)
  }
  return found
}

function keySource(options: VerifyServiceTokenOptions): KeySource {
  if (options.jwksUrl !== undefined && options.keys !== undefined) throw new InvalidOption("verifyServiceToken: give jwksUrl or keys, not both")
  if (options.jwksUrl !== undefined) return remoteSet(options.jwksUrl)
  const { keys } = options
  if (keys && typeof keys === "object" && (Array.isArray(keys) || Array.isArray(keys.keys))) return localSet(keys)
  throw new InvalidOption("verifyServiceToken needs jwksUrl (the app's <base>/jwks) or keys (its public JWKs)")
}

/** The payload of a valid service token for `audience`; `ServiceTokenInvalid` otherwise. */
export async function verifyServiceToken(token: string, options: VerifyServiceTokenOptions): Promise<ServiceTokenPayload> {
  const { audience, issuer, clockTolerance = CLOCK_TOLERANCE, currentDate } = options ?? {}
  const audienceValid = typeof audience === "string" ? audience.length > 0 : Array.isArray(audience) && audience.length > 0 && audience.every((value) => typeof value === "string" && value)
  if (!audienceValid) throw new InvalidOption("verifyServiceToken needs the audience this service accepts")
  const keys = keySource(options)
  if (typeof token !== "string" || !token) throw new ServiceTokenInvalid("No service token was given")
  try {
    const { payload } = await jwtVerify(token, keys, {
      algorithms: ALGORITHMS,
      audience,
      ...(issuer !== undefined && { issuer }),
      clockTolerance,
      ...(currentDate && { currentDate }),
      maxTokenAge: MAX_TOKEN_AGE + clockTolerance,
      requiredClaims: ["sub", "exp", "iat", "jti"],
    })
    return payload as ServiceTokenPayload
  } catch (error) {
    const code = (error as { code?: unknown }).code
    throw new ServiceTokenInvalid(`The service token was refused${typeof code === "string" ? ` (${code})` : ""}`, { cause: { err: error, ...(typeof code === "string" && { code }) } })
  }
}
