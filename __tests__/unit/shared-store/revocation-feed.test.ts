/**
 * The revocation feed of the adapter store (lib/shared-store/revocation-feed.ts), on a MemoryAdapter with
 * the clock under the test's control: "not revoked" only while the last poll is under a second
 * old; a revocation written late (stamped before the previous poll) is still picked up; past its
 * bound the feed says it is incomplete and asks the database per session; the memory adapter keeps
 * a user's newest 100 cookie-session records.
 */
import { randomUUID } from "node:crypto"
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter } from "../../../adapters/memory/index.js"
import { MAX_RECORDS_PER_USER } from "../../../adapters/memory/cookie-sessions.js"
import type { AdapterSessionRevocation } from "../../../lib/adapters.js"
import { AdapterRevocationFeed, FEED_FRESH_MS, OVERLAP_MS } from "../../../lib/shared-store/revocation-feed.js"

afterEach(() => {
  jest.restoreAllMocks()
})

function clock() {
  let now = Date.now()
  jest.spyOn(Date, "now").mockImplementation(() => now)
  return { now: () => now, advance: (ms: number) => void (now += ms) }
}

const revocation = (key: string, createdAt: number, overrides: Partial<AdapterSessionRevocation> = {}): AdapterSessionRevocation => ({
  id: randomUUID(),
  kind: "session",
  key,
  notBefore: null,
  createdAt: new Date(createdAt),
  expires: new Date(createdAt + 3_600_000),
  ...overrides,
})

const quiet = { error: () => undefined }

describe("AdapterRevocationFeed", () => {
  it("answers 'not revoked' only while its last poll is under a second old; then a read catches up first", async () => {
    const time = clock()
    const adapter = MemoryAdapter()
    const feed = new AdapterRevocationFeed(adapter, quiet)
    expect(feed.check("sid-a", "user-a", 0, time.now())).toBeUndefined()
    expect(await feed.state("sid-a", "user-a")).toEqual({ revoked: false, notBefore: 0, spared: 0 })
    expect(feed.check("sid-a", "user-a", 0, time.now())).toBe(false)
    await adapter.addSessionRevocation(revocation("sid-a", time.now()))
    time.advance(FEED_FRESH_MS - 1)
    expect(feed.check("sid-a", "user-a", 0, time.now())).toBe(false) // within the bound: not yet seen
    time.advance(1)
    expect(feed.check("sid-a", "user-a", 0, time.now())).toBeUndefined()
    expect(await feed.state("sid-a", "user-a")).toEqual({ revoked: true, notBefore: 0, spared: 0 })
    expect(feed.check("sid-a", "user-a", 0, time.now())).toBe(true)
  })

  it("a user's 'not before' revokes the sessions that started before it, not those after", async () => {
    const time = clock()
    const adapter = MemoryAdapter()
    const feed = new AdapterRevocationFeed(adapter, quiet)
    await adapter.addSessionRevocation(revocation("user-b", time.now(), { kind: "user", notBefore: new Date(time.now() - 10) }))
    await feed.state(undefined, "user-b")
    expect(feed.check("sid-old", "user-b", time.now() - 20, time.now())).toBe(true)
    expect(feed.check("sid-new", "user-b", time.now(), time.now())).toBe(false)
  })

  it("a revocation committed late, stamped before the previous poll, is still seen (polls look back)", async () => {
    const time = clock()
    const adapter = MemoryAdapter()
    const feed = new AdapterRevocationFeed(adapter, quiet)
    await feed.sync()
    const stamped = time.now() - OVERLAP_MS / 2
    time.advance(FEED_FRESH_MS)
    await adapter.addSessionRevocation(revocation("sid-late", stamped))
    await feed.sync()
    expect(feed.check("sid-late", undefined, 0, time.now())).toBe(true)
  })

  it("past its bound the feed is incomplete: unknown sessions are looked up in the database", async () => {
    const time = clock()
    const adapter = MemoryAdapter()
    const errors: unknown[] = []
    const feed = new AdapterRevocationFeed(adapter, { error: (error) => errors.push(error) }, 3)
    for (const key of ["s1", "s2", "s3", "s4", "s5"]) await adapter.addSessionRevocation(revocation(key, time.now()))
    await feed.sync()
    expect(feed.size).toEqual({ entries: 3, complete: false })
    expect(errors).toHaveLength(1)
    const unknown = ["s1", "s2", "s3", "s4", "s5"].find((key) => feed.check(key, undefined, 0, time.now()) === undefined)!
    expect(unknown).toBeDefined()
    expect(await feed.state(unknown, undefined)).toEqual({ revoked: true, notBefore: 0, spared: 0 })
    expect(await feed.state("never-revoked", undefined)).toEqual({ revoked: false, notBefore: 0, spared: 0 })
  })
})

describe("MemoryAdapter cookie-session records", () => {
  it(`keeps a user's newest ${MAX_RECORDS_PER_USER} records`, async () => {
    const adapter = MemoryAdapter()
    const now = Date.now()
    for (let i = 0; i < MAX_RECORDS_PER_USER + 20; i++) {
      await adapter.putCookieSession({ sid: `sid-${i}`, userId: "busy", createdAt: new Date(now + i), lastSeenAt: new Date(now + i), expires: new Date(now + 3_600_000), userAgent: null, ip: null })
    }
    const listed = await adapter.listCookieSessions("busy")
    expect(listed).toHaveLength(MAX_RECORDS_PER_USER)
    expect(listed.map((record) => record.sid)).not.toContain("sid-0")
    expect(listed.map((record) => record.sid)).toContain(`sid-${MAX_RECORDS_PER_USER + 19}`)
  })
})
