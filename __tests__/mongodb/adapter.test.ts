/**
 * What MongoDBAdapter does before any query reaches a server: it resolves the client lazily,
 * creates its collection handles once, rejects ids that are not ObjectIds before touching the
 * client, and has every adapter method. The client here is a fake with only the `db()` shape;
 * the queries themselves run against a real server in `npm run test:mongodb`.
 */
import { describe, expect, it, jest } from "@jest/globals"
import type { MongoClient } from "mongodb"
import { MongoDBAdapter } from "../../adapters/mongodb/index.js"
import { once } from "../../adapters/mongodb/adapter.js"
import { compensating } from "../../adapters/mongodb/transactions.js"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { newAccount, newUser } from "../../adapters/test-kit/index.js"
import { adapterMethods } from "../../lib/core/adapter.js"
import { CAPABILITIES } from "../../lib/capabilities.js"

/** Every adapter method Gatehouse calls, the core's and the capabilities'. */
const ADAPTER_METHODS = adapterMethods(CAPABILITIES)

const HEX = "65a1b2c3d4e5f60718293a4b"

/** A stand-in with the MongoClient `db()` shape; every collection finds nothing. */
function fakeClient() {
  const collection = jest.fn((name: string) => ({ collectionName: name, findOne: async () => null }))
  const db = jest.fn((_name?: string) => ({ collection }))
  const connect = jest.fn(async () => undefined)
  return { client: { db, connect } as unknown as MongoClient, db, collection, connect }
}

const tick = () => new Promise((resume) => setImmediate(resume))

describe("MongoDBAdapter without a server", () => {
  it("has every adapter method but lockUser, and transaction", () => {
    const adapter = MongoDBAdapter(fakeClient().client)
    const methods = [...ADAPTER_METHODS.filter((method) => method !== "lockUser"), "transaction"]
    for (const method of methods) expect(typeof (adapter as unknown as Record<string, unknown>)[method]).toBe("function")
    // Without it, Gatehouse serialises removing a user's ways in within each process (README).
    expect("lockUser" in adapter).toBe(false)
  })

  it("does not resolve the client or connect at construction; the handles are made once, on first use", async () => {
    const fake = fakeClient()
    let resolveClient: (client: MongoClient) => void = () => undefined
    const pending = new Promise<MongoClient>((resolve) => (resolveClient = resolve))
    const adapter = MongoDBAdapter(pending, { databaseName: "auth" })
    resolveClient(fake.client)
    await tick()
    expect(fake.db).not.toHaveBeenCalled()

    expect(await adapter.getUser(HEX)).toBeNull()
    expect(await adapter.getSessionAndUser("token")).toBeNull()
    expect(await adapter.getAuthenticator("credential")).toBeNull()
    expect(fake.db).toHaveBeenCalledTimes(1)
    expect(fake.db).toHaveBeenCalledWith("auth")
    expect(fake.collection.mock.calls.map(([name]) => name)).toEqual(["users", "accounts", "sessions", "verification_tokens", "authenticators", "two_factor", "recovery_codes", "passwords", "cookie_sessions", "session_revocations", "organizations", "members", "invitations", "sso_connections", "sso_domains", "scim_tokens", "scim_users", "scim_groups", "user_bans", "api_keys", "oidc_records"])
    expect(fake.connect).not.toHaveBeenCalled()
  })

  it("uses the collection names it is given", async () => {
    const fake = fakeClient()
    const adapter = MongoDBAdapter(fake.client, { collections: { Users: "people", Sessions: "logins" } })
    await adapter.getUser(HEX)
    expect(fake.db).toHaveBeenCalledWith(undefined)
    expect(fake.collection.mock.calls.map(([name]) => name)).toEqual(["people", "accounts", "logins", "verification_tokens", "authenticators", "two_factor", "recovery_codes", "passwords", "cookie_sessions", "session_revocations", "organizations", "members", "invitations", "sso_connections", "sso_domains", "scim_tokens", "scim_users", "scim_groups", "user_bans", "api_keys", "oidc_records"])
  })

  it("a rejected client promise is not an unhandled rejection at construction; calls fail with its error", async () => {
    const adapter = MongoDBAdapter(Promise.reject(new Error("no server")))
    await tick()
    await expect(adapter.getUser(HEX)).rejects.toThrow("no server")
  })

  it("a lookup by an id that cannot be an ObjectId finds nothing, without touching the client", async () => {
    const fake = fakeClient()
    const adapter = MongoDBAdapter(fake.client)
    expect(await adapter.getUser("0b8c2d3e-4f50-4a61-8b72-93a4b5c6d7e8")).toBeNull()
    expect(await adapter.getUser(HEX.toUpperCase())).toBeNull()
    expect(await adapter.listAuthenticatorsByUserId("user-1")).toEqual([])
    await expect(adapter.getUser({ $ne: null } as never)).rejects.toThrow(TypeError)
  })

  it("a write with an id that is not an ObjectId is a TypeError naming it, never a generated id", async () => {
    const fake = fakeClient()
    const adapter = MongoDBAdapter(fake.client)
    await expect(adapter.updateUser({ id: "user-1", name: "x" })).rejects.toThrow(/"user-1" is not a MongoDB ObjectId/)
    await expect(adapter.deleteUser("user-1")).rejects.toThrow(TypeError)
    await expect(adapter.linkAccount(newAccount("user-1"))).rejects.toThrow(TypeError)
    await expect(adapter.createSession({ sessionToken: "t", userId: "user-1", expires: new Date() })).rejects.toThrow(TypeError)
    expect(fake.db).not.toHaveBeenCalled()
  })

  it("a lookup key that is not a string is a TypeError (no operator object reaches a filter)", async () => {
    const fake = fakeClient()
    const adapter = MongoDBAdapter(fake.client)
    const operator = { $ne: null } as unknown as string
    await expect(adapter.getSessionAndUser(operator)).rejects.toThrow(/sessionToken must be a string/)
    await expect(adapter.useVerificationToken({ identifier: "a@example.com", token: operator })).rejects.toThrow(TypeError)
    await expect(adapter.getUserByEmail(operator)).rejects.toThrow(TypeError)
  })
})

describe("once()", () => {
  it("loads once and shares the value; a failure is not remembered", async () => {
    let calls = 0
    const flaky = once(async () => {
      calls++
      if (calls === 1) throw new Error("first attempt")
      return calls
    })
    await expect(flaky()).rejects.toThrow("first attempt")
    expect(await Promise.all([flaky(), flaky()])).toEqual([2, 2])
    expect(await flaky()).toBe(2)
    expect(calls).toBe(2)
  })
})

describe("the fallback transaction of a server without transactions", () => {
  it("when work fails, the users it created are deleted again and the error is rethrown", async () => {
    const store = MemoryAdapter()
    const owner = await store.createUser(newUser())
    const taken = newAccount(owner.id)
    await store.linkAccount(taken)
    const draft = newUser()
    const failure = compensating(store, async (tx) => {
      const created = await tx.createUser!(draft)
      await tx.linkAccount!({ ...taken, userId: created.id })
    })
    await expect(failure).rejects.toThrow(/unique constraint/)
    expect(await store.getUserByEmail(draft.email)).toBeNull()
    expect(await store.getUser(owner.id)).not.toBeNull()
  })

  it("when work succeeds, it returns work's value and keeps everything", async () => {
    const store = MemoryAdapter()
    const draft = newUser()
    const created = await compensating(store, async (tx) => {
      const user = await tx.createUser!(draft)
      await tx.linkAccount!(newAccount(user.id))
      return user
    })
    expect(await store.getUser(created.id)).toEqual(created)
  })
})
