/**
 * Session token sealing and opening, synchronous and allocation-light, for the per-request path.
 * The public async `encode`/`decode` in `./index.ts` are thin wrappers over these.
 */
import { randomUUID } from "node:crypto"
import type { JWT } from "../types.js"
import { deriveKey } from "./keys.js"
import { open, parse, seal } from "./jwe.js"

/** Default token lifetime: 30 days, in seconds. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60
/** Seconds of clock skew allowed on `exp`, `nbf` and `iat` (the same as Auth.js). */
export const CLOCK_TOLERANCE = 15
/** Reassembled tokens longer than this are refused without parsing (ten full cookie chunks). */
export const MAX_TOKEN_LENGTH = 40_000

export const nowSeconds = () => Math.floor(Date.now() / 1000)

/**
 * Seals `token` with `secret`, setting `iat` and `exp` (now + maxAge) and keeping the token's
 * `jti` if it has one (a fresh random one otherwise), so a session keeps its id across refreshes.
 * A session token with a session id (`sid`, which identifies it for listing and revoking) gets no
 * `jti` besides: the cookie has no bytes to spare.
 */
export function sealToken(token: JWT, secret: string, salt: string, maxAge: number, now = nowSeconds()): string {
  const id = typeof token.jti === "string" ? { jti: token.jti } : typeof token.sid === "string" ? {} : { jti: randomUUID() }
  const payload = { ...token, iat: now, exp: now + maxAge, ...id }
  return seal(JSON.stringify(payload), deriveKey("A256CBC-HS512", secret, salt))
}

export interface OpenedToken {
  payload: JWT
  /** The decrypted JSON text, to notice later whether a callback changed the payload. */
  plaintext: string
  /** Index of the secret that opened it; above 0 means an older secret (rotate on next write). */
  secretIndex: number
}

/**
 * Opens a token with the first secret that fits; null for anything invalid or expired.
 * `expTolerance` is the skew allowed past `exp` (sessions: 15 s; short flow cookies, whose
 * lifetime is the point: 0). `iat`/`nbf` always get 15 s, for servers whose clocks differ a little.
 */
export function openToken(token: string, secrets: readonly string[], salt: string, now = nowSeconds(), expTolerance = CLOCK_TOLERANCE): OpenedToken | null {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null
  const jwe = parse(token)
  if (!jwe) return null
  for (let i = 0; i < secrets.length; i++) {
    const derived = deriveKey(jwe.header.enc, secrets[i] as string, salt)
    // A kid that names another key means this secret cannot open it; skip the work.
    if (jwe.header.kid !== undefined && jwe.header.kid !== derived.kid) continue
    const plaintext = open(jwe, derived.key)
    if (plaintext === null) continue
    const payload = parsePayload(plaintext, now, expTolerance)
    return payload ? { payload, plaintext, secretIndex: i } : null
  }
  return null
}

/**
 * The claims must be a JSON object whose `exp` is a finite number in the future (with the clock
 * tolerance). `nbf` and `iat`, when present, must be numbers and not in the future.
 */
export function parsePayload(plaintext: string, now: number, expTolerance: number): JWT | null {
  let payload: unknown
  try {
    payload = JSON.parse(plaintext)
  } catch {
    return null
  }
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return null
  const { exp, nbf, iat } = payload as Record<string, unknown>
  if (typeof exp !== "number" || !Number.isFinite(exp)) return null
  if (nbf !== undefined && (typeof nbf !== "number" || !Number.isFinite(nbf))) return null
  if (iat !== undefined && (typeof iat !== "number" || !Number.isFinite(iat))) return null
  return claimTimesValid(payload as JWT, now, expTolerance) ? (payload as JWT) : null
}

/** The time checks of `parsePayload` alone, for claims already parsed (whose types it checked). */
export function claimTimesValid(payload: JWT, now: number, expTolerance: number): boolean {
  const { exp, nbf, iat } = payload as { exp: number; nbf?: number; iat?: number }
  if (exp <= now - expTolerance) return false
  if (nbf !== undefined && nbf > now + CLOCK_TOLERANCE) return false
  return iat === undefined || iat <= now + CLOCK_TOLERANCE
}
