/**
 * The shared store: what several processes of one app must agree on, one place for all of it.
 * Rate-limit counters (`rate-limit/`), single-use claims (used passkey challenges, two-factor
 * codes, logout tokens), cookie-session records and revocations (`devices/`), and short-lived
 * shared values (a refreshed provider token). This file is the interface (`StateStore`, the
 * `store` option); the rest of the folder are its implementations and the guard around them:
 *   memory.ts, memory-sessions.ts   this process's memory (the default)
 *   adapter-sessions.ts             the default with an adapter: revocations in the database,
 *     revocation-feed.ts            read from memory, caught up by polling
 *   revocation-set.ts               live revocations held in memory (both feeds)
 *   redis.ts, redis-sessions.ts     Redis, public as `gatehouse/stores/redis`
 *     redis-revocations.ts          every revocation listed at once (the pub/sub feed's load)
 *   guarded.ts, pending-writes.ts   timeouts and memory while a configured store is down,
 *                                   revocations it did not take written again
 */
import type { HeldRevocation } from "./revocation-set.js"

/**
 * State that several processes of one app must share: rate-limit counters and the passkey
 * challenges already used. `store` in the configuration; this process's memory by default,
 * `RedisStore` (`gatehouse/stores/redis`) to share it.
 */
export interface StateStore extends Partial<SessionStateStore>, Partial<ValueStateStore> {
  /**
   * Set by the store Gatehouse builds on the adapter (no `store` configured, processes sharing a
   * database): every live revocation, held in this process and kept current by polling; and by
   * MemoryStore (the default without an adapter), whose memory is the whole record.
   */
  readonly revocationFeed?: RevocationFeed
  /**
   * Does `publish` reach every process that shares the sessions (issue #36)? Assumed for a store
   * other than MemoryStore that has `publish` and `subscribe`; MemoryStore's reaches this process
   * only. When it does, heartbeats sent through it prove it live and the caches trust answers longer.
   */
  readonly sharedPubSub?: boolean
  /**
   * Every live cookie-session revocation the store holds, read in one go (RedisStore on one server
   * or Sentinel: a SCAN). With it and a pub/sub proven live, each process holds them all in memory
   * (lib/devices/pubsub-feed.ts), so a read of a session it has not seen asks the store nothing.
   */
  listRevocations?(): Promise<HeldRevocation[]>
  /**
   * Counts one hit on `key` in a fixed window of `windowSeconds` that starts with the key's first
   * hit. Returns the hits counted in the current window and when it ends (epoch milliseconds).
   */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetAt: number }>
  /** Forgets `key`'s count. */
  reset(key: string): Promise<void>
  /** Stores `key` for `ttlSeconds` unless it is there: true when this call stored it (the first use). */
  claim(key: string, ttlSeconds: number): Promise<boolean>
}

/** A cookie session as the store lists it (`listSessions`). Times are epoch milliseconds. */
export interface StoredSession {
  sid: string
  createdAt: number
  lastSeenAt: number
  expires: number
  userAgent: string | null
  ip: string | null
}

/**
 * What is known about a session's revocation: its `sid` revoked, the user's "not before" time
 * (ms; 0 for none), and `spared`: the highest "not before" time the `sid` is spared from (the
 * session that asked for "sign out everywhere else"; 0 or absent for none).
 */
export interface RevocationState {
  revoked: boolean
  notBefore: number
  spared?: number
}

/** True when `state` ends the session that started at `createdAt` (ms). */
export function revokedBy(state: RevocationState, createdAt: number): boolean {
  return state.revoked || (state.notBefore > createdAt && (state.spared ?? 0) < state.notBefore)
}

/**
 * Optional store methods for revocable sessions (MemoryStore and RedisStore have them). A store
 * without them still works: this process's memory keeps the records instead.
 */
export interface SessionStateStore {
  /** Records (or replaces) a cookie session of `userId`, kept for `ttlSeconds`. */
  putSession(userId: string, record: StoredSession, ttlSeconds: number): Promise<void>
  /** The user's recorded sessions that have not expired. */
  listSessions(userId: string): Promise<StoredSession[]>
  /** Forgets the listed sessions of the user. */
  removeSessions(userId: string, sids: readonly string[]): Promise<void>
  /** Marks `sid` revoked for `ttlSeconds` (the session's remaining life). */
  revokeSid(sid: string, ttlSeconds: number): Promise<void>
  /**
   * Sessions of `userId` created before `notBefore` (ms) are revoked; kept for `ttlSeconds`. Never
   * moves back. `spare`: the sid of the session that asked ("sign out everywhere else"), which
   * this "not before" does not end (a later, higher one does); recorded first. A store that
   * ignores `spare` ends that session too (fails closed).
   */
  revokeUser(userId: string, notBefore: number, ttlSeconds: number, spare?: string): Promise<void>
  /** One round trip: is `sid` revoked, the user's "not before" time, and what `sid` is spared from. */
  revocation(sid: string | undefined, userId: string | undefined): Promise<RevocationState>
  /** Tells every process sharing the store (pub/sub); a store without subscribers may drop it. */
  publish(message: string): Promise<void>
  /** Calls `listener` with every published message (of any process) from now on. */
  subscribe(listener: (message: string) => void): Promise<void>
}

/**
 * Every live cookie-session revocation, held in this process's memory and caught up with the
 * shared record (the database) at most once a second per process, by one poll that all requests
 * share. Lets a read answer "not revoked" with no round trip.
 */
export interface RevocationFeed {
  /**
   * true: revoked; false: not revoked (the feed is complete and caught up within the last second);
   * undefined: not known here (ask the store's `revocation`, which catches up first). Starts a
   * background catch-up when one is due soon, so a steady stream of requests never waits.
   */
  check(sid: string | undefined, userId: string | undefined, createdAt: number, now: number): boolean | undefined
}

/** Heartbeats of the revocation pub/sub (lib/devices/feed-watch.ts) start with this. */
export const HEARTBEAT_PREFIX = '{"beat":'

/** Is `message` a heartbeat (proof that the pub/sub delivers, not a revocation)? */
export function isHeartbeat(message: string): boolean {
  return message.startsWith(HEARTBEAT_PREFIX)
}

export const SESSION_STORE_METHODS = ["putSession", "listSessions", "removeSessions", "revokeSid", "revokeUser", "revocation", "publish", "subscribe"] as const

export function hasSessionMethods(store: object): store is SessionStateStore {
  return SESSION_STORE_METHODS.every((method) => typeof (store as Record<string, unknown>)[method] === "function")
}

/**
 * Optional store methods for short-lived values every process must read (issue #17: a provider
 * token refreshed by one process, sealed, for the processes waiting on the same refresh).
 * MemoryStore and RedisStore have them; without them, this process's memory holds the values.
 */
export interface ValueStateStore {
  /** Stores `value` under `key` for `ttlSeconds` (replacing any value). */
  putValue(key: string, value: string, ttlSeconds: number): Promise<void>
  /** The value under `key`, or null when there is none (or it expired). */
  getValue(key: string): Promise<string | null>
}
