/**
 * This process's memory of revocations, so a cookie-session read does not ask the shared store
 * every time: what the store said about a session id and a user is trusted for
 * `REVOCATION_REFRESH_MS` (longer while the pub/sub is proven live: `TrustPolicy`), and revocations
 * published by any process (pub/sub) land here at once.
 * A revocation learnt is kept (until evicted: the store still has it). Bounded: the oldest
 * entries go first. With the adapter store (no shared store), its feed of every live revocation
 * answers before the per-entry freshness (see lib/shared-store/revocation-feed.ts).
 *
 * A user's "not before" ends the sessions created before it, except the one it spares (the
 * session that asked for "sign out everywhere else"). A revocation announced (pub/sub, or made
 * here) says which session it spares, if any; one learnt from the store's answer about another
 * session does not, and then a session is read as ended by it only when this process knows,
 * freshly, that the session is not spared; otherwise the store is asked. A session found ended
 * that way is remembered as revoked (nothing can bring it back).
 */
import type { RevocationFeed, RevocationState } from "../shared-store/types.js"
import { REVOCATION_REFRESH_MS } from "./feed-watch.js"
import { makeRoom } from "../core/bounded-map.js"

export { REVOCATION_REFRESH_MS }

/**
 * How long what was learnt at `at` is trusted at `now`: one second, or longer while the pub/sub is
 * proven to deliver every revocation (lib/devices/feed-watch.ts).
 */
export interface TrustPolicy {
  trusted(at: number, now: number): boolean
}

/** The one-second rule alone (no pub/sub proven live). */
export const ONE_SECOND: TrustPolicy = Object.freeze({ trusted: (at: number, now: number) => now - at < REVOCATION_REFRESH_MS })
/** Entries per map when none is given (`session.cacheSize`'s default). */
const MAX_ENTRIES = 10_000

/** A user's "not before" and the one session it spares: a sid, null for none, undefined when not known here. */
interface UserMark {
  notBefore: number
  spare: string | null | undefined
}

interface Known<T> {
  value: T
  at: number
}

function put<T>(map: Map<string, Known<T>>, key: string, value: T, at: number, max: number): void {
  map.delete(key)
  makeRoom(map, max)
  map.set(key, { value, at })
}

/** A known answer for `key` that is still trusted (no key: nothing to know). A plain function: no closure per check. */
function fresh(policy: TrustPolicy, known: Known<unknown> | undefined, key: string | undefined, now: number): boolean {
  return key === undefined || (known !== undefined && policy.trusted(known.at, now))
}

export class RevocationCache {
  readonly #sids = new Map<string, Known<boolean>>()
  readonly #users = new Map<string, Known<UserMark>>()
  /** sid -> the highest "not before" it is spared from (0: none), as last learnt. */
  readonly #spared = new Map<string, Known<number>>()

  /**
   * `feed`: the store holds every live revocation in this process (the adapter store), and answers
   * first. `maxEntries`: per map (session ids, users, spared sessions), the oldest dropped first.
   * `policy`: how long an answer is trusted.
   */
  constructor(
    private readonly feed?: RevocationFeed,
    private readonly maxEntries = MAX_ENTRIES,
    private readonly policy: TrustPolicy = ONE_SECOND,
  ) {}

  /**
   * True: revoked; false: known not to be (fresh answers only); undefined: ask the store.
   * `createdAt` is when the session started (ms): a user's "not before" above it revokes it.
   */
  check(sid: string | undefined, userId: string | undefined, createdAt: number, now: number): boolean | undefined {
    const bySid = sid === undefined ? undefined : this.#sids.get(sid)
    if (bySid?.value) return true
    const byUser = userId === undefined ? undefined : this.#users.get(userId)
    if (byUser && byUser.value.notBefore > createdAt) {
      const mark = byUser.value
      const spared = sid === undefined ? undefined : this.#spared.get(sid)
      if (spared === undefined || spared.value < mark.notBefore) {
        // Not spared as far as this process knows: certain when the revocation said which session
        // it spares, or when what is known of this one is fresh (or there is no sid).
        if (sid === undefined || (mark.spare !== undefined && mark.spare !== sid) || (spared !== undefined && this.policy.trusted(spared.at, now))) {
          if (sid !== undefined) put(this.#sids, sid, true, now, this.maxEntries)
          return true
        }
        return undefined
      }
    }
    if (this.feed) {
      const fromFeed = this.feed.check(sid, userId, createdAt, now)
      if (fromFeed !== undefined) return fromFeed
    }
    return fresh(this.policy, bySid, sid, now) && fresh(this.policy, byUser, userId, now) ? false : undefined
  }

  /** Records the store's answer. */
  learn(sid: string | undefined, userId: string | undefined, state: RevocationState, now: number): void {
    if (sid !== undefined) {
      // A revocation announced while the store answered stays: nothing brings a session back.
      put(this.#sids, sid, state.revoked || this.#sids.get(sid)?.value === true, now, this.maxEntries)
      this.spare(sid, state.spared ?? 0, now)
    }
    if (userId !== undefined) this.#mark(userId, state.notBefore, now, undefined)
  }

  /** `sid` is spared from the user's "not before" up to `notBefore` (never moved back). */
  spare(sid: string, notBefore: number, now = Date.now()): void {
    const known = this.#spared.get(sid)
    put(this.#spared, sid, Math.max(known?.value ?? 0, notBefore), now, this.maxEntries)
  }

  revokeSid(sid: string, now = Date.now()): void {
    put(this.#sids, sid, true, now, this.maxEntries)
  }

  /** A user's "not before" as announced (never moved back), and the session it spares (`null`: none). */
  noteUser(userId: string, notBefore: number, now = Date.now(), spare: string | null = null): void {
    this.#mark(userId, notBefore, now, spare)
  }

  /** `spare` undefined: not known (learnt from the store's answer about some session). */
  #mark(userId: string, notBefore: number, now: number, spare: string | null | undefined): void {
    const known = this.#users.get(userId)?.value
    const mark = !known || notBefore > known.notBefore ? { notBefore, spare } : known.spare === undefined && notBefore === known.notBefore ? { notBefore, spare } : known
    put(this.#users, userId, mark, now, this.maxEntries)
  }
}
