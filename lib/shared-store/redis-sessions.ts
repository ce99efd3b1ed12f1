/**
 * RedisStore's revocable-session methods. Keys (after the store's prefix; redis-keys.ts has the
 * hash-tagged layout a cluster uses):
 *   sessions:<userId>   hash sid -> JSON record, expiring with the user's longest session
 *   revoked:<sid>       "1" until the session would have expired
 *   notbefore:<userId>  epoch ms; sessions created earlier are revoked
 *   spared:<sid>        epoch ms: the "not before" this session is spared from ("sign out
 *                       everywhere else" asked by it); written in the same script, first
 * Revocations are also published on `<prefix>revocations`, for the processes' caches (on a
 * cluster, as a sharded channel: SPUBLISH/SSUBSCRIBE, Redis 7).
 */
import { redisKeys, type RedisKeys } from "./redis-keys.js"
import type { RevocationState, SessionStateStore, StoredSession } from "./types.js"

/** Sends one command; `key`, when given, is its first key (a cluster routes by it). */
export type Send = (args: string[], key?: string) => Promise<unknown>

/**
 * A connected client used only to subscribe: node-redis `subscribe(channel, listener)` (a cluster's
 * `sSubscribe`), or ioredis (a Cluster's `ssubscribe` and "smessage").
 */
export type RedisSubscriberLike =
  | { subscribe(channel: string, listener: (message: string) => void): Promise<unknown> }
  | { subscribe(channel: string): Promise<unknown>; on(event: "message", listener: (channel: string, message: string) => void): unknown }
  | { sSubscribe(channel: string, listener: (message: string) => void): Promise<unknown> }
  | { ssubscribe(channel: string): Promise<unknown>; on(event: "smessage", listener: (channel: string, message: string) => void): unknown }

export interface RedisSessionOptions {
  /** The key layout (default: plain, under `prefix`). */
  keys?: RedisKeys
  /** Revocations sent through this (a write, then WAIT for replicas); default: `send`. */
  sendAcknowledged?: (args: string[], key: string) => Promise<unknown>
  /** Publish with SPUBLISH and subscribe with SSUBSCRIBE (a cluster on Redis 7). */
  sharded?: boolean
}

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

const present = (value: unknown) => value !== null && value !== undefined

export function redisSessionMethods(send: Send, prefix: string, subscriber?: RedisSubscriberLike, options: RedisSessionOptions = {}): SessionStateStore {
  const keys = options.keys ?? redisKeys(prefix, false)
  const write = options.sendAcknowledged ?? ((args: string[], key: string) => send(args, key))
  const channel = keys.channel
  const sharded = options.sharded === true
  return {
    async putSession(userId, record, ttlSeconds) {
      const key = keys.sessions(userId)
      await send(["EVAL", PUT, "1", key, record.sid, JSON.stringify(record), ms(ttlSeconds)], key)
    },
    async listSessions(userId) {
      const key = keys.sessions(userId)
      const flat = ((await send(["HGETALL", key], key)) ?? []) as unknown
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
      if (stale.length) await send(["HDEL", key, ...stale], key)
      return live
    },
    async removeSessions(userId, sids) {
      const key = keys.sessions(userId)
      if (sids.length) await send(["HDEL", key, ...sids], key)
    },
    async revokeSid(sid, ttlSeconds) {
      const key = keys.revoked(sid)
      await write(["SET", key, "1", "PX", ms(ttlSeconds)], key)
    },
    async revokeUser(userId, notBefore, ttlSeconds, spare) {
      const list = spare === undefined ? [keys.notBefore(userId)] : [keys.notBefore(userId), keys.spared(spare, userId)]
      await write(["EVAL", NOT_BEFORE, String(list.length), ...list, String(notBefore), ms(ttlSeconds)], list[0] as string)
    },
    async revocation(sid, userId): Promise<RevocationState> {
      if (!keys.tagged) {
        const [revoked, notBefore, spared] = (await send(["MGET", keys.revoked(sid ?? ""), keys.notBefore(userId ?? ""), keys.spared(sid ?? "", userId)])) as [unknown, unknown, unknown]
        return {
          revoked: sid !== undefined && present(revoked),
          notBefore: userId === undefined ? 0 : Number(notBefore ?? 0) || 0,
          spared: sid === undefined ? 0 : Number(spared ?? 0) || 0,
        }
      }
      // A cluster: the sid's slot and the user's slot, asked at once.
      const userKey = userId === undefined ? undefined : keys.notBefore(userId)
      const [revoked, [notBefore, spared]] = await Promise.all([
        sid === undefined ? null : send(["GET", keys.revoked(sid)], keys.revoked(sid)),
        userKey === undefined ? [null, null] : (send(["MGET", userKey, keys.spared(sid ?? "", userId)], userKey) as Promise<[unknown, unknown]>),
      ])
      return {
        revoked: sid !== undefined && present(revoked),
        notBefore: userId === undefined ? 0 : Number(notBefore ?? 0) || 0,
        spared: sid === undefined ? 0 : Number(spared ?? 0) || 0,
      }
    },
    async publish(message) {
      await send([sharded ? "SPUBLISH" : "PUBLISH", channel, message], channel)
    },
    async subscribe(listener) {
      if (!subscriber) return
      const client = subscriber as Record<string, unknown>
      // ioredis (which has `call`, and a `sendCommand` of its own) emits "message" ("smessage");
      // node-redis (an EventEmitter too) takes the listener in subscribe() (sSubscribe()).
      const ioredis = typeof client.call === "function" && typeof client.on === "function"
      const on = client.on as (event: string, listener: (from: string, message: string) => void) => unknown
      if (sharded && ioredis) {
        // An ioredis Cluster sends SSUBSCRIBE to the channel's primary only with sharded subscribers.
        const options = client.options as { shardedSubscribers?: boolean } | undefined
        if (client.isCluster === true && options?.shardedSubscribers !== true) {
          throw new TypeError("RedisStore: on a cluster, the subscriber must be an ioredis Cluster created with { shardedSubscribers: true }")
        }
        on.call(subscriber, "smessage", (from, message) => {
          if (from === channel) listener(message)
        })
        await (subscriber as { ssubscribe(channel: string): Promise<unknown> }).ssubscribe(channel)
      } else if (sharded) {
        await (subscriber as { sSubscribe(channel: string, listener: (message: string) => void): Promise<unknown> }).sSubscribe(channel, (message: string) => listener(message))
      } else if (ioredis) {
        on.call(subscriber, "message", (from, message) => {
          if (from === channel) listener(message)
        })
        await (subscriber as { subscribe(channel: string): Promise<unknown> }).subscribe(channel)
      } else {
        await (subscriber as { subscribe(channel: string, listener: (message: string) => void): Promise<unknown> }).subscribe(channel, (message: string) => listener(message))
      }
    },
  }
}
