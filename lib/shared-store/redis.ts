/**
 * `gatehouse/stores/redis`: the state store on Redis, so that several processes share rate-limit
 * counters, the passkey challenges already used, and session revocations (pushed to every
 * process by pub/sub when `subscriber` is given).
 *
 *   import { createClient } from "redis"
 *   import { RedisStore } from "gatehouse/stores/redis"
 *   const client = await createClient({ url: process.env.REDIS_URL }).connect()
 *   authRouter({ ..., store: RedisStore({ client }) })
 *
 * `client` is a connected node-redis client (v4 and later) or an ioredis client; Gatehouse sends
 * raw commands through it and never closes it. Keys start with `prefix` (default `gatehouse:`).
 */
import type { StateStore } from "./types.js"
import { redisSessionMethods, type RedisSubscriberLike } from "./redis-sessions.js"

export type { RedisSubscriberLike }

/** What Gatehouse needs of a Redis client: node-redis's `sendCommand` or ioredis's `call`. */
export type RedisClientLike = { sendCommand(args: string[]): Promise<unknown> } | { call(command: string, ...args: string[]): Promise<unknown> }

export interface RedisStoreOptions {
  client: RedisClientLike
  prefix?: string
  /**
   * A second connected client, used only to subscribe (a subscribed connection can send nothing
   * else): node-redis `client.duplicate()` (connected) or an ioredis client. With it, a session
   * revoked on one process reads as signed out on every process at once; without it, within the
   * one-second revocation cache (see the README's "Sessions and devices"). Never closed by Gatehouse.
   */
  subscriber?: RedisSubscriberLike
}

// One round trip: count the hit, start the window on the first one, report the time left.
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`

export function RedisStore({ client, prefix = "gatehouse:", subscriber }: RedisStoreOptions): StateStore {
  // ioredis first: it has a `sendCommand` too, but one that takes its own Command objects.
  const send: (args: string[]) => Promise<unknown> =
    "call" in client && typeof client.call === "function"
      ? ([command, ...args]) => client.call(command as string, ...args)
      : "sendCommand" in client && typeof client.sendCommand === "function"
        ? (args) => client.sendCommand(args)
        : () => {
            throw new TypeError("RedisStore needs a node-redis client (sendCommand) or an ioredis client (call)")
          }
  return {
    ...redisSessionMethods(send, prefix, subscriber),
    async hit(key, windowSeconds) {
      const windowMs = String(Math.max(1, Math.round(windowSeconds * 1000)))
      const [count, ttl] = (await send(["EVAL", HIT, "1", prefix + key, windowMs])) as [number, number]
      return { count: Number(count), resetAt: Date.now() + Number(ttl) }
    },
    async reset(key) {
      await send(["DEL", prefix + key])
    },
    async putValue(key, value, ttlSeconds) {
      await send(["SET", prefix + key, value, "PX", String(Math.max(1, Math.round(ttlSeconds * 1000)))])
    },
    async getValue(key) {
      const value = await send(["GET", prefix + key])
      return typeof value === "string" ? value : value === null || value === undefined ? null : String(value)
    },
    async claim(key, ttlSeconds) {
      const answer = await send(["SET", prefix + key, "1", "NX", "EX", String(Math.max(1, Math.ceil(ttlSeconds)))])
      return answer === "OK"
    },
  }
}
