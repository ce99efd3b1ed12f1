/**
 * Session cookies opened recently, per configuration and cookie name: the exact sealed value → its
 * claims, the plaintext they were parsed from and the secret that opened it. A hit skips the tag
 * check, the decryption and the JSON parse, never the claim checks (`exp`, `nbf`, `iat` are
 * compared with the clock on every read).
 *
 * Only values that opened are remembered, so nobody can add one without the secret. Bounded
 * (`session.cacheSize`, 10 000 by default, about 1.5 kB each: ~15 MB at most per configuration
 * and cookie name); the oldest goes first. Once full, only one value in `ADMIT_EVERY` that opened is let in: with more active
 * sessions than entries, remembering every value would replace the whole cache before any came
 * back (round robin: no hits at all) while each replacement costs an allocation that outlives the
 * young generation; letting in a few keeps the churn low, and what comes back often still gets in.
 * A sealed session cannot be revoked before `exp` anyway (its holder can always present it
 * again), so remembering one changes nothing a fresh decryption would not also say.
 *
 * The remembered claims are shared by every read of that value, so they are frozen and only ever
 * read: code that changes the claims or hands them to the app takes `ownClaims(opened)`, a fresh
 * parse, as every read used to get.
 */
import type { JWT } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { CLOCK_TOLERANCE, claimTimesValid, openToken } from "../jwt/codec.js"
import { sessionCreatedAt } from "../devices/check.js"
import { makeRoom } from "../core/bounded-map.js"

/** Once full, one opened value in this many is remembered (the oldest making room). */
export const ADMIT_EVERY = 8

export interface OpenedSession {
  /** The claims; shared by every read of this value when it came from the cache: read only. */
  readonly payload: JWT
  /** The decrypted JSON text (absent when the app's own `unseal` opened the value). */
  readonly plaintext?: string
  /** Index of the secret that opened it; above 0 means an older secret. */
  readonly secretIndex: number
  /** When the session started (ms), as `sessionCreatedAt(payload)`. */
  readonly createdAt: number
  /** `Session.expires` for `expiresSeconds`, worked out once per value (see cookie-strategy.ts). */
  expiresText?: string
  expiresSeconds?: number
}

// Keyed by config, then by cookie name (the salt), then by value: no per-read key string to build.
const caches = new WeakMap<ResolvedConfig, Map<string, Map<string, OpenedSession>>>()
/** The caches that have been full once. */
const filled = new WeakSet<Map<string, OpenedSession>>()
/** Values opened while the cache was full, counted to let one in `ADMIT_EVERY` in. */
let missesWhenFull = 0

function cacheOf(config: ResolvedConfig, salt: string): Map<string, OpenedSession> {
  let bySalt = caches.get(config)
  if (!bySalt) {
    bySalt = new Map()
    caches.set(config, bySalt)
  }
  let cache = bySalt.get(salt)
  if (!cache) {
    cache = new Map()
    bySalt.set(salt, cache)
  }
  return cache
}

/** `openToken` for session cookies, remembering what opened. `salt` is the cookie's name. */
export function openSessionValue(config: ResolvedConfig, value: string, salt: string, now: number): OpenedSession | null {
  // The salt (cookie name) picks the map: a value sealed for one name never opens as another.
  const cache = cacheOf(config, salt)
  const hit = cache.get(value)
  if (hit) {
    if (claimTimesValid(hit.payload, now, CLOCK_TOLERANCE)) return hit
    cache.delete(value)
    return null
  }
  const opened = openToken(value, config.secrets, salt, now)
  if (!opened) return null
  const entry: OpenedSession = { payload: Object.freeze(opened.payload), plaintext: opened.plaintext, secretIndex: opened.secretIndex, createdAt: sessionCreatedAt(opened.payload) }
  const max = config.session.cacheSize
  // Room is made in batches (lib/core/bounded-map.ts): a cache that has been full counts as full
  // down to the batch below its size, so the admission rule still holds between batches.
  if (cache.size >= max || (filled.has(cache) && cache.size >= max - (max >> 4))) {
    filled.add(cache)
    if (++missesWhenFull % ADMIT_EVERY !== 0) return entry
    makeRoom(cache, max)
  }
  cache.set(value, entry)
  return entry
}

/** How many opened values are remembered for this configuration and cookie name (tests, diagnostics). */
export function rememberedCount(config: ResolvedConfig, salt: string): number {
  return caches.get(config)?.get(salt)?.size ?? 0
}

/** The claims as an object of the caller's own (a fresh parse), for code that may change them or give them to the app. */
export function ownClaims(opened: Pick<OpenedSession, "payload" | "plaintext">): JWT {
  return opened.plaintext === undefined ? opened.payload : (JSON.parse(opened.plaintext) as JWT)
}
