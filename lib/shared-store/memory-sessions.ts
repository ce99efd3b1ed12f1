/**
 * Revocable-session state in this process's memory: the cookie sessions of each user, the
 * revoked session ids and each user's "not before" time, each kept until it expires. Bounded:
 * past `maxEntries`, expired entries are swept; a full map drops its oldest session records
 * (listing loses them), never a revocation before it expires (that would let a session back in):
 * a full revocation map drops its oldest user "not before" entry only after sweeping.
 */
import { revokedBy, type RevocationFeed, type RevocationState, type SessionStateStore, type StoredSession } from "./types.js"

/**
 * The newest sessions of one user kept for listing. A user signing in over and over (a script, a
 * load test) must not grow memory without bound; older sessions past this stay valid, unlisted,
 * and still end with "sign out everywhere else" and `revokeUserSessions` (the user's "not before").
 */
export const MAX_SESSIONS_PER_USER = 100

interface Expiring<T> {
  value: T
  until: number
}

export class MemorySessionState implements SessionStateStore, RevocationFeed {
  readonly #sessions = new Map<string, Map<string, StoredSession>>()
  readonly #revoked = new Map<string, number>()
  readonly #notBefore = new Map<string, Expiring<number>>()
  /** sid -> the "not before" it is spared from (the session that asked for "sign out everywhere else"). */
  readonly #spared = new Map<string, Expiring<number>>()
  readonly #listeners = new Set<(message: string) => void>()

  constructor(readonly maxEntries = 100_000) {}

  async putSession(userId: string, record: StoredSession): Promise<void> {
    let sessions = this.#sessions.get(userId)
    if (!sessions) {
      if (this.#sessions.size >= this.maxEntries) this.#sweepSessions()
      if (this.#sessions.size >= this.maxEntries) this.#sessions.delete(this.#sessions.keys().next().value as string)
      sessions = new Map()
      this.#sessions.set(userId, sessions)
    }
    if (!sessions.has(record.sid) && sessions.size >= MAX_SESSIONS_PER_USER) sessions.delete(sessions.keys().next().value as string)
    sessions.set(record.sid, { ...record })
  }

  async listSessions(userId: string): Promise<StoredSession[]> {
    const sessions = this.#sessions.get(userId)
    if (!sessions) return []
    const now = Date.now()
    for (const [sid, record] of sessions) if (record.expires <= now) sessions.delete(sid)
    if (!sessions.size) this.#sessions.delete(userId)
    return [...sessions.values()].map((record) => ({ ...record }))
  }

  async removeSessions(userId: string, sids: readonly string[]): Promise<void> {
    const sessions = this.#sessions.get(userId)
    if (!sessions) return
    for (const sid of sids) sessions.delete(sid)
    if (!sessions.size) this.#sessions.delete(userId)
  }

  async revokeSid(sid: string, ttlSeconds: number): Promise<void> {
    const now = Date.now()
    if (this.#revoked.size >= this.maxEntries) for (const [key, until] of this.#revoked) if (until <= now) this.#revoked.delete(key)
    this.#revoked.set(sid, now + ttlSeconds * 1000)
  }

  async revokeUser(userId: string, notBefore: number, ttlSeconds: number, spare?: string): Promise<void> {
    const now = Date.now()
    if (spare !== undefined) raise(this.#spared, spare, notBefore, now + ttlSeconds * 1000, now, this.maxEntries)
    const current = this.#notBefore.get(userId)
    const value = current && current.until > now ? Math.max(current.value, notBefore) : notBefore
    if (!current && this.#notBefore.size >= this.maxEntries) {
      for (const [key, entry] of this.#notBefore) if (entry.until <= now) this.#notBefore.delete(key)
    }
    this.#notBefore.set(userId, { value, until: Math.max(current?.until ?? 0, now + ttlSeconds * 1000) })
  }

  async revocation(sid: string | undefined, userId: string | undefined): Promise<RevocationState> {
    return this.#state(sid, userId, Date.now())
  }

  /**
   * As a RevocationFeed: this memory holds every revocation of this process's store, so a read is
   * answered here, at once and without a promise, never "ask the store" (issue #36: with many
   * active sessions, most reads found the one-second cache stale and waited on a promise).
   */
  check(sid: string | undefined, userId: string | undefined, createdAt: number, now: number): boolean {
    return revokedBy(this.#state(sid, userId, now), createdAt)
  }

  #state(sid: string | undefined, userId: string | undefined, now: number): RevocationState {
    const until = sid === undefined ? undefined : this.#revoked.get(sid)
    const entry = userId === undefined ? undefined : this.#notBefore.get(userId)
    const spared = sid === undefined ? undefined : this.#spared.get(sid)
    return { revoked: until !== undefined && until > now, notBefore: entry && entry.until > now ? entry.value : 0, spared: spared && spared.until > now ? spared.value : 0 }
  }

  async publish(message: string): Promise<void> {
    for (const listener of this.#listeners) listener(message)
  }

  async subscribe(listener: (message: string) => void): Promise<void> {
    this.#listeners.add(listener)
  }

  #sweepSessions(): void {
    const now = Date.now()
    for (const [userId, sessions] of this.#sessions) {
      for (const [sid, record] of sessions) if (record.expires <= now) sessions.delete(sid)
      if (!sessions.size) this.#sessions.delete(userId)
    }
  }
}

/** Sets `key` to at least `value` (never moved back), kept until at least `until`; sweeps expired entries when full. */
function raise(map: Map<string, Expiring<number>>, key: string, value: number, until: number, now: number, maxEntries: number): void {
  const current = map.get(key)
  const live = current && current.until > now ? current : undefined
  if (!current && map.size >= maxEntries) for (const [other, entry] of map) if (entry.until <= now) map.delete(other)
  map.set(key, { value: Math.max(live?.value ?? 0, value), until: Math.max(live?.until ?? 0, until) })
}
