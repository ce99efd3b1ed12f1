/**
 * This process's cache of database sessions (token -> session and user), so a read does not
 * query the database every time. An entry is trusted for `REVOCATION_REFRESH_MS` (longer while the
 * pub/sub is proven live: `TrustPolicy`, lib/devices/feed-watch.ts); revocations,
 * sign-outs and refreshes on any process drop or replace it at once (pub/sub). Bounded: the
 * oldest entries go first.
 */
import type { AdapterSession, AdapterUser } from "../adapters.js"
import { ONE_SECOND, type TrustPolicy } from "./revocation-cache.js"
import { makeRoom } from "../core/bounded-map.js"
import type { StoredImpersonation } from "../admin/impersonation/facts.js"

/** Entries when none is given (`session.cacheSize`'s default). */
const MAX_ENTRIES = 10_000

export interface CachedSession {
  session: AdapterSession
  user: AdapterUser
  /** The public session id (derived from the token). */
  sid: string
  /** How the user signed in (issue #16), when recorded. */
  amr?: string[]
  /** The providers that refused the user's refresh token (issue #17: the session shows `error`). */
  refused?: string[]
  /** An admin's impersonation (issue #30): the session is never extended, and shows `impersonatedBy`. */
  impersonation?: StoredImpersonation
}

interface Entry extends CachedSession {
  at: number
}

export class DatabaseSessionCache {
  readonly #entries = new Map<string, Entry>()
  /** When a session was last dropped (revoked, signed out, refreshed elsewhere). */
  #droppedAt = Number.NEGATIVE_INFINITY

  constructor(
    private readonly maxEntries = MAX_ENTRIES,
    private readonly policy: TrustPolicy = ONE_SECOND,
  ) {}

  get(sessionToken: string, now: number): CachedSession | undefined {
    const entry = this.#entries.get(sessionToken)
    if (!entry) return undefined
    if (this.policy.trusted(entry.at, now)) return entry
    this.#entries.delete(sessionToken)
    return undefined
  }

  /**
   * `now`: when the read that found `value` started. A session dropped since (a revocation that
   * arrived while the database answered) may be in `value` as it was before: not kept then, so no
   * stale copy outlives the revocation (the next read asks the database again).
   */
  set(sessionToken: string, value: CachedSession, now: number): void {
    if (this.#droppedAt >= now) return
    this.#entries.delete(sessionToken)
    makeRoom(this.#entries, this.maxEntries)
    this.#entries.set(sessionToken, { ...value, at: now })
  }

  delete(sessionToken: string): void {
    this.#droppedAt = Date.now()
    this.#entries.delete(sessionToken)
  }

  dropSid(sid: string): void {
    this.#droppedAt = Date.now()
    for (const [token, entry] of this.#entries) if (entry.sid === sid) this.#entries.delete(token)
  }

  dropUser(userId: string): void {
    this.#droppedAt = Date.now()
    for (const [token, entry] of this.#entries) if (entry.user.id === userId || entry.session.userId === userId) this.#entries.delete(token)
  }
}
