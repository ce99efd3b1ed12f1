/**
 * Issue #36: while the pub/sub is proven to deliver every revocation (own heartbeats come back, no
 * publisher's sequence has a gap), what a process learnt is trusted for up to LIVE_TRUST_MS;
 * otherwise for one second, as before. Times are given explicitly: no clock, no waiting.
 */
import { describe, expect, it } from "@jest/globals"
import { FeedWatch, IDLE_MS, LIVE_TRUST_MS, OVERDUE_MS, REVOCATION_REFRESH_MS } from "../../../lib/devices/feed-watch.js"
import { DatabaseSessionCache } from "../../../lib/devices/database-cache.js"
import { RevocationCache } from "../../../lib/devices/revocation-cache.js"
import { guardedStore } from "../../../lib/shared-store/guarded.js"
import { isHeartbeat, type StateStore } from "../../../lib/shared-store/types.js"
import type { LoggerInstance } from "../../../lib/types.js"

const T = 1_800_000_000_000
const parsed = (text: string | null) => JSON.parse(text as string) as Record<string, unknown>

/** A watch that has seen its own first heartbeat come back at `at`. */
function liveAt(at: number): FeedWatch {
  const watch = new FeedWatch("me")
  watch.trusted(at - 5000, at) // asked for the extension: heartbeats are due
  expect(watch.receive(parsed(watch.beat(at)), at)).toBe(false)
  return watch
}

describe("FeedWatch", () => {
  it("without proof, trusts an answer for one second only", () => {
    const watch = new FeedWatch("me")
    expect(watch.live(T)).toBe(false)
    expect(watch.trusted(T, T + REVOCATION_REFRESH_MS - 1)).toBe(true)
    expect(watch.trusted(T, T + REVOCATION_REFRESH_MS)).toBe(false)
  })

  it("once its own heartbeat came back, trusts what was learnt since for up to LIVE_TRUST_MS while heartbeats keep coming", () => {
    const watch = liveAt(T)
    expect(watch.live(T)).toBe(true)
    // Learnt before the proof started: the one-second rule.
    expect(watch.trusted(T - 1, T + 2000)).toBe(false)
    let now = T
    while (now < T + LIVE_TRUST_MS - 500) {
      now += 400
      expect(watch.receive(parsed(watch.beat(now)), now)).toBe(false)
      expect(watch.trusted(T, now)).toBe(true)
    }
    now += 1000
    watch.receive(parsed(watch.beat(now - 600)), now - 600)
    expect(watch.trusted(T, T + LIVE_TRUST_MS)).toBe(false)
  })

  it("stops trusting longer when its own heartbeat is overdue, and after a late one only trusts what is learnt from then", () => {
    const watch = liveAt(T)
    expect(watch.trusted(T, T + OVERDUE_MS - 1)).toBe(true)
    expect(watch.trusted(T, T + OVERDUE_MS + 1)).toBe(false)
    const late = T + 3000
    watch.receive(parsed(watch.beat(late)), late)
    expect(watch.trusted(T, late + 10)).toBe(false)
    expect(watch.trusted(late, late + 2000 - 10)).toBe(false) // overdue again by then
    watch.receive(parsed(watch.beat(late + 500)), late + 500)
    expect(watch.trusted(late, late + 1400)).toBe(true)
  })

  it("a gap in another publisher's numbers (a lost message) ends the extension of everything learnt before it", () => {
    const watch = liveAt(T)
    expect(watch.receive({ sid: "a", p: "other", n: 1 }, T + 100)).toBe(true)
    expect(watch.receive({ sid: "b", p: "other", n: 2 }, T + 200)).toBe(true)
    watch.receive(parsed(watch.beat(T + 400)), T + 400)
    expect(watch.trusted(T, T + 1200)).toBe(true)
    // n = 3 never arrived.
    expect(watch.receive({ beat: 1, p: "other", n: 4 }, T + 500)).toBe(false)
    expect(watch.trusted(T, T + 1200)).toBe(false)
    // Proven again by the next own heartbeat, from then on.
    watch.receive(parsed(watch.beat(T + 700)), T + 700)
    watch.receive(parsed(watch.beat(T + 1500)), T + 1500)
    expect(watch.trusted(T + 700, T + 1750)).toBe(true)
    expect(watch.trusted(T + 600, T + 1750)).toBe(false)
  })

  it("a gap in its own heartbeats (sent while the subscription was down) ends the extension too", () => {
    const watch = liveAt(T)
    watch.beat(T + 300) // published, never delivered
    watch.receive(parsed(watch.beat(T + 600)), T + 600)
    expect(watch.trusted(T, T + 1500)).toBe(false)
    expect(watch.trusted(T + 600, T + 1500)).toBe(true)
  })

  it("stamps its messages with its id and the next number, sends no heartbeat while idle, and applies messages of an older release", () => {
    const watch = new FeedWatch("me")
    expect(watch.beat(T)).toBeNull()
    const stamped = parsed(watch.stamp({ sid: "s1" }))
    expect(stamped).toEqual({ sid: "s1", p: "me", n: 1 })
    const beat = watch.beat(Date.now())
    expect(beat && isHeartbeat(beat)).toBe(true)
    expect(parsed(beat).n).toBe(2)
    expect(watch.beat(Date.now() + IDLE_MS + 1)).toBeNull()
    // A heartbeat that could not be sent pauses them until the next use.
    watch.trusted(Date.now() - 5000, Date.now())
    watch.pause()
    expect(watch.beat(Date.now())).toBeNull()
    watch.trusted(Date.now() - 5000, Date.now())
    expect(watch.beat(Date.now())).not.toBeNull()
    expect(watch.receive({ sid: "legacy" }, T)).toBe(true)
    expect(watch.live(T)).toBe(false)
  })

  it("forgets publishers it has not heard of for a while (a stopped process is no gap later)", () => {
    const watch = liveAt(T)
    watch.receive({ sid: "a", p: "gone", n: 7 }, T)
    watch.sweep(T + 20_000)
    watch.trusted(T, T + 20_000) // in use again
    // Heard again with a higher number: a new baseline, not a gap.
    watch.receive(parsed(watch.beat(T + 20_000)), T + 20_000)
    watch.receive(parsed(watch.beat(T + 20_400)), T + 20_400)
    watch.receive({ sid: "b", p: "gone", n: 12 }, T + 20_500)
    expect(watch.trusted(T + 20_000, T + 21_200)).toBe(true)
  })
})

describe("the caches follow the watch", () => {
  it("RevocationCache: a 'not revoked' answer is trusted past one second while live, and a revocation announced meanwhile is never undone by a slower answer", () => {
    const watch = liveAt(T)
    const cache = new RevocationCache(undefined, 100, watch)
    cache.learn("sid-1", "user-1", { revoked: false, notBefore: 0 }, T)
    watch.receive(parsed(watch.beat(T + 900)), T + 900)
    watch.receive(parsed(watch.beat(T + 1800)), T + 1800)
    expect(cache.check("sid-1", "user-1", T - 5000, T + 2500)).toBe(false)
    cache.revokeSid("sid-1", T + 2600)
    cache.learn("sid-1", "user-1", { revoked: false, notBefore: 0 }, T + 2000)
    expect(cache.check("sid-1", "user-1", T - 5000, T + 2700)).toBe(true)
  })

  it("DatabaseSessionCache: trusted past one second while live; a read that started before a drop is not kept", () => {
    const watch = liveAt(T)
    const cache = new DatabaseSessionCache(100, watch)
    const entry = { session: { sessionToken: "tok", userId: "u1", expires: new Date(T + 86_400_000) }, user: { id: "u1", email: "a@example.com", emailVerified: null }, sid: "sid-tok" }
    cache.set("tok", entry, T)
    watch.receive(parsed(watch.beat(T + 900)), T + 900)
    watch.receive(parsed(watch.beat(T + 1800)), T + 1800)
    expect(cache.get("tok", T + 2500)?.sid).toBe("sid-tok")
    const started = Date.now() - 10
    cache.dropSid("other")
    cache.set("tok2", { ...entry, sid: "sid-tok2" }, started)
    expect(cache.get("tok2", started + 1)).toBeUndefined()
  })
})

describe("guardedStore and heartbeats", () => {
  const logger = { error: () => undefined, warn: () => undefined, debug: () => undefined } as unknown as LoggerInstance

  it("a heartbeat is never echoed by this process's memory while the shared store fails (that would prove nothing)", async () => {
    const failing: StateStore = {
      hit: () => Promise.reject(new Error("down")),
      reset: () => Promise.reject(new Error("down")),
      claim: () => Promise.reject(new Error("down")),
      putSession: () => Promise.reject(new Error("down")),
      listSessions: () => Promise.reject(new Error("down")),
      removeSessions: () => Promise.reject(new Error("down")),
      revokeSid: () => Promise.reject(new Error("down")),
      revokeUser: () => Promise.reject(new Error("down")),
      revocation: () => Promise.reject(new Error("down")),
      publish: () => Promise.reject(new Error("down")),
      subscribe: async () => undefined,
    } as StateStore
    const guarded = guardedStore(failing, logger)
    const heard: string[] = []
    await guarded.subscribe!((message) => heard.push(message))
    await guarded.publish!('{"beat":1,"p":"me","n":1}')
    await guarded.publish!('{"sid":"s1","p":"me","n":2}')
    await new Promise((resume) => setImmediate(resume))
    expect(heard).toEqual(['{"sid":"s1","p":"me","n":2}'])
  })

  it("a store without session methods gets this process's memory for pub/sub, marked as reaching no other process", () => {
    const minimal = { hit: async () => ({ count: 1, resetAt: 0 }), reset: async () => undefined, claim: async () => true } as unknown as StateStore
    expect(guardedStore(minimal, logger).sharedPubSub).toBe(false)
  })
})
