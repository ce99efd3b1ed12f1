/**
 * What every RedisStore must do whatever client it is given (a single server, a Cluster, a
 * Sentinel-backed client): registered as Jest tests by `storeContract(label, make)`, where `make`
 * gives two stores on the same Redis (two "processes") sharing a fresh prefix. Keys are many and
 * spread (several users, sids and counters), so on a cluster they land on every primary and any
 * multi-key command across slots would fail with CROSSSLOT.
 */
import { randomBytes } from "node:crypto"
import { expect, it } from "@jest/globals"
import type { StateStore } from "../../../lib/shared-store/types.js"

type Full = Required<Omit<StateStore, "revocationFeed">>

export function storeContract(label: string, make: () => Promise<[StateStore, StateStore]>): void {
  const pair = async () => (await make()) as unknown as [Full, Full]
  const id = () => randomBytes(6).toString("hex")

  it(`${label}: hit counts per key in its window; reset forgets one key`, async () => {
    const [a, b] = await pair()
    const keys = Array.from({ length: 12 }, () => `rl:${id()}`)
    for (const key of keys) {
      expect((await a.hit(key, 60)).count).toBe(1)
      const second = await b.hit(key, 60)
      expect(second.count).toBe(2)
      expect(second.resetAt).toBeGreaterThan(Date.now() + 50_000)
    }
    await a.reset(keys[0]!)
    expect((await b.hit(keys[0]!, 60)).count).toBe(1)
    expect((await b.hit(keys[1]!, 60)).count).toBe(3)
  })

  it(`${label}: claim is single use across both stores, also when raced`, async () => {
    const [a, b] = await pair()
    for (let i = 0; i < 12; i++) {
      const key = `claim:${id()}`
      const answers = await Promise.all([a.claim(key, 60), b.claim(key, 60), a.claim(key, 60), b.claim(key, 60)])
      expect(answers.filter(Boolean)).toHaveLength(1)
      expect(await b.claim(key, 60)).toBe(false)
    }
  })

  it(`${label}: values are shared`, async () => {
    const [a, b] = await pair()
    const key = `value:${id()}`
    expect(await b.getValue(key)).toBeNull()
    await a.putValue(key, "sealed", 60)
    expect(await b.getValue(key)).toBe("sealed")
  })

  it(`${label}: sessions are recorded, listed and removed for many users`, async () => {
    const [a, b] = await pair()
    const now = Date.now()
    for (let i = 0; i < 6; i++) {
      const userId = `user-${id()}`
      const sids = [`sid-${id()}`, `sid-${id()}`]
      for (const sid of sids) await a.putSession(userId, { sid, createdAt: now, lastSeenAt: now, expires: now + 60_000, userAgent: "contract/1", ip: null }, 60)
      expect((await b.listSessions(userId)).map((record) => record.sid).sort()).toEqual([...sids].sort())
      await b.removeSessions(userId, [sids[0]!])
      expect((await a.listSessions(userId)).map((record) => record.sid)).toEqual([sids[1]])
    }
  })

  it(`${label}: revocations: a sid, a user's "not before" and the sid it spares, read in one call`, async () => {
    const [a, b] = await pair()
    for (let i = 0; i < 6; i++) {
      const userId = `user-${id()}`
      const [sid, spare] = [`sid-${id()}`, `sid-${id()}`]
      expect(await b.revocation(sid, userId)).toEqual({ revoked: false, notBefore: 0, spared: 0 })
      await a.revokeSid(sid, 60)
      expect((await b.revocation(sid, userId)).revoked).toBe(true)
      const notBefore = Date.now()
      await a.revokeUser(userId, notBefore, 60, spare)
      expect(await b.revocation(spare, userId)).toEqual({ revoked: false, notBefore, spared: notBefore })
      expect(await b.revocation(`sid-${id()}`, userId)).toEqual({ revoked: false, notBefore, spared: 0 })
      // Never moves back.
      await b.revokeUser(userId, notBefore - 1000, 60)
      expect((await a.revocation(undefined, userId)).notBefore).toBe(notBefore)
      expect(await a.revocation(sid, undefined)).toEqual({ revoked: true, notBefore: 0, spared: 0 })
    }
  })

  it(`${label}: a published message reaches the other store's subscriber`, async () => {
    const [a, b] = await pair()
    const received: string[] = []
    await b.subscribe((message) => received.push(message))
    const message = `hello-${id()}`
    // The subscription may take a moment to be in place on the channel's node: publish until heard.
    for (let attempt = 0; attempt < 100 && !received.includes(message); attempt++) {
      await a.publish(message)
      await new Promise((resume) => setTimeout(resume, 20))
    }
    expect(received).toContain(message)
  })
}
