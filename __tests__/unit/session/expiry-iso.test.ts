/**
 * lib/session/expiry.ts `isoSeconds`: `Session.expires` without a Date. It must write exactly what
 * `new Date(seconds * 1000).toISOString()` writes, for every instant, and defer to Date (its
 * result or its RangeError) for what the arithmetic path does not cover.
 */
import { describe, expect, it } from "@jest/globals"
import { isoSeconds } from "../../../lib/session/expiry.js"

const viaDate = (seconds: number) => new Date(seconds * 1000).toISOString()

describe("isoSeconds", () => {
  it("matches toISOString around every year boundary from 1970 to 9999, and around each 28 Feb/1 Mar", () => {
    for (let year = 1970; year <= 9999; year++) {
      const start = Date.UTC(year, 0, 1) / 1000
      const march = Date.UTC(year, 2, 1) / 1000
      for (const seconds of [start - 1, start, start + 1, march - 86_400, march - 1, march, start + 365 * 86_400 - 1]) {
        if (seconds >= 0) expect(isoSeconds(seconds)).toBe(viaDate(seconds))
      }
    }
  })

  it("gets leap days right, including the century rules (2000 and 2400 leap, 2100 and 1900+200 not)", () => {
    for (const [y, m, d] of [[1972, 1, 29], [2000, 1, 29], [2024, 1, 29], [2100, 1, 28], [2100, 2, 1], [2400, 1, 29], [9996, 1, 29]] as const) {
      const seconds = Date.UTC(y, m, d, 23, 59, 59) / 1000
      expect(isoSeconds(seconds)).toBe(viaDate(seconds))
    }
  })

  it("matches toISOString for a day-by-day walk (shifting the second each day) and for random instants", () => {
    for (let seconds = 0; seconds < 253_402_300_800; seconds += 86_399 * 37) expect(isoSeconds(seconds)).toBe(viaDate(seconds))
    for (let i = 0; i < 100_000; i++) {
      const seconds = Math.floor(Math.random() * 253_402_300_800)
      expect(isoSeconds(seconds)).toBe(viaDate(seconds))
    }
  })

  it("leaves fractions, instants before 1970, six-digit years and non-finite values to Date, errors included", () => {
    for (const seconds of [1_764_000_000.5, 0.001, -1, -86_400 * 365 * 200, 253_402_300_799, 253_402_300_800, 8.64e12, -0]) {
      expect(isoSeconds(seconds)).toBe(viaDate(seconds))
    }
    for (const seconds of [8.64e12 + 1, 1e20, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => isoSeconds(seconds)).toThrow(RangeError)
      expect(() => viaDate(seconds)).toThrow(RangeError)
    }
  })
})
