/**
 * The default state store: this process's memory. Bounded: past `maxEntries` the expired entries
 * are swept; if it is still full, the oldest counters go first (a client whose counter is lost
 * starts a new window), while claims are never forgotten before they expire: a full store refuses
 * new claims, because forgetting one would let its challenge be used again.
 */
import { AuthError } from "../errors.js"
import { MemorySessionState } from "./memory-sessions.js"
import type { RevocationState, StateStore, StoredSession } from "./types.js"

interface Counter {
  count: number
  resetAt: number
}

export class StoreFull extends AuthError {}

export class MemoryStore implements StateStore {
  readonly #counters = new Map<string, Counter>()
  readonly #claims = new Map<string, number>()
  /** When each map was last swept (each has its own pace: sweeping one must not delay the other's). */
  readonly #lastSweep = new Map<Map<string, unknown>, number>()

  constructor(readonly maxEntries = 100_000) {}

  async hit(key: string, windowSeconds: number): Promise<{ count: number; resetAt: number }> {
    const now = Date.now()
    const current = this.#counters.get(key)
    if (current && current.resetAt > now) {
      current.count++
      return { count: current.count, resetAt: current.resetAt }
    }
    if (current) this.#counters.delete(key)
    this.#makeRoom(this.#counters, (counter) => counter.resetAt, now)
    if (this.#counters.size >= this.maxEntries) this.#counters.delete(this.#counters.keys().next().value as string)
    const fresh = { count: 1, resetAt: now + windowSeconds * 1000 }
    this.#counters.set(key, fresh)
    return { count: 1, resetAt: fresh.resetAt }
  }

  async reset(key: string): Promise<void> {
    this.#counters.delete(key)
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

  /** When `map` is full, removes its expired entries (a full sweep of one map at most once a second). */
  #makeRoom<V>(map: Map<string, V>, expiry: (value: V) => number, now: number): void {
    if (map.size < this.maxEntries || now - (this.#lastSweep.get(map) ?? 0) < 1000) return
    this.#lastSweep.set(map, now)
    for (const [key, value] of map) if (expiry(value) <= now) map.delete(key)
  }

  // Revocable sessions (lib/state/memory-sessions.ts), kept apart from the counters and claims.
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
  revokeUser(userId: string, notBefore: number, ttlSeconds: number): Promise<void> {
    return this.#sessions.revokeUser(userId, notBefore, ttlSeconds)
  }
  revocation(sid: string | undefined, userId: string | undefined): Promise<RevocationState> {
    return this.#sessions.revocation(sid, userId)
  }
  publish(message: string): Promise<void> {
    return this.#sessions.publish(message)
  }
  subscribe(listener: (message: string) => void): Promise<void> {
    return this.#sessions.subscribe(listener)
  }

  /** Entries held (for tests and diagnostics). */
  get size(): number {
    return this.#counters.size + this.#claims.size
  }
}
