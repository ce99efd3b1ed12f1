/**
 * lib/express/request.ts: what Gatehouse remembers about a request lives in one symbol property,
 * added only when something must be remembered (issue #36: each property added to an Express
 * request costs it a map of its own). The cookies a header memo keeps are not stored at all.
 */
import { describe, expect, it } from "@jest/globals"
import { addState, cookiesOf, stateOf } from "../../../lib/express/request.js"
import { MAX_ENTRIES, parseCookieHeader } from "../../../lib/express/cookie-header.js"
import type { GatehouseRequest } from "../../../lib/express/types.js"

const request = (headers: Record<string, string>, extra: Record<string, unknown> = {}) => ({ headers, ...extra }) as unknown as GatehouseRequest

describe("cookiesOf and the request's state", () => {
  it("a header the memo keeps: the memo's jar, and nothing added to the request", () => {
    const req = request({ cookie: "a=1; b=2" })
    const jar = cookiesOf(req)
    expect(jar).toEqual({ a: "1", b: "2" })
    expect(jar).toBe(parseCookieHeader("a=1; b=2"))
    expect(Object.getOwnPropertySymbols(req)).toEqual([])
    expect(cookiesOf(req)).toBe(jar)
  })

  it("a header too long to keep: parsed once for the request, remembered in its one state property", () => {
    const req = request({ cookie: `big=${"x".repeat(9000)}` })
    const jar = cookiesOf(req)
    expect(jar.big).toHaveLength(9000)
    expect(stateOf(req)?.cookies).toBe(jar)
    expect(cookiesOf(req)).toBe(jar)
    expect(Object.getOwnPropertySymbols(req)).toHaveLength(1)
  })

  it("a header the full memo turned away is also remembered for the request", () => {
    for (let i = 0; i < MAX_ENTRIES + 10; i++) parseCookieHeader(`fill${i}=${i}`)
    const req = request({ cookie: "turned=away; x=1" })
    const jar = cookiesOf(req)
    expect(cookiesOf(req)).toBe(jar)
  })

  it("cookie-parser's req.cookies is used and stays the request's answer", () => {
    const parsed = { a: "from-parser" }
    const req = request({ cookie: "a=from-header" }, { cookies: parsed })
    expect(cookiesOf(req)).toBe(parsed)
    ;(req as unknown as { cookies: unknown }).cookies = { a: "changed" }
    expect(cookiesOf(req)).toBe(parsed)
  })

  it("the state is made once and shared: one symbol property whatever is remembered", () => {
    const req = request({ cookie: `big=${"y".repeat(9000)}` })
    expect(stateOf(req)).toBeUndefined()
    const state = addState(req)
    expect(stateOf(req)).toBe(state)
    cookiesOf(req)
    expect(state.cookies).toBeDefined()
    expect(cookiesOf(req, state)).toBe(state.cookies)
    expect(Object.getOwnPropertySymbols(req)).toHaveLength(1)
  })

  it("requestSession remembers its read in the same state: one property for cookies and session", async () => {
    const { requestSession } = await import("../../../lib/express/session.js")
    const { resolveWith } = await import("../config/support.js")
    const config = resolveWith()
    const req = request({ cookie: `big=${"z".repeat(9000)}` })
    expect(requestSession(req, undefined, config)).toBeNull()
    expect(stateOf(req)?.session).toMatchObject({ config, session: null })
    expect(stateOf(req)?.cookies?.big).toHaveLength(9000)
    expect(Object.getOwnPropertySymbols(req)).toHaveLength(1)
    expect(requestSession(req, undefined, config)).toBeNull()
  })
})
