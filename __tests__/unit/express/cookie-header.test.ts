/**
 * lib/express/cookie-header.ts: a Cookie header is parsed once and the result shared by the next
 * requests that send the same header. What they get is exactly `cookie`'s parse, and read only.
 */
import { describe, expect, it } from "@jest/globals"
import { parse } from "cookie"
import { MAX_CHARS, MAX_ENTRIES, cookieHeaderMemo, parseCookieHeader } from "../../../lib/express/cookie-header.js"

describe("parseCookieHeader", () => {
  it("gives what cookie's parse gives, percent-decoding, first of a repeated name and all", () => {
    for (const header of ["", "a=1", "a=1; b=x%7Cy; a=2", "  c = %E2%82%AC ;d=\"q\"; bad; e=%ZZ", "authjs.session-token.0=x; authjs.session-token.1=y"]) {
      expect({ ...parseCookieHeader(header) }).toEqual({ ...parse(header) })
    }
  })

  it("the same header (even another string with the same text) gives the same frozen jar", () => {
    const header = "authjs.csrf-token=abc%7Cdef; authjs.session-token=eyJhbGciOi"
    const first = parseCookieHeader(header)
    expect(parseCookieHeader(Buffer.from(header).toString())).toBe(first)
    expect(Object.isFrozen(first)).toBe(true)
    expect(() => {
      ;(first as Record<string, string>)["authjs.session-token"] = "other"
    }).toThrow(TypeError)
    expect(parseCookieHeader(header)["authjs.session-token"]).toBe("eyJhbGciOi")
  })

  it("a header above 8 kB is parsed every time, not kept", () => {
    const header = `big=${"x".repeat(9000)}`
    const first = parseCookieHeader(header)
    expect(first.big).toHaveLength(9000)
    expect(parseCookieHeader(header)).not.toBe(first)
    expect(parseCookieHeader(header)).toEqual(first)
  })

  it(`holds at most ${MAX_ENTRIES} headers and about ${MAX_CHARS} characters; once full, keeps one new header in a few (issue #36)`, () => {
    const header = (i: number) => `authjs.session-token=${String(i).padStart(500, "0")}`
    const first = Array.from({ length: MAX_ENTRIES + 800 }, (_, i) => parseCookieHeader(header(i)))
    const memo = cookieHeaderMemo()
    expect(memo.entries).toBeLessThanOrEqual(MAX_ENTRIES)
    expect(memo.chars).toBeLessThanOrEqual(MAX_CHARS)
    // The newest headers: a few were kept (the same jar again), most were not (parsed again, equal).
    const newest = Array.from({ length: 80 }, (_, k) => MAX_ENTRIES + 800 - 80 + k)
    const again = newest.map((i) => parseCookieHeader(header(i)))
    const kept = again.filter((jar, k) => jar === first[newest[k] as number]).length
    expect(kept).toBeGreaterThan(0)
    expect(kept).toBeLessThan(newest.length / 2)
    again.forEach((jar, k) => expect(jar["authjs.session-token"]).toBe(String(newest[k]).padStart(500, "0")))
  })
})

