/**
 * The default state store: this process's memory. Bounded: past `maxEntries` the expired entries
 * are swept; if it is still full, a counter with the fewest hits among the oldest goes (a client
 * whose counter is lost starts a new window), while claims are never forgotten before they expire:
 * a full store refuses new claims, because forgetting one would let its challenge be used again.
 *
 * Counters per identifier (`…:id:…` keys: an address or user name's failed attempts) are kept
 * apart from the others (per client address), under one bound for both: when it is reached, a
 * per-address counter goes first, so a flood of requests from new addresses cannot push an
 * identifier's failure count out and so reset it. The counter evicted is the one with the fewest
 * hits among the `EVICTION_SCAN` oldest, so a count near its limit outlives a flood of one-hit keys.
 */
import { AuthError } from "../errors.js"
import { MemorySessionState } from "./memory-sessions.js"
import type { RevocationFeed, RevocationState, StateStore, StoredSession } from "./types.js"

interface Counter {
  count: number
  resetAt: number
}

/** How many of the oldest counters are looked at to choose the one to evict. */
const EVICTION_SCAN = 64

/** Keys of counters per identifier, as the rate limiter writes them (`rl:<method>:id:<hash>`). */
const isIdentifierKey = (key: string) => key.includes(":id:")

export class StoreFull extends AuthError {}

export class MemoryStore implements StateStore {
  readonly #counters = new Map<string, Counter>()
  readonly #identifiers = new Map<string, Counter>()
  readonly #claims = new Map<string, number>()
  /** When each map was last swept (each has its own pace: sweeping one must not delay the other's). */
  readonly #lastSweep = new Map<Map<string, unknown>, number>()

  constructor(readonly maxEntries = 100_000) {}

  async hit(key: string, windowSeconds: number): Promise<{ count: number; resetAt: number }> {
    const now = Date.now()
    const counters = this.#countersFor(key)
    const current = counters.get(key)
    if (current && current.resetAt > now) {
      current.count++
      return { count: current.count, resetAt: current.resetAt }
    }
    if (current) counters.delete(key)
    if (this.#counterCount >= this.maxEntries) {
      this.#makeRoom(this.#counters, (counter) => counter.resetAt, now, this.#counterCount)
      this.#makeRoom(this.#identifiers, (counter) => counter.resetAt, now, this.#counterCount)
      if (this.#counterCount >= this.maxEntries) evictLeastHit(this.#counters.size ? this.#counters : this.#identifiers)
    }
    const fresh = { count: 1, resetAt: now + windowSeconds * 1000 }
    counters.set(key, fresh)
    return { count: 1, resetAt: fresh.resetAt }
  }

  async reset(key: string): Promise<void> {
    this.#countersFor(key).delete(key)
  }

  get #counterCount(): number {
    return this.#counters.size + this.#identifiers.size
  }

  #countersFor(key: string): Map<string, Counter> {
    return isIdentifierKey(key) ? this.#identifiers : this.#counters
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    const now = Date.now()
    const until = this.#claims.get(key)
    if (until !== undefined && until > now) return false
    if (until !== undefined) this.#claims.delete(key)
    this.#makeRoom(this.#claims, (expires) => expires, now)
    if (this.#claims.size >= this.maxEntries) throw new StoreFull("The store of used passkey challenges is full")
    this.#claims.set(key, now + ttlSeconds * 1000)
    return true
  }

  /** When full (`size`, the map's own by default), removes `map`'s expired entries (a full sweep of one map at most once a second). */
  #makeRoom<V>(map: Map<string, V>, expiry: (value: V) => number, now: number, size = map.size): void {
    if (size < this.maxEntries || now - (this.#lastSweep.get(map) ?? 0) < 1000) return
    this.#lastSweep.set(map, now)
    for (const [key, value] of map) if (expiry(value) <= now) map.delete(key)
  }

  // Revocable sessions (lib/shared-store/memory-sessions.ts), kept apart from the counters and claims.
  readonly #sessions = new MemorySessionState()
  putSession(userId: string, record: StoredSession): Promise<void> {
    return this.#sessions.putSession(userId, record)
  }
  listSessions(userId: string): Promise<StoredSession[]> {
    return this.#sessions.listSessions(userId)
  }
  removeSessions(userId: string, sids: readonly string[]): Promise<void> {
    return this.#sessions.removeSessions(userId, sids)
  }
  revokeSid(sid: string, ttlSeconds: number): Promise<void> {
    return this.#sessions.revokeSid(sid, ttlSeconds)
  }
  revokeUser(userId: string, notBefore: number, ttlSeconds: number, spare?: string): Promise<void> {
    return this.#sessions.revokeUser(userId, notBefore, ttlSeconds, spare)
  }
  revocation(sid: string | undefined, userId: string | undefined): Promise<RevocationState> {
    return this.#sessions.revocation(sid, userId)
  }
  /** Revocations held here are all there are (one process): reads are answered without a round trip. */
  get revocationFeed(): RevocationFeed {
    return this.#sessions
  }
  publish(message: string): Promise<void> {
    return this.#sessions.publish(message)
  }
  subscribe(listener: (message: string) => void): Promise<void> {
    return this.#sessions.subscribe(listener)
  }

  // Short-lived shared values (refreshed provider tokens, issue #17), bounded like the claims.
  readonly #values = new Map<string, { value: string; expires: number }>()
  async putValue(key: string, value: string, ttlSeconds: number): Promise<void> {
    const now = Date.now()
    this.#values.delete(key)
    this.#makeRoom(this.#values, (entry) => entry.expires, now)
    if (this.#values.size >= this.maxEntries) this.#values.delete(this.#values.keys().next().value as string)
    this.#values.set(key, { value, expires: now + ttlSeconds * 1000 })
  }
  async getValue(key: string): Promise<string | null> {
    const entry = this.#values.get(key)
    if (!entry) return null
    if (entry.expires > Date.now()) return entry.value
    this.#values.delete(key)
    return null
  }

  /** Entries held (for tests and diagnostics). */
  get size(): number {
    return this.#counters.size + this.#identifiers.size + this.#claims.size
  }
}

/** Removes the counter with the fewest hits among the oldest few (the oldest on a tie). */
function evictLeastHit(counters: Map<string, Counter>): void {
  let victim: string | undefined
  let least = Infinity
  let seen = 0
  for (const [key, counter] of counters) {
    if (counter.count < least) {
      least = counter.count
      victim = key
      if (least <= 1) break
    }
    if (++seen >= EVICTION_SCAN) break
  }
  if (victim !== undefined) counters.delete(victim)
}
