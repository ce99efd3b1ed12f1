/**
 * The revocation records while the shared store fails (README "Sessions and devices"): this
 * process's memory stands in, as for rate limits. A revocation made during the outage holds on the
 * process that made it at once, is answered `RevocationPending` (not confirmed), and is written to
 * the shared store once it answers again (issue #24); reads do not fail (no 500, no 503): a
 * session not revoked here stays signed in. Once the store answers again, it is used again.
 */
import { describe, expect, it } from "@jest/globals"
import { guardedStore } from "../../../lib/shared-store/guarded.js"
import { MemoryStore } from "../../../lib/shared-store/memory.js"
import type { SessionStateStore, StateStore } from "../../../lib/shared-store/types.js"
import type { LoggerInstance } from "../../../lib/types.js"

function failingStore() {
  const inner = new MemoryStore()
  const state = { down: false }
  const run = <T>(work: () => Promise<T>): Promise<T> => (state.down ? Promise.reject(new Error("ECONNREFUSED 127.0.0.1:6390")) : work())
  const store: StateStore & SessionStateStore = {
    hit: (key, window) => run(() => inner.hit(key, window)),
    reset: (key) => run(() => inner.reset(key)),
    claim: (key, ttl) => run(() => inner.claim(key, ttl)),
    putSession: (userId, record) => run(() => inner.putSession(userId, record)),
    listSessions: (userId) => run(() => inner.listSessions(userId)),
    removeSessions: (userId, sids) => run(() => inner.removeSessions(userId, sids)),
    revokeSid: (sid, ttl) => run(() => inner.revokeSid(sid, ttl)),
    revokeUser: (userId, notBefore, ttl, spare) => run(() => inner.revokeUser(userId, notBefore, ttl, spare)),
    revocation: (sid, userId) => run(() => inner.revocation(sid, userId)),
    publish: (message) => run(() => inner.publish(message)),
    subscribe: (listener) => run(() => inner.subscribe(listener)),
  }
  return { store, inner, state }
}

describe("revocation records while the shared store is down", () => {
  it("memory stands in: no failure, local revocations hold, the shared store's own records are used again once it answers", async () => {
    const errors: Error[] = []
    const logger: LoggerInstance = { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} }
    const { store, inner, state } = failingStore()
    const guarded = guardedStore(store, logger)
    await guarded.revokeSid!("before", 60)
    expect(await inner.revocation("before", undefined)).toMatchObject({ revoked: true, notBefore: 0 })

    state.down = true
    await expect(guarded.revokeSid!("during", 60)).rejects.toMatchObject({ type: "RevocationPending" })
    // Answered from this process's memory: what was revoked here during the outage holds.
    expect(await guarded.revocation!("during", undefined)).toMatchObject({ revoked: true, notBefore: 0 })
    expect(await inner.revocation("during", undefined)).toMatchObject({ revoked: false })
    expect(await guarded.listSessions!("u1")).toEqual([])
    expect(errors).toHaveLength(1)
    expect(errors[0]!.name).toBe("AdapterError")

    state.down = false
    // The probe puts the shared store back after its retry delay; until then memory answers.
    let back = false
    for (let attempt = 0; attempt < 60 && !back; attempt++) {
      await new Promise((resume) => setTimeout(resume, 100))
      back = (await guarded.revocation!("before", undefined)).revoked
    }
    expect(back).toBe(true)
    // The revocation kept during the outage was written to the shared store before it was used again.
    expect(await inner.revocation("during", undefined)).toMatchObject({ revoked: true })
    expect(errors).toHaveLength(1)
  }, 15_000)
})
