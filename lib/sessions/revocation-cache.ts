/**
 * This process's memory of revocations, so a cookie-session read does not ask the shared store
 * every time: what the store said about a session id and a user is trusted for
 * `REVOCATION_REFRESH_MS`, and revocations published by any process (pub/sub) land here at once.
 * A revocation learnt is kept (until evicted: the store still has it). Bounded: the oldest
 * entries go first. With the adapter store (no shared store), its feed of every live revocation
 * answers before the per-entry freshness (see lib/state/revocation-feed.ts).
 */
import type { RevocationFeed, RevocationState } from "../state/types.js"

/** How long a "not revoked" answer is trusted: the worst-case delay of a revocation. */
export const REVOCATION_REFRESH_MS = 1000
const MAX_ENTRIES = 10_000

interface Known<T> {
  value: T
  at: number
}

function put<T>(map: Map<string, Known<T>>, key: string, value: T, at: number): void {
  map.delete(key)
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value as string)
  map.set(key, { value, at })
}

/** A known answer for `key` that is still trusted (no key: nothing to know). A plain function: no closure per check. */
function fresh(known: Known<unknown> | undefined, key: string | undefined, now: number): boolean {
  return key === undefined || (known !== undefined && now - known.at < REVOCATION_REFRESH_MS)
}

export class RevocationCache {
  readonly #sids = new Map<string, Known<boolean>>()
  readonly #users = new Map<string, Known<number>>()

  /** `feed`: the store holds every live revocation in this process (the adapter store), and answers first. */
  constructor(private readonly feed?: RevocationFeed) {}

  /**
   * True: revoked; false: known not to be (fresh answers only); undefined: ask the store.
   * `createdAt` is when the session started (ms): a user's "not before" above it revokes it.
   */
  check(sid: string | undefined, userId: string | undefined, createdAt: number, now: number): boolean | undefined {
    const bySid = sid === undefined ? undefined : this.#sids.get(sid)
    if (bySid?.value) return true
    const byUser = userId === undefined ? undefined : this.#users.get(userId)
    if (byUser && byUser.value > createdAt) return true
    if (this.feed) {
      const fromFeed = this.feed.check(sid, userId, createdAt, now)
      if (fromFeed !== undefined) return fromFeed
    }
    return fresh(bySid, sid, now) && fresh(byUser, userId, now) ? false : undefined
  }

  /** Records the store's answer. */
  learn(sid: string | undefined, userId: string | undefined, state: RevocationState, now: number): void {
    if (sid !== undefined) put(this.#sids, sid, state.revoked, now)
    if (userId !== undefined) this.noteUser(userId, state.notBefore, now)
  }

  revokeSid(sid: string, now = Date.now()): void {
    put(this.#sids, sid, true, now)
  }

  /** A user's "not before" (never moved back). */
  noteUser(userId: string, notBefore: number, now = Date.now()): void {
    const known = this.#users.get(userId)
    put(this.#users, userId, Math.max(known?.value ?? 0, notBefore), now)
  }
}
