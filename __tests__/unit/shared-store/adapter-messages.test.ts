/**
 * The default store (no `store` configured) relays its publish and subscribe through an adapter
 * that has `publishSessionMessage` and `subscribeSessionMessages` (issue #36: PostgreSQL's
 * LISTEN/NOTIFY), and keeps everything else as before: for database sessions a MemoryStore (its
 * `revocationFeed` too), for cookie sessions the adapter-backed store. Through the core's wrapper,
 * a failure of either method is an AdapterError.
 */
import { describe, expect, it, jest } from "@jest/globals"
import type { Adapter } from "../../../lib/adapters.js"
import { adapterMethods, wrapAdapter } from "../../../lib/core/adapter.js"
import { CAPABILITIES } from "../../../lib/capabilities.js"
import { AdapterError } from "../../../lib/errors.js"
import { defaultStore } from "../../../lib/shared-store/adapter-sessions.js"
import { MemoryStore } from "../../../lib/shared-store/memory.js"
import type { LoggerInstance } from "../../../lib/types.js"

const logger = { error: jest.fn(), warn: jest.fn(), debug: jest.fn() } as unknown as LoggerInstance
const warn = jest.fn()

function relaying() {
  const listeners: Array<(message: string) => void> = []
  const published: string[] = []
  const adapter: Adapter = {
    publishSessionMessage: jest.fn(async (message: string) => {
      published.push(message)
    }),
    subscribeSessionMessages: jest.fn(async (listener: (message: string) => void) => {
      listeners.push(listener)
    }),
  }
  return { adapter, listeners, published }
}

const cookieSessions = (): Adapter => ({
  putCookieSession: async () => undefined,
  listCookieSessions: async () => [],
  deleteCookieSessions: async () => undefined,
  addSessionRevocation: async () => undefined,
  listSessionRevocations: async () => [],
})

describe("the default store with an adapter that relays session messages", () => {
  it("database sessions: a MemoryStore whose publish and subscribe go through the adapter, the rest its own", async () => {
    const { adapter, listeners, published } = relaying()
    const store = defaultStore(adapter, "database", logger, warn, false)
    expect(store).toBeInstanceOf(MemoryStore)
    expect(store.revocationFeed).toBeDefined()
    expect(store.sharedPubSub).toBe(true)
    const heard: string[] = []
    await store.subscribe!((message) => heard.push(message))
    await store.publish!('{"sid":"s1"}')
    // Nothing is delivered locally: the adapter brings every message back, this process's own too.
    expect(published).toEqual(['{"sid":"s1"}'])
    expect(heard).toEqual([])
    listeners[0]!('{"sid":"s1"}')
    expect(heard).toEqual(['{"sid":"s1"}'])
    expect(await store.hit("k", 60)).toMatchObject({ count: 1 })
    expect(await store.claim("c", 60)).toBe(true)
    await store.revokeSid!("s2", 60)
    expect((await store.revocation!("s2", undefined)).revoked).toBe(true)
  })

  it("cookie sessions with the cookie-session methods: the adapter-backed store, relayed the same way", async () => {
    const { adapter, published } = relaying()
    const store = defaultStore({ ...cookieSessions(), ...adapter }, "cookie", logger, warn, false)
    expect(store).not.toBeInstanceOf(MemoryStore)
    expect(store.sharedPubSub).toBe(true)
    await store.publish!('{"user":"u","notBefore":1}')
    expect(published).toEqual(['{"user":"u","notBefore":1}'])
    expect(adapter.subscribeSessionMessages).not.toHaveBeenCalled()
    await store.subscribe!(() => undefined)
    expect(adapter.subscribeSessionMessages).toHaveBeenCalledTimes(1)
  })

  it("without both methods: as before (local MemoryStore pub/sub; no-op for the adapter-backed store)", async () => {
    const only = { publishSessionMessage: jest.fn(async () => undefined) }
    const store = defaultStore(only, "database", logger, warn, false)
    expect(store.sharedPubSub).toBeUndefined()
    const heard: string[] = []
    await store.subscribe!((message) => heard.push(message))
    await store.publish!("m")
    expect(heard).toEqual(["m"])
    expect(only.publishSessionMessage).not.toHaveBeenCalled()
    const cookie = defaultStore(cookieSessions(), "cookie", logger, warn, false)
    expect(cookie.sharedPubSub).toBe(false)
    await expect(cookie.publish!("m")).resolves.toBeUndefined()
  })
})

describe("the core's adapter wrapper", () => {
  it("passes both methods through, a failure becoming an AdapterError", async () => {
    // Not among the methods every full adapter has (the memory and MongoDB adapters lack them), yet wrapped.
    const methods = adapterMethods(CAPABILITIES)
    expect(methods).not.toContain("publishSessionMessage")
    const { adapter, listeners } = relaying()
    const wrapped = wrapAdapter(adapter, logger, methods)
    const listener = () => undefined
    await wrapped.subscribeSessionMessages!(listener)
    expect(listeners).toEqual([listener])
    const failing = wrapAdapter({ publishSessionMessage: async () => Promise.reject(new Error("connection refused")) }, logger, methods)
    const error = await failing.publishSessionMessage!("m").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AdapterError)
    expect((error as AdapterError).message).toBe("adapter.publishSessionMessage failed")
  })
})
