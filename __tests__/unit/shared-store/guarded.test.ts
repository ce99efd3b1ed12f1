/**
 * guardedStore (FAULT-06 policy): a configured store is used while it answers; when it fails or
 * does not answer within 1 s, this process's memory stands in, an AdapterError is logged at most
 * once a minute, and the shared store is used again once it answers.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { assertStore, guardedStore } from "../../../lib/shared-store/guarded.js"
import { MemoryStore } from "../../../lib/shared-store/memory.js"
import type { StateStore } from "../../../lib/shared-store/types.js"
import { AdapterError, InvalidOption } from "../../../lib/errors.js"
import type { LoggerInstance } from "../../../lib/types.js"

type Mode = "ok" | "reject" | "hang"

/** A store that works (in memory), throws, or never answers, as the test says; it counts its calls. */
function controllable() {
  const inner = new MemoryStore()
  const state = { mode: "ok" as Mode, calls: 0 }
  const run = <T>(work: () => Promise<T>): Promise<T> => {
    state.calls++
    if (state.mode === "reject") return Promise.reject(new Error("ECONNREFUSED 127.0.0.1:6390"))
    if (state.mode === "hang") return new Promise<T>(() => {})
    return work()
  }
  const store: StateStore = {
    hit: (key, window) => run(() => inner.hit(key, window)),
    reset: (key) => run(() => inner.reset(key)),
    claim: (key, ttl) => run(() => inner.claim(key, ttl)),
  }
  return { store, inner, state }
}

function logger() {
  const errors: Error[] = []
  const instance: LoggerInstance = { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} }
  return { errors, instance }
}

afterEach(() => {
  jest.restoreAllMocks()
})

/** Lets a background probe finish. */
const settle = () => new Promise((resume) => setImmediate(resume))

describe("guardedStore", () => {
  it("uses the configured store while it answers", async () => {
    const { store, inner } = controllable()
    const { errors, instance } = logger()
    const guarded = guardedStore(store, instance)
    await guarded.hit("k", 60)
    expect((await guarded.hit("k", 60)).count).toBe(2)
    expect((await inner.hit("k", 60)).count).toBe(3)
    expect(await guarded.claim("c", 60)).toBe(true)
    expect(await inner.claim("c", 60)).toBe(false)
    expect(errors).toEqual([])
  })

  it("the memory store is used as it is (nothing to guard)", () => {
    const memory = new MemoryStore()
    expect(guardedStore(memory, logger().instance)).toBe(memory)
  })

  it("a failing store: memory stands in for counting, claims fail closed (StoreUnavailable, issue #12), one AdapterError is logged", async () => {
    const { store, state } = controllable()
    const { errors, instance } = logger()
    const guarded = guardedStore(store, instance)
    state.mode = "reject"
    const counts = []
    for (let i = 0; i < 5; i++) counts.push((await guarded.hit("k", 60)).count)
    expect(counts).toEqual([1, 2, 3, 4, 5])
    // A single use checked in this process alone could be replayed on another: refused.
    await expect(guarded.claim("c", 60)).rejects.toMatchObject({ type: "StoreUnavailable" })
    await expect(guarded.claim("c", 60)).rejects.toMatchObject({ type: "StoreUnavailable" })
    await guarded.reset("k")
    expect((await guarded.hit("k", 60)).count).toBe(1)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toBeInstanceOf(AdapterError)
    expect(errors[0]!.message).toMatch(/shared state store failed/)
    expect(String((errors[0]!.cause as { err?: Error }).err?.message)).toContain("ECONNREFUSED")
  })

  it("a store that never answers: each call falls back within about a second", async () => {
    const { store, state } = controllable()
    const { errors, instance } = logger()
    const guarded = guardedStore(store, instance)
    state.mode = "hang"
    const started = Date.now()
    const [a, b] = await Promise.all([guarded.hit("k", 60), guarded.hit("k", 60)])
    expect(Date.now() - started).toBeLessThan(1500)
    expect([a.count, b.count].sort()).toEqual([1, 2])
    expect(errors).toHaveLength(1)
    expect(String((errors[0]!.cause as { err?: Error }).err?.message)).toMatch(/no answer within/)
  })

  it("logs again after a minute of failures, not before", async () => {
    let now = 1_000_000_000_000
    jest.spyOn(Date, "now").mockImplementation(() => now)
    const { store, state } = controllable()
    const { errors, instance } = logger()
    const guarded = guardedStore(store, instance)
    state.mode = "reject"
    for (let i = 0; i < 30; i++) {
      await guarded.hit(`k${i}`, 60)
      now += 1_000
    }
    expect(errors).toHaveLength(1)
    now += 31_000
    await guarded.hit("k", 60)
    await settle()
    await guarded.hit("k", 60)
    await settle()
    expect(errors).toHaveLength(2)
  })

  it("goes back to the shared store once it answers again", async () => {
    let now = 1_000_000_000_000
    jest.spyOn(Date, "now").mockImplementation(() => now)
    const { store, inner, state } = controllable()
    const guarded = guardedStore(store, logger().instance)
    state.mode = "reject"
    await guarded.hit("k", 600)
    await guarded.hit("k", 600)
    state.mode = "ok"
    now += 10_000
    // The first call after the outage is answered locally and starts a probe; once it is answered, the shared store counts again.
    await guarded.hit("first", 600)
    await settle()
    await guarded.hit("shared", 600)
    expect((await inner.hit("shared", 600)).count).toBe(2)
  })

  it("while the store is known to be down, calls do not wait for it each time", async () => {
    const { store, state } = controllable()
    const guarded = guardedStore(store, logger().instance)
    state.mode = "hang"
    await guarded.hit("k", 60)
    const calls = state.calls
    const started = Date.now()
    for (let i = 0; i < 5; i++) await guarded.hit("k", 60)
    expect(Date.now() - started).toBeLessThan(1000)
    // Nor are they sent to it (a client would queue them all until it reconnects).
    expect(state.calls).toBe(calls)
  })

  it("while it is down, the shared store is probed in the background, not by the requests", async () => {
    let now = 1_000_000_000_000
    jest.spyOn(Date, "now").mockImplementation(() => now)
    const { store, inner, state } = controllable()
    const guarded = guardedStore(store, logger().instance)
    state.mode = "reject"
    await guarded.hit("k", 600)
    const calls = state.calls
    now += 1_000
    await guarded.hit("k", 600)
    expect(state.calls).toBe(calls)
    now += 1_500
    await guarded.hit("k", 600)
    await settle()
    // One probe after 2 s, and it changes nothing in the shared store.
    expect(state.calls).toBe(calls + 1)
    state.mode = "ok"
    now += 2_500
    expect((await guarded.hit("k", 600)).count).toBe(4)
    await settle()
    expect((await guarded.hit("k", 600)).count).toBe(1)
    expect(inner.size).toBe(1)
  })
})

describe("assertStore", () => {
  it("accepts undefined and anything with hit, reset and claim", () => {
    expect(assertStore(undefined)).toBeUndefined()
    const memory = new MemoryStore()
    expect(assertStore(memory)).toBe(memory)
  })

  it("refuses other values with InvalidOption naming the missing methods", () => {
    for (const value of [null, 42, "redis://127.0.0.1", {}, { hit: () => {}, reset: () => {} }]) {
      expect(() => assertStore(value)).toThrow(InvalidOption)
    }
    expect(() => assertStore({ hit: () => {}, reset: () => {} })).toThrow(/missing claim/)
  })
})
