/**
 * Cookie-session revocations shared through the database (no shared store): this process holds
 * every live revocation in memory and catches up with the adapter's record by asking for the
 * revocations recorded since its last poll (`listSessionRevocations({ since })`). A poll runs at
 * most once per half second per process, one at a time, shared by every request (single flight);
 * a read answers "not revoked" from memory while the last poll started less than a second ago, so
 * a revocation recorded on any process reads as revoked everywhere within one second, and steady
 * traffic never waits (the poll is started in the background half a second in). Only a read that
 * finds the feed more than a second old waits, for that one shared poll.
 *
 * A user's revocation does not end the session it spares (kind "spare", written just before it by
 * "sign out everywhere else"): past the bound, where a spare may be missing here, only the
 * database's answer ends such a session.
 *
 * Polls look back `OVERLAP_MS` before the previous poll's start (applying a revocation twice
 * changes nothing), so a row committed a little after the time stamped on it, or stamped by a
 * process whose clock is behind, is still seen.
 *
 * Bounded: past `maxEntries` live revocations the feed is incomplete; reads of sessions it does not
 * know to be revoked then ask the database for those two keys (once a second per session, through
 * the revocation cache), and a full reload is tried once a minute.
 *
 * The database down: a poll that fails or takes longer than `TIMEOUT_MS` is logged (at most once a
 * minute) and not tried again for `RETRY_MS`; reads meanwhile answer from what this process knows
 * (revocations recorded before the failure, and those made on this process), never an error.
 */
import type { Adapter, AdapterSessionRevocation } from "../adapters.js"
import type { LoggerInstance } from "../core/logger.js"
import { AdapterError } from "../errors.js"
import { RevocationSet } from "./revocation-set.js"
import type { RevocationFeed, RevocationState } from "./types.js"

/** A read trusts the feed for this long after its last poll started: the worst-case delay of a revocation. */
export const FEED_FRESH_MS = 1000
/** A poll is started in the background once the last one is this old. */
const AHEAD_MS = 500
export const OVERLAP_MS = 5000
const TIMEOUT_MS = 1000
const RETRY_MS = 2000
const LOG_EVERY_MS = 60_000
const RELOAD_MS = 60_000
const PRUNE_MS = 60_000
export const MAX_FEED_ENTRIES = 100_000

type FeedAdapter = Required<Pick<Adapter, "listSessionRevocations">>

function bounded<T>(work: () => T | PromiseLike<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS)
  })
  return Promise.race([Promise.resolve().then(work), timeout]).finally(() => clearTimeout(timer))
}

export class AdapterRevocationFeed implements RevocationFeed {
  readonly #held: RevocationSet
  /** When the last successful poll started (ms). */
  #syncedAt = -Infinity
  /** Whether every live revocation is held here (false before the first load, and past the bound). */
  #complete = false
  #loaded = false
  #syncing: Promise<void> | undefined
  #retryAt = 0
  #reloadAt = 0
  #prunedAt = 0
  #lastLogged = -Infinity

  constructor(
    private readonly adapter: FeedAdapter,
    private readonly logger: Pick<LoggerInstance, "error">,
    readonly maxEntries = MAX_FEED_ENTRIES,
  ) {
    this.#held = new RevocationSet(maxEntries)
  }

  check(sid: string | undefined, userId: string | undefined, createdAt: number, now: number): boolean | undefined {
    if (this.#revoked(sid, userId, createdAt, now)) return true
    const age = now - this.#syncedAt
    if (age >= AHEAD_MS) void this.sync(now)
    return this.#complete && age < FEED_FRESH_MS ? false : undefined
  }

  /** What is known of `sid` and `userId`, after catching up (never throws: on failure, what this process knows). */
  async state(sid: string | undefined, userId: string | undefined): Promise<RevocationState> {
    if (Date.now() - this.#syncedAt >= AHEAD_MS) await this.sync()
    const rows = this.#complete ? [] : await this.#lookUp(sid, userId)
    const now = Date.now()
    let { revoked, notBefore, spared } = this.#held.state(sid, userId, now)
    for (const row of rows) {
      if (row.expires.getTime() <= now) continue
      if (row.kind === "session" && row.key === sid) revoked = true
      if (row.kind === "user" && row.key === userId) notBefore = Math.max(notBefore, row.notBefore?.getTime() ?? 0)
      if (row.kind === "spare" && row.key === sid) spared = Math.max(spared, row.notBefore?.getTime() ?? 0)
    }
    return { revoked, notBefore, spared }
  }

  /** A revocation made on this process (also recorded in the database by the caller). */
  note(revocation: AdapterSessionRevocation): void {
    this.#add(revocation, Date.now())
  }

  /** Catches up with the database (one poll at a time, shared); resolves when done or failed, never rejects. */
  sync(now = Date.now()): Promise<void> {
    if (this.#syncing) return this.#syncing
    if (now < this.#retryAt) return Promise.resolve()
    this.#syncing = this.#poll(now)
      .catch((error: unknown) => this.#failed(error))
      .finally(() => {
        this.#syncing = undefined
      })
    return this.#syncing
  }

  async #poll(started: number): Promise<void> {
    const full = !this.#loaded || (!this.#complete && started >= this.#reloadAt)
    const rows = await bounded(() => this.adapter.listSessionRevocations(full ? {} : { since: new Date(this.#syncedAt - OVERLAP_MS) }))
    if (full) {
      // A reload (the feed was past its bound) starts over; the first load keeps what this
      // process revoked meanwhile.
      if (this.#loaded) this.#held.clear()
      this.#complete = true
      this.#loaded = true
    }
    for (const row of rows) this.#add(row, started)
    if (!this.#complete && full) this.#reloadAt = started + RELOAD_MS
    this.#syncedAt = started
    if (started - this.#prunedAt >= PRUNE_MS) this.#prune(started)
  }

  #add(row: AdapterSessionRevocation, now: number): void {
    if (this.#held.add({ kind: row.kind, key: row.key, notBefore: row.notBefore?.getTime(), expires: row.expires.getTime() }, now)) return
    // No room: the feed is incomplete from now on (until a full reload fits).
    if (this.#complete) {
      this.#complete = false
      this.#reloadAt = Date.now() + RELOAD_MS
      this.logger.error(new AdapterError(`More than ${this.maxEntries} live session revocations: this process now asks the database about sessions it does not know (once a second per session); a shared store (RedisStore) avoids it`))
    }
  }

  #prune(now: number): void {
    this.#prunedAt = now
    this.#held.prune(now)
  }

  async #lookUp(sid: string | undefined, userId: string | undefined): Promise<AdapterSessionRevocation[]> {
    const keys = [sid, userId].filter((key): key is string => key !== undefined)
    if (!keys.length || Date.now() < this.#retryAt) return []
    try {
      return await bounded(() => this.adapter.listSessionRevocations({ keys }))
    } catch (error) {
      this.#failed(error)
      return []
    }
  }

  #revoked(sid: string | undefined, userId: string | undefined, createdAt: number, now: number): boolean {
    const verdict = this.#held.verdict(sid, userId, createdAt, now)
    // Past the bound, this sid's spare may be missing here: the database answers (see state()).
    return verdict === "revoked" || (verdict === "unspared" && this.#complete)
  }

  #failed(error: unknown): void {
    const now = Date.now()
    this.#retryAt = now + RETRY_MS
    if (now - this.#lastLogged < LOG_EVERY_MS) return
    this.#lastLogged = now
    this.logger.error(
      new AdapterError("Reading session revocations from the database failed; this process answers from the revocations it knows until the database answers again", { cause: { err: error } }),
    )
  }

  /** For tests and diagnostics: live revocations held, and whether that is all of them. */
  get size(): { entries: number; complete: boolean } {
    return { entries: this.#held.size, complete: this.#complete }
  }
}
