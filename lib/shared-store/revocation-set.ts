/**
 * Live cookie-session revocations held in this process's memory, as a feed keeps them: revoked
 * session ids, each user's "not before" time and the "not before" each session is spared from,
 * each with when it expires. Entries only ever grow (a revocation is never taken back) until they
 * expire; bounded by `maxEntries` in all. Used by the database's feed (revocation-feed.ts) and
 * by the pub/sub feed of a shared store (lib/devices/pubsub-feed.ts).
 */

/** One revocation as a feed learns it (times in epoch ms). */
export interface HeldRevocation {
  kind: "session" | "user" | "spare"
  key: string
  /** Kinds "user" and "spare": the "not before" time. */
  notBefore?: number
  expires: number
}

interface Mark {
  notBefore: number
  expires: number
}

export class RevocationSet {
  /** sid -> when its revocation expires. */
  readonly #sids = new Map<string, number>()
  /** userId -> the user's "not before" time and when it expires. */
  readonly #users = new Map<string, Mark>()
  /** sid -> the highest "not before" it is spared from, and when that expires. */
  readonly #spared = new Map<string, Mark>()

  constructor(readonly maxEntries: number) {}

  /** Adds (or raises) one revocation; false when a new entry would pass `maxEntries` (nothing is added). */
  add(row: HeldRevocation, now: number): boolean {
    if (row.expires <= now) return true
    if (row.kind === "session") {
      const known = this.#sids.get(row.key)
      if (known === undefined && !this.#room(now)) return false
      this.#sids.set(row.key, Math.max(known ?? 0, row.expires))
      return true
    }
    // Any other kind (a row of a later release) is not ours to read.
    const map = row.kind === "user" ? this.#users : row.kind === "spare" ? this.#spared : undefined
    if (!map) return true
    const known = map.get(row.key)
    if (known === undefined && !this.#room(now)) return false
    map.set(row.key, { notBefore: Math.max(known?.notBefore ?? 0, row.notBefore ?? 0), expires: Math.max(known?.expires ?? 0, row.expires) })
    return true
  }

  /**
   * Does what is held end the session `sid` of `userId` that started at `createdAt`? "unspared":
   * the user's "not before" ends it unless it is spared, and no spare is held (a complete feed
   * reads that as ended; an incomplete one asks the store).
   */
  verdict(sid: string | undefined, userId: string | undefined, createdAt: number, now: number): "revoked" | "unspared" | "live" {
    if (sid !== undefined && (this.#sids.get(sid) ?? 0) > now) return "revoked"
    const user = userId === undefined ? undefined : this.#users.get(userId)
    if (user === undefined || user.expires <= now || user.notBefore <= createdAt) return "live"
    const spare = sid === undefined ? undefined : this.#spared.get(sid)
    if (spare !== undefined && spare.expires > now && spare.notBefore >= user.notBefore) return "live"
    return sid === undefined ? "revoked" : "unspared"
  }

  /** What is held about `sid` and `userId`, as a store answers (see RevocationState). */
  state(sid: string | undefined, userId: string | undefined, now: number): { revoked: boolean; notBefore: number; spared: number } {
    const user = userId === undefined ? undefined : this.#users.get(userId)
    const spare = sid === undefined ? undefined : this.#spared.get(sid)
    return {
      revoked: sid !== undefined && (this.#sids.get(sid) ?? 0) > now,
      notBefore: user && user.expires > now ? user.notBefore : 0,
      spared: spare && spare.expires > now ? spare.notBefore : 0,
    }
  }

  get size(): number {
    return this.#sids.size + this.#users.size + this.#spared.size
  }

  clear(): void {
    this.#sids.clear()
    this.#users.clear()
    this.#spared.clear()
  }

  /** Drops what has expired. */
  prune(now: number): void {
    for (const [sid, expires] of this.#sids) if (expires <= now) this.#sids.delete(sid)
    for (const [userId, entry] of this.#users) if (entry.expires <= now) this.#users.delete(userId)
    for (const [sid, entry] of this.#spared) if (entry.expires <= now) this.#spared.delete(sid)
  }

  #room(now: number): boolean {
    if (this.size < this.maxEntries) return true
    this.prune(now)
    return this.size < this.maxEntries
  }
}
