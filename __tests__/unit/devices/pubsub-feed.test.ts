/**
 * Issue #36: the pub/sub feed holds every live revocation of a shared store once the store has
 * listed them while the pub/sub was proven live, and answers "not revoked" from memory only while
 * that proof has held since the listing began. Times are given explicitly; the listing is a
 * function the test resolves or fails (the real one, on Redis, is tested in
 * __tests__/sessions/redis-revocation-feed.test.ts).
 */
import { describe, expect, it } from "@jest/globals"
import { FeedWatch, LIVE_TRUST_MS, OVERDUE_MS } from "../../../lib/devices/feed-watch.js"
import { PubSubRevocationFeed } from "../../../lib/devices/pubsub-feed.js"
import type { HeldRevocation } from "../../../lib/shared-store/revocation-set.js"

const T = 1_800_000_000_000
const DAY = 86_400_000
const parsed = (text: string | null) => JSON.parse(text as string) as Record<string, unknown>

/** A watch whose own heartbeats come back at the times given to `beat`. */
function watchLiveAt(at: number): { watch: FeedWatch; beat(now: number): void } {
  const watch = new FeedWatch("me")
  watch.trusted(at - 5000, at)
  const beat = (now: number) => void watch.receive(parsed(watch.beat(now)), now)
  beat(at)
  return { watch, beat }
}

interface Harness {
  feed: PubSubRevocationFeed
  listings: number
  errors: Error[]
  /** Ends the listing in progress with these rows (or this failure). */
  answer(rows: HeldRevocation[] | Error): Promise<void>
}

function harness(watch: FeedWatch, maxEntries?: number): Harness {
  let pending: { resolve(rows: HeldRevocation[]): void; reject(error: Error): void } | undefined
  const state: Harness = {
    feed: undefined as unknown as PubSubRevocationFeed,
    listings: 0,
    errors: [],
    async answer(rows) {
      const listing = state.feed.listing
      expect(pending).toBeDefined()
      if (rows instanceof Error) pending!.reject(rows)
      else pending!.resolve(rows)
      pending = undefined
      await listing
    },
  }
  state.feed = new PubSubRevocationFeed({
    list: () => {
      state.listings++
      return new Promise((resolve, reject) => {
        pending = { resolve, reject }
      })
    },
    watch,
    lifeMs: () => DAY,
    logger: { error: (error: Error) => void state.errors.push(error) },
    maxEntries,
  })
  return state
}

const rows: HeldRevocation[] = [
  { kind: "session", key: "revoked-sid", expires: T + DAY },
  { kind: "user", key: "bob", notBefore: T - 1000, expires: T + DAY },
  { kind: "spare", key: "bobs-own", notBefore: T - 1000, expires: T + DAY },
  { kind: "session", key: "long-gone", expires: T - 1 },
  // A kind this release does not know (a later one's row): not held, ends nothing.
  { kind: "device" as HeldRevocation["kind"], key: "unknown-kind", notBefore: T + 1000, expires: T + DAY },
]

describe("PubSubRevocationFeed", () => {
  it("lists nothing and answers nothing until the pub/sub is proven live", () => {
    const h = harness(new FeedWatch("me"))
    expect(h.feed.check("any", "alice", T - 5000, T)).toBeUndefined()
    expect(h.listings).toBe(0)
  })

  it("once listed under a live proof, answers every session from memory: listed revocations, a user's 'not before' and the session it spares", async () => {
    const { watch } = watchLiveAt(T)
    const h = harness(watch)
    expect(h.feed.check("new", "alice", T - 5000, T)).toBeUndefined() // starts the listing
    expect(h.listings).toBe(1)
    expect(h.feed.check("new", "alice", T - 5000, T)).toBeUndefined() // one listing at a time
    expect(h.listings).toBe(1)
    await h.answer(rows)
    expect(h.feed.status(T)).toEqual({ entries: 3, complete: true })
    expect(h.feed.check("never-seen", "alice", T - 5000, T + 10)).toBe(false)
    expect(h.feed.check("revoked-sid", "alice", T - 5000, T + 10)).toBe(true)
    expect(h.feed.check("bobs-other", "bob", T - 5000, T + 10)).toBe(true) // before bob's "not before"
    expect(h.feed.check("bobs-own", "bob", T - 5000, T + 10)).toBe(false) // the session that asked
    expect(h.feed.check("bobs-new", "bob", T, T + 10)).toBe(false) // created after it
    expect(h.feed.check("long-gone", "alice", T - 5000, T + 10)).toBe(false) // expired: never held
  })

  it("holds a revocation announced at once, before and after the listing, and keeps one announced while the listing ran", async () => {
    const { watch } = watchLiveAt(T)
    const h = harness(watch)
    h.feed.note({ sid: "early" }, T)
    expect(h.feed.check("early", undefined, T - 5000, T)).toBe(true) // revoked needs no listing
    expect(h.feed.check("other", undefined, T - 5000, T)).toBeUndefined()
    h.feed.note({ user: "carol", notBefore: T, spare: "carols-own" }, T)
    await h.answer([])
    expect(h.feed.check("early", undefined, T - 5000, T + 1)).toBe(true)
    expect(h.feed.check("carols-old", "carol", T - 5000, T + 1)).toBe(true)
    expect(h.feed.check("carols-own", "carol", T - 5000, T + 1)).toBe(false)
    h.feed.note({ sid: "late" }, T + 2)
    expect(h.feed.check("late", undefined, T - 5000, T + 3)).toBe(true)
    // A "not before" of 0 (database sessions dropped) ends no cookie session.
    h.feed.note({ user: "dave", notBefore: 0 }, T + 4)
    expect(h.feed.check("daves", "dave", T - 5000, T + 5)).toBe(false)
  })

  it("stops answering 'not revoked' when a message may have been lost, and trusts again only a listing begun after the new proof", async () => {
    const { watch, beat } = watchLiveAt(T)
    const h = harness(watch)
    h.feed.check("x", undefined, 0, T)
    await h.answer([])
    expect(h.feed.check("x", undefined, 0, T + 100)).toBe(false)
    // Another publisher's sequence skips a number: something was missed.
    watch.receive({ sid: "a", p: "other", n: 1 }, T + 200)
    watch.receive({ sid: "b", p: "other", n: 3 }, T + 300)
    expect(h.feed.check("x", undefined, 0, T + 300)).toBeUndefined()
    expect(h.listings).toBe(1) // not proven again yet: no listing
    beat(T + 400) // own heartbeat back: proven from T + 400
    expect(h.feed.check("x", undefined, 0, T + 450)).toBeUndefined()
    expect(h.listings).toBe(2)
    await h.answer([])
    expect(h.feed.check("x", undefined, 0, T + 500)).toBe(false)
  })

  it("stops answering while its own heartbeat is overdue", async () => {
    const { watch, beat } = watchLiveAt(T)
    const h = harness(watch)
    h.feed.check("x", undefined, 0, T)
    await h.answer([])
    beat(T + 500)
    expect(h.feed.check("x", undefined, 0, T + 500 + OVERDUE_MS - 1)).toBe(false)
    expect(h.feed.check("x", undefined, 0, T + 500 + OVERDUE_MS)).toBeUndefined()
  })

  it("renews its listing in the background at half the trust time, and does not trust one older than LIVE_TRUST_MS", async () => {
    const { watch, beat } = watchLiveAt(T)
    const h = harness(watch)
    h.feed.check("x", undefined, 0, T)
    await h.answer([])
    let now = T
    while (now < T + LIVE_TRUST_MS / 2 - 400) {
      now += 400
      beat(now)
      expect(h.feed.check("x", undefined, 0, now)).toBe(false)
    }
    expect(h.listings).toBe(1)
    now += 400
    beat(now)
    expect(h.feed.check("x", undefined, 0, now)).toBe(false) // still trusted while the renewal runs
    expect(h.listings).toBe(2)
    while (now < T + LIVE_TRUST_MS) {
      now += 400
      beat(now)
    }
    expect(h.feed.check("x", undefined, 0, now)).toBeUndefined() // the renewal never ended
    await h.answer([{ kind: "session", key: "x", expires: now + DAY }])
    expect(h.feed.check("x", undefined, 0, now)).toBe(true) // what the renewal found
    expect(h.feed.check("y", undefined, 0, now)).toBe(false)
    expect(h.listings).toBe(3) // that renewal began at half the trust time: the next one is due
  })

  it("after a failed listing, logs it, keeps asking the store, and lists again two seconds later", async () => {
    const { watch, beat } = watchLiveAt(T)
    const h = harness(watch)
    h.feed.check("x", undefined, 0, T)
    await h.answer(new Error("connection reset"))
    expect(h.errors).toHaveLength(1)
    expect(h.errors[0]!.message).toMatch(/Listing the shared store's session revocations failed/)
    expect(h.feed.check("x", undefined, 0, T + 1000)).toBeUndefined()
    expect(h.listings).toBe(1)
    beat(T + 1500)
    beat(T + 2000)
    h.feed.check("x", undefined, 0, T + 2000)
    expect(h.listings).toBe(2)
    await h.answer([])
    expect(h.feed.check("x", undefined, 0, T + 2001)).toBe(false)
  })

  it("past its bound, says so once, answers only 'revoked' for what it holds, and becomes whole again when a later listing fits", async () => {
    const { watch, beat } = watchLiveAt(T)
    const h = harness(watch, 3)
    h.feed.check("x", undefined, 0, T)
    const many = ["a", "b", "c", "d", "e"].map((key): HeldRevocation => ({ kind: "session", key, expires: T + 10_000 }))
    await h.answer(many)
    expect(h.errors).toHaveLength(1)
    expect(h.errors[0]!.message).toMatch(/More than 3 live session revocations/)
    expect(h.feed.check("a", undefined, 0, T + 1)).toBe(true)
    expect(h.feed.check("e", undefined, 0, T + 1)).toBeUndefined() // not held: the store answers
    expect(h.feed.check("x", undefined, 0, T + 1)).toBeUndefined()
    // A minute later the revocations have expired; the next listing fits.
    let now = T
    while (now < T + 60_000) {
      now += 400
      beat(now)
    }
    h.feed.check("x", undefined, 0, now)
    expect(h.listings).toBe(2)
    await h.answer([{ kind: "session", key: "f", expires: now + 10_000 }])
    expect(h.feed.status(now)).toEqual({ entries: 1, complete: true })
    expect(h.feed.check("x", undefined, 0, now)).toBe(false)
    expect(h.feed.check("f", undefined, 0, now)).toBe(true)
  })
})
