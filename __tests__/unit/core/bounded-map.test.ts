/**
 * Issue #36: bounded caches make room a sixteenth at a time (one walk past V8's holes, not one per
 * insert), never holding more than their bound, the oldest going first.
 */
import { describe, expect, it } from "@jest/globals"
import { makeRoom } from "../../../lib/core/bounded-map.js"

describe("makeRoom", () => {
  it("does nothing below the bound", () => {
    const map = new Map([["a", 1]])
    makeRoom(map, 2)
    expect([...map.keys()]).toEqual(["a"])
  })

  it("at the bound, removes the oldest sixteenth (at least one), in insertion order", () => {
    const small = new Map([["a", 1], ["b", 2], ["c", 3]])
    makeRoom(small, 3)
    expect([...small.keys()]).toEqual(["b", "c"])
    const big = new Map(Array.from({ length: 64 }, (_, i) => [`k${i}`, i] as const))
    const evicted: string[] = []
    makeRoom(big, 64, (key) => evicted.push(key))
    expect(evicted).toEqual(["k0", "k1", "k2", "k3", "k4"])
    expect(big.size).toBe(59)
  })

  it("keeps any number of inserts within the bound, the newest always kept", () => {
    const map = new Map<number, number>()
    for (let i = 0; i < 100_000; i++) {
      map.delete(i)
      makeRoom(map, 1000)
      map.set(i, i)
      if (map.size > 1000) throw new Error(`held ${map.size}`)
    }
    expect(map.has(99_999)).toBe(true)
    expect(map.has(0)).toBe(false)
    expect(map.size).toBeGreaterThan(1000 - 1000 / 16 - 1)
  })

  it("a bound shrunk below the size removes down to it in one call", () => {
    const map = new Map(Array.from({ length: 50 }, (_, i) => [i, i] as const))
    makeRoom(map, 10)
    expect(map.size).toBeLessThan(10)
    expect(map.has(49)).toBe(true)
  })
})
