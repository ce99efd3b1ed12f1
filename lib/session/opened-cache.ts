/**
 * Session cookies opened recently, per configuration: the exact sealed value → the plaintext it
 * decrypted to and the secret that opened it. A hit skips the tag check and the decryption, never
 * the claim checks (`exp`, `nbf`, `iat` run on every read, on a fresh parse of the plaintext).
 *
 * Only values that opened are remembered, so nobody can add one without the secret. Bounded; the
 * oldest goes first. A sealed session cannot be revoked before `exp` anyway (its holder can always
 * present it again), so remembering one changes nothing a fresh decryption would not also say.
 */
import type { JWT } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolve.js"
import { CLOCK_TOLERANCE, openToken, parsePayload, type OpenedToken } from "../jwt/codec.js"

const MAX_ENTRIES = 1000

interface Entry {
  plaintext: string
  secretIndex: number
}

const caches = new WeakMap<ResolvedConfig, Map<string, Entry>>()

function cacheOf(config: ResolvedConfig): Map<string, Entry> {
  let cache = caches.get(config)
  if (!cache) {
    cache = new Map()
    caches.set(config, cache)
  }
  return cache
}

/** `openToken` for session cookies, remembering what opened. `salt` is the cookie's name. */
export function openSessionValue(config: ResolvedConfig, value: string, salt: string, now: number): OpenedToken | null {
  const cache = cacheOf(config)
  // The salt (cookie name) is part of the key: a value sealed for one name never opens as another.
  const key = `${salt}\n${value}`
  const hit = cache.get(key)
  if (hit) {
    const payload = parsePayload(hit.plaintext, now, CLOCK_TOLERANCE)
    if (payload) return { payload: payload as JWT, plaintext: hit.plaintext, secretIndex: hit.secretIndex }
    cache.delete(key)
    return null
  }
  const opened = openToken(value, config.secrets, salt, now)
  if (opened) {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string)
    cache.set(key, { plaintext: opened.plaintext, secretIndex: opened.secretIndex })
  }
  return opened
}
