/**
 * Every live cookie-session revocation in one Redis server, read in one go (the `listRevocations`
 * of RedisStore, plain key layout only): SCAN for the `revoked:`, `notbefore:` and `spared:` keys
 * under the prefix, then each batch's values and remaining lives in one script call. A cluster
 * spreads them over its primaries and is not listed this way (its processes ask per session).
 *
 * SCAN returns every key present for the whole scan; a key written meanwhile may be missed, which
 * is why the pub/sub feed (lib/devices/pubsub-feed.ts) starts a listing only once every message
 * since has been proven delivered: a revocation is written before it is announced.
 */
import type { RedisKeys } from "./redis-keys.js"
import type { Send } from "./redis-sessions.js"
import type { HeldRevocation } from "./revocation-set.js"

/** Keys per SCAN step and per script call. */
const BATCH = 1000

// Each key's value ("" when it is gone or not a string) and remaining life in ms (PTTL).
const VALUES = `
local out = {}
for i = 1, #KEYS do
  local value = redis.pcall('GET', KEYS[i])
  if type(value) ~= 'string' then value = '' end
  out[2 * i - 1] = value
  out[2 * i] = redis.call('PTTL', KEYS[i])
end
return out`

/** `text` matched literally by a SCAN pattern (glob characters escaped). */
const literal = (text: string) => text.replace(/[\\*?[\]^-]/g, (character) => `\\${character}`)

const KINDS = [
  ["revoked:", "session"],
  ["notbefore:", "user"],
  ["spared:", "spare"],
] as const

export function redisRevocationListing(send: Send, keys: RedisKeys): () => Promise<HeldRevocation[]> {
  const prefix = keys.plain("")
  return async () => {
    const found: HeldRevocation[] = []
    for (const [namespace, kind] of KINDS) {
      const start = prefix.length + namespace.length
      const pattern = `${literal(prefix + namespace)}*`
      let cursor = "0"
      do {
        const [next, batch] = (await send(["SCAN", cursor, "MATCH", pattern, "COUNT", String(BATCH)])) as [unknown, unknown[]]
        cursor = String(next)
        if (!batch.length) continue
        const names = batch.map(String)
        const values = (await send(["EVAL", VALUES, String(names.length), ...names], names[0])) as unknown[]
        const now = Date.now()
        names.forEach((name, i) => {
          const ttl = Number(values[2 * i + 1])
          // -2: gone since the SCAN; -1: no expiry (never written so by Gatehouse), kept as long as any.
          if (ttl === -2) return
          const expires = ttl === -1 ? Number.MAX_SAFE_INTEGER : now + ttl
          const key = name.slice(start)
          if (kind === "session") found.push({ kind, key, expires })
          else {
            const notBefore = Number(values[2 * i])
            if (Number.isFinite(notBefore) && notBefore > 0) found.push({ kind, key, notBefore, expires })
          }
        })
      } while (cursor !== "0")
    }
    return found
  }
}
