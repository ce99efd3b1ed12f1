/**
 * RedisStore's revocable-session methods. Keys (after the store's prefix):
 *   sessions:<userId>   hash sid -> JSON record, expiring with the user's longest session
 *   revoked:<sid>       "1" until the session would have expired
 *   notbefore:<userId>  epoch ms; sessions created earlier are revoked
 *   spared:<sid>        epoch ms: the "not before" this session is spared from ("sign out
 *                       everywhere else" asked by it); written in the same script, first
 * Revocations are also published on `<prefix>revocations`, for the processes' caches.
 */
import type { RevocationState, SessionStateStore, StoredSession } from "./types.js"

export type Send = (args: string[]) => Promise<unknown>

/** A connected client used only to subscribe (node-redis `subscribe(channel, listener)`, or ioredis). */
export type RedisSubscriberLike =
  | { subscribe(channel: string, listener: (message: string) => void): Promise<unknown> }
  | { subscribe(channel: string): Promise<unknown>; on(event: "message", listener: (channel: string, message: string) => void): unknown }

// Record the session; the hash lives as long as its longest-lived session.
const PUT = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`

// "Not before" (and a sid's "spared from", when a second key is given) never moves back; each is
// kept as long as the longest session it may end.
const NOT_BEFORE = `
for i = #KEYS, 1, -1 do
  local current = tonumber(redis.call('GET', KEYS[i]) or '0')
  local value = math.max(current, tonumber(ARGV[1]))
  local ttl = math.max(redis.call('PTTL', KEYS[i]), tonumber(ARGV[2]))
  redis.call('SET', KEYS[i], tostring(value), 'PX', ttl)
end
return 1`

const ms = (seconds: number) => String(Math.max(1000, Math.ceil(seconds * 1000)))

function parseRecord(text: unknown): StoredSession | null {
  try {
    const record = JSON.parse(String(text)) as StoredSession
    return record && typeof record.sid === "string" && typeof record.expires === "number" ? record : null
  } catch {
    return null
  }
}

export function redisSessionMethods(send: Send, prefix: string, subscriber?: RedisSubscriberLike): SessionStateStore {
  const channel = `${prefix}revocations`
  return {
    async putSession(userId, record, ttlSeconds) {
      await send(["EVAL", PUT, "1", `${prefix}sessions:${userId}`, record.sid, JSON.stringify(record), ms(ttlSeconds)])
    },
    async listSessions(userId) {
      const flat = ((await send(["HGETALL", `${prefix}sessions:${userId}`])) ?? []) as unknown
      // node-redis answers a raw HGETALL with a flat [field, value, ...] list; ioredis's call too.
      const entries: unknown[] = Array.isArray(flat) ? flat : Object.entries(flat as Record<string, unknown>).flat()
      const now = Date.now()
      const live: StoredSession[] = []
      const stale: string[] = []
      for (let i = 0; i + 1 < entries.length; i += 2) {
        const record = parseRecord(entries[i + 1])
        if (record && record.expires > now) live.push(record)
        else stale.push(String(entries[i]))
      }
      if (stale.length) await send(["HDEL", `${prefix}sessions:${userId}`, ...stale])
      return live
    },
    async removeSessions(userId, sids) {
      if (sids.length) await send(["HDEL", `${prefix}sessions:${userId}`, ...sids])
    },
    async revokeSid(sid, ttlSeconds) {
      await send(["SET", `${prefix}revoked:${sid}`, "1", "PX", ms(ttlSeconds)])
    },
    async revokeUser(userId, notBefore, ttlSeconds, spare) {
      const keys = spare === undefined ? [`${prefix}notbefore:${userId}`] : [`${prefix}notbefore:${userId}`, `${prefix}spared:${spare}`]
      await send(["EVAL", NOT_BEFORE, String(keys.length), ...keys, String(notBefore), ms(ttlSeconds)])
    },
    async revocation(sid, userId): Promise<RevocationState> {
      const [revoked, notBefore, spared] = (await send(["MGET", `${prefix}revoked:${sid ?? ""}`, `${prefix}notbefore:${userId ?? ""}`, `${prefix}spared:${sid ?? ""}`])) as [unknown, unknown, unknown]
      return {
        revoked: sid !== undefined && revoked !== null && revoked !== undefined,
        notBefore: userId === undefined ? 0 : Number(notBefore ?? 0) || 0,
        spared: sid === undefined ? 0 : Number(spared ?? 0) || 0,
      }
    },
    async publish(message) {
      await send(["PUBLISH", channel, message])
    },
    async subscribe(listener) {
      if (!subscriber) return
      // node-redis (an EventEmitter too) takes the listener in subscribe(); ioredis (which has
      // `call`, and a `sendCommand` of its own) emits "message".
      const ioredis = "call" in subscriber && typeof (subscriber as { call?: unknown }).call === "function"
      if (ioredis && "on" in subscriber && typeof subscriber.on === "function") {
        subscriber.on("message", (from: string, message: string) => {
          if (from === channel) listener(message)
        })
        await (subscriber as { subscribe(channel: string): Promise<unknown> }).subscribe(channel)
      } else {
        await (subscriber as { subscribe(channel: string, listener: (message: string) => void): Promise<unknown> }).subscribe(channel, (message: string) => listener(message))
      }
    },
  }
}
