/**
 * The discovery/JWKS cache (lib/outbound/metadata-cache.ts) on its own, with a counting loader
 * instead of a server: single flight, the one-request-a-minute bound, a stale copy served at once
 * while it is refreshed in the background, a reader asking again soon (a key it lacks) waiting
 * for the network, stale copies while the source fails (and not past a day), only JSON 200s
 * kept, and the bound on the number of URLs.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { cachedGet, MAX_ENTRIES, MAX_STALE_MS, MIN_REFETCH_MS, REASK_MS } from "../../../lib/outbound/metadata-cache.js"

const log = jest.fn<(message: string) => void>()
let n = 0
const key = () => `https://issuer-${++n}.example/jwks`
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

afterEach(() => {
  jest.useRealTimers()
  log.mockClear()
})

function at(ms: number) {
  jest.useFakeTimers({ doNotFake: ["nextTick", "queueMicrotask", "setImmediate", "setTimeout", "clearTimeout"], now: ms })
}

describe("the metadata cache", () => {
  it("one load for many concurrent callers, and none again within a minute", async () => {
    const url = key()
    const load = jest.fn(async () => {
      await new Promise((resume) => setTimeout(resume, 20))
      return json({ keys: [1] })
    })
    const answers = await Promise.all(Array.from({ length: 50 }, () => cachedGet(url, load, log)))
    expect(load).toHaveBeenCalledTimes(1)
    expect(await Promise.all(answers.map((answer) => answer.json()))).toEqual(Array(50).fill({ keys: [1] }))
    await cachedGet(url, load, log)
    expect(load).toHaveBeenCalledTimes(1)
  })

  it("after a minute, the copy in hand is served at once to every caller while one load refreshes it; the next caller gets the new copy", async () => {
    const url = key()
    const start = Date.now()
    at(start)
    await cachedGet(url, async () => json({ v: 1 }), log)
    at(start + MIN_REFETCH_MS + 1)
    let release = () => undefined as void
    const load = jest.fn(() => new Promise<Response>((resolve) => (release = () => resolve(json({ v: 2 })))))
    const answers = await Promise.all(Array.from({ length: 20 }, () => cachedGet(url, load, log)))
    expect(await Promise.all(answers.map((answer) => answer.json()))).toEqual(Array(20).fill({ v: 1 }))
    expect(load).toHaveBeenCalledTimes(1)
    release()
    await new Promise((resume) => setImmediate(resume))
    expect(await (await cachedGet(url, load, log)).json()).toEqual({ v: 2 })
    expect(load).toHaveBeenCalledTimes(1)
  })

  it("a background refresh that fails keeps the copy (logged); past a day there is no copy to serve and the caller waits for the load", async () => {
    const url = key()
    const start = Date.now()
    at(start)
    await cachedGet(url, async () => json({ v: 1 }), log)
    at(start + MIN_REFETCH_MS + 1)
    expect(await (await cachedGet(url, async () => json({ error: "down" }, 503), log)).json()).toEqual({ v: 1 })
    at(start + 2 * MIN_REFETCH_MS + 2)
    expect(await (await cachedGet(url, () => Promise.reject(new Error("ECONNREFUSED")), log)).json()).toEqual({ v: 1 })
    await new Promise((resume) => setImmediate(resume))
    expect(log).toHaveBeenCalledTimes(2)
    at(start + MAX_STALE_MS + 1)
    await expect(cachedGet(url, () => Promise.reject(new Error("ECONNREFUSED")), log)).rejects.toThrow("ECONNREFUSED")
  })

  it("a reader asking again within five minutes (a key it lacks) waits for the new copy, at most one load a minute; another reader is answered at once", async () => {
    const url = key()
    const reader = {}
    const start = Date.now()
    at(start)
    await cachedGet(url, async () => json({ v: 1 }), log, reader)
    const load = jest.fn(async () => json({ v: 2 }))
    at(start + 30_000)
    expect(await (await cachedGet(url, load, log, reader)).json()).toEqual({ v: 1 })
    expect(load).not.toHaveBeenCalled()
    at(start + MIN_REFETCH_MS + 1)
    expect(await (await cachedGet(url, load, log, reader)).json()).toEqual({ v: 2 })
    expect(load).toHaveBeenCalledTimes(1)
    at(start + 2 * MIN_REFETCH_MS + 2 + REASK_MS)
    const slow = jest.fn(() => new Promise<Response>(() => undefined))
    expect(await (await cachedGet(url, slow, log, reader)).json()).toEqual({ v: 2 })
    expect(await (await cachedGet(url, slow, log, {})).json()).toEqual({ v: 2 })
    expect(slow).toHaveBeenCalledTimes(1)
  })

  it("keeps only 200 answers in JSON: a 404 or an HTML page is passed on and asked again next time", async () => {
    const url = key()
    const load = jest.fn(async () => new Response("<html>", { status: 200, headers: { "content-type": "text/html" } }))
    expect((await cachedGet(url, load, log)).status).toBe(200)
    await cachedGet(url, load, log)
    expect(load).toHaveBeenCalledTimes(2)
  })

  it(`holds at most ${MAX_ENTRIES} URLs: the oldest is dropped and loaded again`, async () => {
    const first = key()
    const load = jest.fn(async () => json({}))
    await cachedGet(first, load, log)
    for (let i = 0; i < MAX_ENTRIES; i++) await cachedGet(key(), async () => json({}), log)
    await cachedGet(first, load, log)
    expect(load).toHaveBeenCalledTimes(2)
  })
})
