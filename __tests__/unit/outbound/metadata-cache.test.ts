/**
 * The discovery/JWKS cache (lib/outbound/metadata-cache.ts) on its own, with a counting loader
 * instead of a server: single flight, the one-request-a-minute bound, stale copies while the
 * source fails (and not past a day), only JSON 200s kept, and the bound on the number of URLs.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { cachedGet, MAX_ENTRIES, MAX_STALE_MS, MIN_REFETCH_MS } from "../../../lib/outbound/metadata-cache.js"

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

  it("after a minute, one new load; a failing source serves the last copy (logged), then fails after a day", async () => {
    const url = key()
    const start = Date.now()
    at(start)
    await cachedGet(url, async () => json({ v: 1 }), log)
    at(start + MIN_REFETCH_MS + 1)
    expect(await (await cachedGet(url, async () => json({ v: 2 }), log)).json()).toEqual({ v: 2 })
    at(start + 2 * MIN_REFETCH_MS + 2)
    expect(await (await cachedGet(url, async () => json({ error: "down" }, 503), log)).json()).toEqual({ v: 2 })
    at(start + 3 * MIN_REFETCH_MS + 3)
    expect(await (await cachedGet(url, () => Promise.reject(new Error("ECONNREFUSED")), log)).json()).toEqual({ v: 2 })
    expect(log).toHaveBeenCalledTimes(2)
    at(start + MIN_REFETCH_MS + 1 + MAX_STALE_MS + 1)
    await expect(cachedGet(url, () => Promise.reject(new Error("ECONNREFUSED")), log)).rejects.toThrow("ECONNREFUSED")
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
