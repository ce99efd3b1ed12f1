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
 * An ioredis `Cluster` (or node-redis `createCluster`) works too: keys then carry hash tags so
 * that every script stays in one slot, and revocations go out on a sharded channel. A
 * Sentinel-backed ioredis client (`new Redis({ sentinels, name })`) is a plain client here.
 * `waitForReplicas` makes claims and revocations wait for replicas (WAIT), so a failover right
 * after them does not lose them. The README's "Scaling out" and docs/deployment.md have the set-ups.
 */
import { redisConnection, type RedisClientLike, type WaitForReplicas } from "./redis-connection.js"
import { redisKeys } from "./redis-keys.js"
import { redisRevocationListing } from "./redis-revocations.js"
import { redisSessionMethods, type RedisSubscriberLike } from "./redis-sessions.js"
import type { StateStore } from "./types.js"

export type { RedisClientLike, RedisSubscriberLike, WaitForReplicas }
export { ReplicasShortfall } from "./redis-connection.js"

export interface RedisStoreOptions {
  client: RedisClientLike
  prefix?: string
  /**
   * A second connected client, used only to subscribe (a subscribed connection can send nothing
   * else): node-redis `client.duplicate()` (connected) or an ioredis client. With it, a session
   * revoked on one process reads as signed out on every process at once; without it, within the
   * one-second revocation cache (see the README's "Sessions and devices"). Never closed by Gatehouse.
   * On a cluster: an ioredis `Cluster` created with `shardedSubscribers: true` (it follows the
   * channel's slot to a new primary), or node-redis `createCluster` (connected).
   */
  subscriber?: RedisSubscriberLike
  /**
   * Claims (single-use codes, challenges, assertion ids) and revocations are answered only once
   * `replicas` replicas have them (`WAIT replicas timeoutMs` after the write, on its connection):
   * a primary lost right after cannot take them along. Fewer within `timeoutMs`: the write fails
   * (a claim answers StoreUnavailable, a revocation RevocationPending and is retried). Costs one
   * replication round trip on those writes only (docs/deployment.md has the numbers); rate limits
   * and session reads never wait. Default: none (Redis replicates asynchronously).
   */
  waitForReplicas?: WaitForReplicas
  /**
   * Hash-tagged keys (see redis-keys.ts) and a sharded revocation channel (SPUBLISH, Redis 7).
   * Default: true for a cluster client, false otherwise (one server keeps the plain key names).
   */
  cluster?: boolean
}

// One round trip: count the hit, start the window on the first one, report the time left.
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`

function assertWait(wait: WaitForReplicas | undefined): WaitForReplicas | undefined {
  if (wait === undefined) return undefined
  const { replicas, timeoutMs } = wait
  if (!Number.isInteger(replicas) || replicas < 1 || !Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new TypeError(`RedisStore: waitForReplicas must be { replicas: an integer >= 1, timeoutMs: an integer >= 1 }, got ${JSON.stringify(wait)}`)
  }
  return Object.freeze({ replicas, timeoutMs })
}

export function RedisStore({ client, prefix = "gatehouse:", subscriber, waitForReplicas, cluster }: RedisStoreOptions): StateStore {
  const connection = redisConnection(client)
  const wait = assertWait(waitForReplicas)
  const tagged = cluster ?? connection.cluster
  const keys = redisKeys(prefix, tagged)
  const send = connection.send
  const acknowledged = wait ? (args: string[], key: string) => connection.sendAcknowledged(args, key, wait) : (args: string[], key: string) => send(args, key)
  return {
    ...redisSessionMethods(send, prefix, subscriber, { keys, sendAcknowledged: acknowledged, sharded: tagged }),
    // One server (or Sentinel) can list every revocation at once; a cluster's are spread over its primaries.
    ...(tagged || connection.cluster ? {} : { listRevocations: redisRevocationListing(send, keys) }),
    async hit(key, windowSeconds) {
      const windowMs = String(Math.max(1, Math.round(windowSeconds * 1000)))
      const [count, ttl] = (await send(["EVAL", HIT, "1", keys.plain(key), windowMs], keys.plain(key))) as [number, number]
      return { count: Number(count), resetAt: Date.now() + Number(ttl) }
    },
    async reset(key) {
      await send(["DEL", keys.plain(key)], keys.plain(key))
    },
    async putValue(key, value, ttlSeconds) {
      await send(["SET", keys.plain(key), value, "PX", String(Math.max(1, Math.round(ttlSeconds * 1000)))], keys.plain(key))
    },
    async getValue(key) {
      const value = await send(["GET", keys.plain(key)], keys.plain(key))
      return typeof value === "string" ? value : value === null || value === undefined ? null : String(value)
    },
    async claim(key, ttlSeconds) {
      const answer = await acknowledged(["SET", keys.plain(key), "1", "NX", "EX", String(Math.max(1, Math.ceil(ttlSeconds)))], keys.plain(key))
      return answer === "OK"
    },
  }
}
