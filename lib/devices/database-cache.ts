/**
 * This process's cache of database sessions (token -> session and user), so a read does not
 * query the database every time. An entry is trusted for `REVOCATION_REFRESH_MS`; revocations,
 * sign-outs and refreshes on any process drop or replace it at once (pub/sub). Bounded: the
 * oldest entries go first.
 */
import type { AdapterSession, AdapterUser } from "../adapters.js"
import { REVOCATION_REFRESH_MS } from "./revocation-cache.js"
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

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  get(sessionToken: string, now: number): CachedSession | undefined {
    const entry = this.#entries.get(sessionToken)
    if (!entry) return undefined
    if (now - entry.at < REVOCATION_REFRESH_MS) return entry
    this.#entries.delete(sessionToken)
    return undefined
  }

  set(sessionToken: string, value: CachedSession, now: number): void {
    this.#entries.delete(sessionToken)
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value as string)
    this.#entries.set(sessionToken, { ...value, at: now })
  }

  delete(sessionToken: string): void {
    this.#entries.delete(sessionToken)
  }

  dropSid(sid: string): void {
    for (const [token, entry] of this.#entries) if (entry.sid === sid) this.#entries.delete(token)
  }

  dropUser(userId: string): void {
    for (const [token, entry] of this.#entries) if (entry.user.id === userId || entry.session.userId === userId) this.#entries.delete(token)
  }
}
