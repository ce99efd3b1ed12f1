/**
 * Is this process's pub/sub proven to deliver every revocation right now? While it is, what the
 * process learnt about a session (a revocation answer, a cached database session) can be trusted
 * for up to `LIVE_TRUST_MS` instead of `REVOCATION_REFRESH_MS`: any later revocation would have
 * arrived as a message and dropped it (issue #36: with thousands of active sessions a session comes
 * back every few seconds, and one second of trust meant one round trip per read).
 *
 * Proof, with no trust in the transport's own events:
 * - every message this process publishes carries its publisher id `p` and a sequence number `n`,
 *   and every `BEAT_MS` the process publishes a heartbeat (`{"beat":1,"p":…,"n":…}`);
 * - the stream is live while this process's own latest heartbeat came back less than
 *   `OVERDUE_MS` ago;
 * - a gap in any publisher's sequence (a message lost: the subscription dropped and came back,
 *   as Redis and PostgreSQL clients do on their own) or an own heartbeat that never came back
 *   moves `liveSince` to now: what was learnt before it falls back to the one-second rule.
 *
 * A message lost in a reconnect is noticed by the publisher's next message, at most `BEAT_MS`
 * later; a subscription that stops delivering altogether ends the extension `OVERDUE_MS` after its
 * last heartbeat. Either way a revocation is seen within about a second, as without this. Messages
 * of an older release (no `p`/`n`) are applied but prove nothing.
 */

/** How long an answer is trusted with no proof that the pub/sub delivers: the worst-case delay of a revocation. */
export const REVOCATION_REFRESH_MS = 1000
/**
 * How long an answer is trusted while the pub/sub is proven live. Revocations and changes made
 * through Gatehouse drop an answer at once whatever its age; this bounds how long a change made
 * behind its back (a row edited by hand) can go unseen.
 */
export const LIVE_TRUST_MS = 5 * 60_000
/** One heartbeat per process this often. */
export const BEAT_MS = 500
/** The pub/sub stops counting as live once the own latest heartbeat is this old. */
export const OVERDUE_MS = 1000
/** A publisher not heard of for this long is forgotten (a process that stopped). */
const FORGET_MS = 10_000
/**
 * Heartbeats are sent while this process used the extension (or published) within this window, as
 * long as anything it learnt may still be trusted: a process that stops serving for a while keeps
 * its proof, and with it what it learnt. After that, or once a heartbeat cannot be sent (the store
 * is gone), it sends nothing until it is used again; its next revocation starts them again, so a
 * gap after it is still noticed.
 */
export const IDLE_MS = LIVE_TRUST_MS

interface Heard {
  n: number
  at: number
}

/** A message as published: the revocation's fields, then the publisher and its sequence number. */
export interface Envelope {
  p?: unknown
  n?: unknown
  beat?: unknown
  /** The revocation's own fields (`sid`, `user`, …), not looked at here. */
  [field: string]: unknown
}

export class FeedWatch {
  /** Answers learnt at or after this time may be trusted longer (Infinity: not proven live). */
  #liveSince = Number.POSITIVE_INFINITY
  /** When this process's own latest heartbeat came back. */
  #lastBeat = Number.NEGATIVE_INFINITY
  #sent = 0
  /** When the extension was last asked for, or a message published. */
  #usedAt = Number.NEGATIVE_INFINITY
  readonly #heard = new Map<string, Heard>()

  constructor(readonly id: string) {}

  /** Trust what was learnt at `at` (ms) at `now`? The one-second rule, or longer while proven live. */
  trusted(at: number, now: number): boolean {
    const age = now - at
    if (age < REVOCATION_REFRESH_MS) return true
    this.#usedAt = now
    return age < LIVE_TRUST_MS && at >= this.#liveSince && now - this.#lastBeat < OVERDUE_MS
  }

  /** Since when the pub/sub is proven to have delivered every message (ms), or Infinity while it is not proven live at `now`. */
  provenSince(now: number): number {
    return now - this.#lastBeat < OVERDUE_MS ? this.#liveSince : Number.POSITIVE_INFINITY
  }

  /** Something relies on the proof at `now` (the pub/sub feed answered from it): heartbeats keep going. */
  use(now: number): void {
    this.#usedAt = now
  }

  /** A heartbeat could not be sent: none until this process asks for the extension or publishes again. */
  pause(): void {
    this.#usedAt = Number.NEGATIVE_INFINITY
  }

  /** Is the pub/sub proven live at `now` (tests, diagnostics)? */
  live(now = Date.now()): boolean {
    return this.#liveSince !== Number.POSITIVE_INFINITY && now - this.#lastBeat < OVERDUE_MS
  }

  /** When this process's own latest heartbeat came back (tests, diagnostics). */
  get heardAt(): number {
    return this.#lastBeat
  }

  /** The text to publish for `message`: its fields, stamped with this process's id and next number. */
  stamp(message: object): string {
    this.#usedAt = Date.now()
    return JSON.stringify({ ...message, p: this.id, n: ++this.#sent })
  }

  /** A heartbeat's text, or null when this process is idle (nothing to prove). */
  beat(now = Date.now()): string | null {
    if (now - this.#usedAt > IDLE_MS) return null
    return JSON.stringify({ beat: 1, p: this.id, n: ++this.#sent })
  }

  /**
   * Notes a received message (already parsed). Returns false for a heartbeat (nothing to apply).
   */
  receive(message: Envelope, now: number): boolean {
    const { p, n } = message
    if (typeof p === "string" && typeof n === "number") {
      const heard = this.#heard.get(p)
      if (heard && n > heard.n + 1) this.#lost(now)
      if (!heard || n > heard.n) this.#heard.set(p, { n, at: now })
      else heard.at = now
      if (p === this.id && message.beat !== undefined) this.#ownBeat(heard, n, now)
    }
    return message.beat === undefined
  }

  /** Something may have been missed (a gap, a subscription that failed): prove liveness again from now. */
  reset(now = Date.now()): void {
    this.#lost(now)
  }

  /** Forgets publishers not heard of for a while (called with each heartbeat sent). */
  sweep(now: number): void {
    for (const [p, heard] of this.#heard) if (p !== this.id && now - heard.at > FORGET_MS) this.#heard.delete(p)
  }

  #ownBeat(before: Heard | undefined, n: number, now: number): void {
    // An own heartbeat back late (the loop was busy, or the stream stalled): the stream is only
    // known to be whole from now on. The first one starts the proof.
    if (!before || now - this.#lastBeat >= OVERDUE_MS) this.#liveSince = now
    else if (n !== before.n + 1 && n > before.n) this.#liveSince = now
    this.#lastBeat = now
  }

  #lost(now: number): void {
    this.#liveSince = now
    // Until the next own heartbeat comes back, nothing is proven.
    this.#lastBeat = Number.NEGATIVE_INFINITY
  }
}
