/**
 * Every live cookie-session revocation of a shared store (RedisStore on one server), held in this
 * process's memory while the store's pub/sub is proven to deliver (issue #36). With more active
 * sessions than the revocation cache holds, a read of a session not seen lately used to cost a
 * round trip to the store; with this feed it answers from memory.
 *
 * How it stays whole:
 * - the store lists every revocation (`listRevocations`) once the pub/sub is proven live
 *   (lib/devices/feed-watch.ts), and every revocation announced from then on is added as it
 *   arrives. A revocation is written before it is announced, so one the listing missed (written
 *   while it ran) arrives as a message;
 * - the feed answers "not revoked" only while the proof has held since before that listing began.
 *   A message lost (a gap in a publisher's sequence) or a heartbeat overdue moves the proof's start
 *   past it: reads ask the store again until a new listing, started once the proof is back, ends;
 * - a listing older than `LIVE_TRUST_MS` is not trusted (a change made behind Gatehouse's back is
 *   seen within it, as with the revocation cache); a new one starts in the background at half that
 *   age, so steady traffic never waits for one;
 * - past `maxEntries` live revocations the feed holds what fits and answers only "revoked"; a
 *   listing that fits is tried again once a minute.
 *
 * A failed listing is logged (at most once a minute) and tried again after `RETRY_MS`; meanwhile
 * reads ask the store as they would without the feed. Never an error on a read.
 */
import { AdapterError } from "../errors.js"
import type { LoggerInstance } from "../core/logger.js"
import { RevocationSet, type HeldRevocation } from "../shared-store/revocation-set.js"
import type { RevocationFeed } from "../shared-store/types.js"
import { LIVE_TRUST_MS, type FeedWatch } from "./feed-watch.js"

/** A listing is renewed in the background once it is this old. */
const RENEW_MS = LIVE_TRUST_MS / 2
/** A listing that takes longer is given up (and tried again later). */
const LIST_TIMEOUT_MS = 30_000
const RETRY_MS = 2000
/** Past the bound, a listing is tried again this often. */
const OVERFULL_RETRY_MS = 60_000
const LOG_EVERY_MS = 60_000
/** Live revocations held at most. */
export const MAX_PUBSUB_FEED_ENTRIES = 100_000

export interface PubSubFeedOptions {
  /** The store's listing of every live revocation. */
  list: () => Promise<HeldRevocation[]>
  watch: FeedWatch
  /** How long an announced revocation lives (ms): the longest a session may last. */
  lifeMs: () => number
  logger: Pick<LoggerInstance, "error">
  maxEntries?: number
}

export class PubSubRevocationFeed implements RevocationFeed {
  readonly #held: RevocationSet
  /** When the listing in use started (ms); -Infinity before the first. */
  #listedAt = Number.NEGATIVE_INFINITY
  /** Whether that listing held every revocation (not past the bound). */
  #whole = false
  #listing: Promise<void> | undefined
  #retryAt = 0
  #lastLogged = Number.NEGATIVE_INFINITY

  constructor(private readonly options: PubSubFeedOptions) {
    this.#held = new RevocationSet(options.maxEntries ?? MAX_PUBSUB_FEED_ENTRIES)
  }

  check(sid: string | undefined, userId: string | undefined, createdAt: number, now: number): boolean | undefined {
    const verdict = this.#held.verdict(sid, userId, createdAt, now)
    if (verdict === "revoked") return true
    this.options.watch.use(now)
    if (!this.tick(now)) return undefined
    return verdict === "unspared"
  }

  /**
   * Whether the feed holds every live revocation at `now`. Starts a listing when the proof holds
   * and the one in use is not (or soon no longer) trusted: called by each read, and with each
   * heartbeat, so the first listing does not wait for traffic.
   */
  tick(now: number): boolean {
    const since = this.options.watch.provenSince(now)
    const complete = this.#completeSince(since, now)
    if (since !== Number.POSITIVE_INFINITY && (!complete || now - this.#listedAt >= RENEW_MS)) this.#list(now)
    return complete
  }

  /** Whole, listed under the proof that began at `since`, and not older than the trust allows. */
  #completeSince(since: number, now: number): boolean {
    return this.#whole && this.#listedAt >= since && now - this.#listedAt < LIVE_TRUST_MS
  }

  /** A revocation announced (by any process, this one included): held at once. */
  note(revocation: { sid: string } | { user: string; notBefore: number; spare?: string }, now = Date.now()): void {
    const expires = now + this.options.lifeMs()
    if ("sid" in revocation) {
      this.#add({ kind: "session", key: revocation.sid, expires }, now)
      return
    }
    if (revocation.notBefore <= 0) return
    if (revocation.spare !== undefined) this.#add({ kind: "spare", key: revocation.spare, notBefore: revocation.notBefore, expires }, now)
    this.#add({ kind: "user", key: revocation.user, notBefore: revocation.notBefore, expires }, now)
  }

  /** For tests and diagnostics: revocations held, and whether the feed answers "not revoked" at `now`. */
  status(now = Date.now()): { entries: number; complete: boolean } {
    return { entries: this.#held.size, complete: this.#completeSince(this.options.watch.provenSince(now), now) }
  }

  /** The listing in progress, if any (tests). */
  get listing(): Promise<void> | undefined {
    return this.#listing
  }

  #add(row: HeldRevocation, now: number): void {
    if (!this.#held.add(row, now)) this.#overfull(now)
  }

  #list(now: number): void {
    if (this.#listing || now < this.#retryAt) return
    this.#listing = this.#load(now).finally(() => {
      this.#listing = undefined
    })
  }

  async #load(started: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    try {
      const rows = await Promise.race([
        this.options.list(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${LIST_TIMEOUT_MS} ms`)), LIST_TIMEOUT_MS).unref()
        }),
      ])
      // Past the bound last time: start over, so that a listing that now fits makes the feed whole.
      if (!this.#whole && this.#held.size >= this.#held.maxEntries) this.#held.clear()
      this.#whole = true
      this.#listedAt = started
      for (const row of rows) {
        if (!this.#held.add(row, started)) {
          this.#overfull(started)
          break
        }
      }
    } catch (error) {
      this.#retryAt = Math.max(Date.now(), started) + RETRY_MS
      this.#log(new AdapterError("Listing the shared store's session revocations failed; reads ask the store per session until a listing succeeds", { cause: { err: error } }))
    } finally {
      clearTimeout(timer)
    }
  }

  /** No room for one more: the feed is no longer whole; a listing is tried again later. */
  #overfull(now: number): void {
    if (!this.#whole) return
    this.#whole = false
    this.#retryAt = now + OVERFULL_RETRY_MS
    this.#log(new AdapterError(`More than ${this.#held.maxEntries} live session revocations: this process asks the shared store about sessions it has not seen lately`))
  }

  #log(error: Error): void {
    const now = Date.now()
    if (now - this.#lastLogged < LOG_EVERY_MS) return
    this.#lastLogged = now
    this.options.logger.error(error)
  }
}
