/**
 * MemoryStore, the default state store: fixed windows that start with the first hit, a bounded
 * size (expired entries swept first, then the oldest counters dropped), claims that succeed once
 * per key until they expire, and a full claim store that refuses rather than forgets.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals"
import { MemoryStore, StoreFull } from "../../../lib/shared-store/memory.js"

let now = 1_000_000_000_000
beforeEach(() => {
  now = 1_000_000_000_000
  jest.spyOn(Date, "now").mockImplementation(() => now)
})
afterEach(() => {
  jest.restoreAllMocks()
})

describe("hit: fixed windows", () => {
  it("counts hits in the window that started with the first one, and reports when it ends", async () => {
    const store = new MemoryStore()
    expect(await store.hit("k", 60)).toEqual({ count: 1, resetAt: now + 60_000 })
    const start = now
    now += 30_000
    expect(await store.hit("k", 60)).toEqual({ count: 2, resetAt: start + 60_000 })
    now += 29_999
    expect(await store.hit("k", 60)).toEqual({ count: 3, resetAt: start + 60_000 })
  })

  it("starts a new window once the old one has ended", async () => {
    const store = new MemoryStore()
    await store.hit("k", 60)
    await store.hit("k", 60)
    now += 60_000
    expect(await store.hit("k", 60)).toEqual({ count: 1, resetAt: now + 60_000 })
  })

  it("keeps keys apart, and reset forgets one key only", async () => {
    const store = new MemoryStore()
    await store.hit("a", 60)
    await store.hit("a", 60)
    await store.hit("b", 60)
    await store.reset("a")
    expect((await store.hit("a", 60)).count).toBe(1)
    expect((await store.hit("b", 60)).count).toBe(2)
  })

  it("fractional windows are honoured in milliseconds", async () => {
    const store = new MemoryStore()
    expect((await store.hit("k", 1.5)).resetAt).toBe(now + 1500)
  })
})

describe("claim: once per key until it expires", () => {
  it("the first claim wins, later ones fail until the ttl has passed", async () => {
    const store = new MemoryStore()
    expect(await store.claim("c", 10)).toBe(true)
    expect(await store.claim("c", 10)).toBe(false)
    now += 9_999
    expect(await store.claim("c", 10)).toBe(false)
    now += 1
    expect(await store.claim("c", 10)).toBe(true)
  })

  it("claims and counters do not see each other's keys", async () => {
    const store = new MemoryStore()
    await store.hit("same", 60)
    expect(await store.claim("same", 60)).toBe(true)
    await store.reset("same")
    expect(await store.claim("same", 60)).toBe(false)
  })

  it("concurrent claims of one key: exactly one succeeds", async () => {
    const store = new MemoryStore()
    const answers = await Promise.all(Array.from({ length: 20 }, () => store.claim("c", 60)))
    expect(answers.filter(Boolean)).toHaveLength(1)
  })
})

describe("bounded size and sweeping", () => {
  it("a full store sweeps expired counters before dropping live ones", async () => {
    const store = new MemoryStore(3)
    await store.hit("old", 1)
    await store.hit("live-1", 600)
    await store.hit("live-2", 600)
    await store.hit("live-2", 600)
    now += 2_000
    await store.hit("new", 600)
    expect(store.size).toBe(3)
    // The live counters survived: their counts go on.
    expect((await store.hit("live-2", 600)).count).toBe(3)
    expect((await store.hit("live-1", 600)).count).toBe(2)
  })

  it("when nothing has expired, the oldest counter goes first and the store never grows past its bound", async () => {
    const store = new MemoryStore(3)
    for (const key of ["a", "b", "c"]) await store.hit(key, 600)
    await store.hit("d", 600)
    expect(store.size).toBe(3)
    // "a" was dropped (a new window starts), "b" was kept.
    expect((await store.hit("b", 600)).count).toBe(2)
    for (let i = 0; i < 50; i++) await store.hit(`k${i}`, 600)
    expect(store.size).toBe(3)
  })

  it("issue #12: a flood of new client addresses cannot push an identifier's failure count out (per-address counters go first)", async () => {
    const store = new MemoryStore(100)
    const victim = "rl:credentials:id:victim-hash"
    for (let i = 0; i < 4; i++) await store.hit(victim, 900)
    // 100 000 one-hit counters of new addresses, 1 000 times the bound.
    for (let i = 0; i < 100_000; i++) await store.hit(`rl:credentials:ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 900)
    expect(store.size).toBeLessThanOrEqual(100)
    // The fifth failure is still the fifth: the limiter sees it.
    expect((await store.hit(victim, 900)).count).toBe(5)
  })

  it("issue #12: a flood of new identifiers evicts one-hit counters before an identifier near its limit", async () => {
    const store = new MemoryStore(100)
    const victim = "rl:credentials:id:victim-hash"
    for (let i = 0; i < 4; i++) await store.hit(victim, 900)
    for (let i = 0; i < 10_000; i++) await store.hit(`rl:credentials:id:other-${i}`, 900)
    expect(store.size).toBeLessThanOrEqual(100)
    expect((await store.hit(victim, 900)).count).toBe(5)
  })

  it("a full claim store sweeps expired claims, and refuses new ones (StoreFull) rather than forget live ones", async () => {
    const store = new MemoryStore(2)
    await store.claim("x", 5)
    await store.claim("y", 600)
    await expect(store.claim("z", 600)).rejects.toBeInstanceOf(StoreFull)
    // Still used: the full store did not forget them.
    expect(await store.claim("x", 5)).toBe(false)
    expect(await store.claim("y", 600)).toBe(false)
    now += 6_000
    expect(await store.claim("z", 600)).toBe(true)
    expect(await store.claim("y", 600)).toBe(false)
  })

  it("sweeping counters does not stop the claims from being swept in the same second", async () => {
    const store = new MemoryStore(2)
    await store.claim("x", 1)
    await store.claim("y", 1)
    await store.hit("a", 1)
    await store.hit("b", 1)
    now += 1_500
    // A full counter map is swept first...
    await store.hit("c", 600)
    // ...and the claims, all expired, must still make room for a new one.
    expect(await store.claim("z", 600)).toBe(true)
  })
})

describe("MemoryStore as its own revocation feed (issue #36)", () => {
  it("answers a read at once, without a promise, from the revocations it holds", async () => {
    const { cookieSessionRevoked } = await import("../../../lib/devices/check.js")
    const { resolveConfig } = await import("../../../lib/core/config/resolve.js")
    const { newSessionId } = await import("../../../lib/devices/ids.js")
    const config = resolveConfig({ secret: "memory-feed-test-secret-0123456789abcdef", providers: [], trustHost: true })
    expect(config.store.revocationFeed).toBeDefined()
    const sid = newSessionId(Date.now() - 1000)
    const other = newSessionId(Date.now() - 1000)
    const token = { sub: "u-feed", sid }
    // A cold cache: answered here, a boolean, not a promise.
    expect(cookieSessionRevoked(config, token)).toBe(false)
    await config.store.revokeSid!(sid, 60)
    expect(cookieSessionRevoked(config, token)).toBe(true)
    // A user's "not before" ends their older sessions, except the one it spares.
    await config.store.revokeUser!("u-feed", Date.now(), 60, other)
    expect(cookieSessionRevoked(config, { sub: "u-feed", sid: other })).toBe(false)
    expect(cookieSessionRevoked(config, { sub: "u-feed", sid: newSessionId(Date.now() - 500) })).toBe(true)
    expect(cookieSessionRevoked(config, { sub: "u-feed", sid: newSessionId(Date.now() + 1000) })).toBe(false)
  })
})
