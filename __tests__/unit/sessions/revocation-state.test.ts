/**
 * The revocation state, unit by unit: the per-process cache (what it may answer without the
 * store, and for how long), the memory store's records and revocations, and the same methods on
 * RedisStore against the real Redis.
 */
import { afterAll, describe, expect, it } from "@jest/globals"
import { RevocationCache, REVOCATION_REFRESH_MS } from "../../../lib/devices/revocation-cache.js"
import { MAX_SESSIONS_PER_USER, MemorySessionState } from "../../../lib/shared-store/memory-sessions.js"
import { newSessionId, sessionIdTime } from "../../../lib/devices/ids.js"
import type { SessionStateStore, StoredSession } from "../../../lib/shared-store/types.js"
import { redisStore } from "../../sessions/setups.js"

describe("RevocationCache", () => {
  const t0 = 1_800_000_000_000
  it("knows nothing at first: the store must be asked", () => {
    expect(new RevocationCache().check("sid-1", "user-1", t0 - 5000, t0)).toBeUndefined()
  })

  it("trusts a 'not revoked' answer for one second, then asks again", () => {
    const cache = new RevocationCache()
    cache.learn("sid-1", "user-1", { revoked: false, notBefore: 0 }, t0)
    expect(cache.check("sid-1", "user-1", t0 - 5000, t0 + REVOCATION_REFRESH_MS - 1)).toBe(false)
    expect(cache.check("sid-1", "user-1", t0 - 5000, t0 + REVOCATION_REFRESH_MS)).toBeUndefined()
  })

  it("a revoked sid, or a 'not before' later than the session's start, is revoked for good", () => {
    const cache = new RevocationCache()
    cache.revokeSid("sid-1", t0)
    expect(cache.check("sid-1", "user-1", t0 - 5000, t0 + 3_600_000)).toBe(true)
    cache.noteUser("user-2", t0, t0)
    expect(cache.check("sid-2", "user-2", t0 - 1, t0 + 3_600_000)).toBe(true)
    // A session started at or after "not before" is not touched by it.
    cache.learn("sid-3", "user-2", { revoked: false, notBefore: t0 }, t0)
    expect(cache.check("sid-3", "user-2", t0, t0 + 10)).toBe(false)
  })

  it("issue #24: a 'not before' that spares one session ends every other one; learnt from the store about another session, it asks", () => {
    const cache = new RevocationCache()
    // Announced by "sign out everywhere else": which session it spares is known.
    cache.spare("sid-keep", t0, t0)
    cache.noteUser("user-1", t0, t0, "sid-keep")
    expect(cache.check("sid-other", "user-1", t0 - 10, t0 + 10)).toBe(true)
    expect(cache.check("sid-keep", "user-1", t0 - 10, t0 + 10)).not.toBe(true)
    // A later "not before" (revokeUserSessions) ends the spared one too.
    cache.noteUser("user-1", t0 + 20, t0 + 20, null)
    expect(cache.check("sid-keep", "user-1", t0 - 10, t0 + 30)).toBe(true)
    // Learnt from the store's answer about sid-x: whether sid-y is spared is not known here.
    cache.learn("sid-x", "user-2", { revoked: false, notBefore: t0, spared: 0 }, t0)
    expect(cache.check("sid-y", "user-2", t0 - 10, t0 + 10)).toBeUndefined()
    cache.learn("sid-y", "user-2", { revoked: false, notBefore: t0, spared: t0 }, t0 + 10)
    expect(cache.check("sid-y", "user-2", t0 - 10, t0 + 20)).toBe(false)
    cache.learn("sid-z", "user-2", { revoked: false, notBefore: t0, spared: 0 }, t0 + 10)
    expect(cache.check("sid-z", "user-2", t0 - 10, t0 + 20)).toBe(true)
  })

  it("'not before' never moves back", () => {
    const cache = new RevocationCache()
    cache.noteUser("user-1", t0, t0)
    cache.noteUser("user-1", t0 - 60_000, t0)
    expect(cache.check(undefined, "user-1", t0 - 1, t0)).toBe(true)
  })
})

describe("session ids", () => {
  it("carry their creation time and 96 random bits", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newSessionId(1_800_000_000_123)))
    expect(ids.size).toBe(1000)
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{24}$/)
      expect(sessionIdTime(id)).toBe(1_800_000_000_123)
    }
    expect(sessionIdTime("short")).toBeUndefined()
  })
})

function record(sid: string, expires: number): StoredSession {
  return { sid, createdAt: Date.now(), lastSeenAt: Date.now(), expires, userAgent: "UA", ip: "192.0.2.1" }
}

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers.splice(0)) await close()
})

describe.each([
  ["MemorySessionState", async (): Promise<SessionStateStore> => new MemorySessionState()],
  [
    "RedisStore",
    async (): Promise<SessionStateStore> => {
      const redis = await redisStore()
      closers.push(redis.close)
      return redis.store as SessionStateStore
    },
  ],
])("%s session methods", (_name, make) => {
  it("lists a user's live records only, and forgets removed ones", async () => {
    const store = await make()
    const later = Date.now() + 3_600_000
    await store.putSession("u1", record("a", later), 3600)
    await store.putSession("u1", record("b", later), 3600)
    await store.putSession("u1", record("gone", Date.now() - 1), 3600)
    await store.putSession("u2", record("c", later), 3600)
    expect((await store.listSessions("u1")).map((r) => r.sid).sort()).toEqual(["a", "b"])
    await store.removeSessions("u1", ["a"])
    expect((await store.listSessions("u1")).map((r) => r.sid)).toEqual(["b"])
    expect(await store.listSessions("nobody")).toEqual([])
    expect((await store.listSessions("u1"))[0]).toEqual(expect.objectContaining({ sid: "b", userAgent: "UA", ip: "192.0.2.1", expires: later }))
  })

  it("revocation: a revoked sid, and a user's 'not before' that never moves back", async () => {
    const store = await make()
    expect(await store.revocation("s1", "u1")).toEqual({ revoked: false, notBefore: 0, spared: 0 })
    await store.revokeSid("s1", 60)
    await store.revokeUser("u1", 2000, 60)
    await store.revokeUser("u1", 1000, 60)
    expect(await store.revocation("s1", "u1")).toEqual({ revoked: true, notBefore: 2000, spared: 0 })
    expect(await store.revocation("s2", undefined)).toEqual({ revoked: false, notBefore: 0, spared: 0 })
  })
})

describe("MemorySessionState bounds", () => {
  it("keeps the newest sessions of one user for listing (a user signing in 10 000 times does not grow memory without bound)", async () => {
    const store = new MemorySessionState()
    const later = Date.now() + 3_600_000
    for (let i = 0; i < 10_000; i++) await store.putSession("u1", record(`s${i}`, later))
    const listed = (await store.listSessions("u1")).map((r) => r.sid)
    expect(listed).toHaveLength(MAX_SESSIONS_PER_USER)
    expect(listed).toContain("s9999")
    expect(listed).not.toContain("s0")
  })
})
