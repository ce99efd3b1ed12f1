/**
 * API keys (issue #31) on memory, SQLite and PostgreSQL: a user makes a key (shown once, stored as
 * a hash), uses it on routes that take keys (`auth.via: "apiKey"`), and is refused by scope, by
 * expiry, after revocation, on a session-only route, with a malformed, huge or unknown key, and
 * once its owner is banned; an organization's key acts in its organization with its scopes as
 * permissions; each key is rate limited with `RateLimit-*` headers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import request from "supertest"
import { buildKeyApp, engine, keyClient, keyHolder, refusal, signIn, storedUser, type EngineName, type KeyApp } from "./support.js"
import { keyHash } from "../../lib/api-keys/format.js"

const REAL_TIMERS = ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"] as const

afterEach(() => {
  jest.useRealTimers()
})

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` })

describe.each<EngineName>(["memory", "sqlite", "postgres"])("API keys on %s", (name) => {
  const store = engine(name, "key")
  let t: KeyApp
  beforeAll(async () => {
    await store.open()
    t = buildKeyApp(store.adapter())
  }, 60_000)
  afterAll(async () => {
    await store.close()
  })

  const get = (path: string, headers: Record<string, string> = {}) => request(t.app).get(path).set("Host", "app.test").set("Accept", "application/json").set(headers)

  it("makes a key shown once, stored only as its hash, that signs requests in as its owner", async () => {
    const owner = await keyHolder(t, "owner")
    const made = await owner.keys("create", { name: "CI deploys", scopes: ["read"], expiresIn: 86400 })
    expect(made.status).toBe(200)
    expect(made.headers["cache-control"]).toBe("no-store")
    const key = made.body.key as string
    expect(key).toMatch(/^gk_[0-9A-Za-z]{46}$/)
    expect(made.body.apiKey).toMatchObject({ name: "CI deploys", scopes: ["read"], owner: "user", userId: owner.id, start: key.slice(0, 7), lastUsedAt: null })
    const stored = await t.adapter.getApiKeyByHash!(keyHash(key))
    expect(stored?.id).toBe(made.body.apiKey.id)
    expect(JSON.stringify(stored)).not.toContain(key)
    const listed = await owner.get("/auth/api-keys")
    expect(JSON.stringify(listed.body)).not.toContain(key)
    expect(listed.body.keys.map((each: { id: string }) => each.id)).toContain(made.body.apiKey.id)

    const used = await get("/api/any", bearer(key))
    expect(used.status).toBe(200)
    expect(used.body.auth).toMatchObject({ via: "apiKey", user: { email: owner.email }, apiKey: { id: made.body.apiKey.id, owner: "user", userId: owner.id, scopes: ["read"] } })
    expect(used.headers["ratelimit-limit"]).toBe("600")
    expect(Number(used.headers["ratelimit-remaining"])).toBeLessThan(600)
    expect((await get("/api/only", bearer(key))).status).toBe(200)
    // The session says it is one.
    expect((await owner.get("/api/any")).body.auth.via).toBe("session")
    expect(t.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: "api_key.created", keyId: made.body.apiKey.id, userId: owner.id, actorId: owner.id })]))
    expect(JSON.stringify(t.auditRecords)).not.toContain(key)
  })

  it("refuses what the key may not do: a missing scope, a session-only route, step-up, a session on a keys-only route", async () => {
    const owner = await keyHolder(t, "scoped")
    const key = (await owner.keys("create", { name: "read only", scopes: ["read"] })).body.key as string
    const write = await get("/api/write", bearer(key))
    expect(write.status).toBe(403)
    expect(write.body).toEqual(refusal("InsufficientScope"))
    expect(String(write.headers["www-authenticate"])).toContain("insufficient_scope")
    const sessionOnly = await get("/session-only", bearer(key))
    expect(sessionOnly.status).toBe(401)
    expect(sessionOnly.body).toEqual(refusal("SessionRequired"))
    expect((await get("/api/recent", bearer(key))).status).toBe(403)
    // Gatehouse's own actions never take a key.
    const account = await get("/auth/api-keys", bearer(key))
    expect(account.status).toBe(401)
    const onlyKeys = await owner.get("/api/only")
    expect(onlyKeys.status).toBe(401)
    expect(onlyKeys.body).toEqual(refusal("ApiKeyRequired"))
    const writer = await owner.keys("create", { name: "writer", scopes: ["read", "write"] })
    expect((await get("/api/write", bearer(writer.body.key))).status).toBe(200)
    const unknownScope = await owner.keys("create", { name: "admin", scopes: ["admin"] })
    expect(unknownScope.status).toBe(403)
    expect(unknownScope.body).toEqual(refusal("InsufficientScope"))
  })

  it("refuses malformed, huge, unknown and look-alike keys with named errors, never a 500", async () => {
    const owner = await keyHolder(t, "shapes")
    const key = (await owner.keys("create", { name: "real" })).body.key as string
    const lookAlike = `${key.slice(0, 20)}${"A".repeat(key.length - 26)}`
    const cases: Array<Record<string, string>> = [
      bearer("not-a-key"),
      bearer(""),
      { Authorization: "Bearer" },
      { Authorization: `Bearer ${key} extra` },
      bearer("x".repeat(10_000)),
      bearer(`${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`),
      bearer(lookAlike),
      bearer(key.toLowerCase()),
      { Authorization: `Bearer ${key}\u0000` },
    ]
    for (const headers of cases) {
      const answer = await get("/api/any", headers).catch((error: Error) => ({ status: 0, body: { thrown: error.message } }))
      // A NUL in a header is refused by the HTTP client before it is sent.
      if (answer.status === 0 && headers.Authorization?.includes("\u0000")) continue
      expect(answer.status).toBe(401)
      expect(answer.body).toEqual(refusal("ApiKeyInvalid"))
    }
    // Past Node's header limit the server itself answers 431, never the route.
    expect((await get("/api/any", bearer("x".repeat(20_000)))).status).toBe(431)
    // Basic auth is no key: the route reads the session (none): SessionRequired.
    expect((await get("/api/any", { Authorization: "Basic dXNlcjpwYXNz" })).body).toEqual(refusal("SessionRequired"))
  })

  it("an expired key is refused with ApiKeyExpired", async () => {
    const owner = await keyHolder(t, "expiring")
    const key = (await owner.keys("create", { name: "short", expiresIn: 120 })).body.key as string
    expect((await get("/api/any", bearer(key))).status).toBe(200)
    jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: Date.now() + 121_000 })
    const late = await get("/api/any", bearer(key))
    expect(late.status).toBe(401)
    expect(late.body).toEqual(refusal("ApiKeyExpired"))
  })

  it("a revoked key is refused at once; another user cannot revoke it", async () => {
    const owner = await keyHolder(t, "revoker")
    const other = await keyHolder(t, "stranger")
    const made = (await owner.keys("create", { name: "soon gone" })).body
    expect((await get("/api/any", bearer(made.key))).status).toBe(200)
    const foreign = await other.keys("revoke", { keyId: made.apiKey.id })
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual(refusal("ApiKeyNotFound"))
    expect((await get("/api/any", bearer(made.key))).status).toBe(200)
    expect((await owner.keys("revoke", { keyId: made.apiKey.id })).body).toMatchObject({ revoked: true })
    const gone = await get("/api/any", bearer(made.key))
    expect(gone.status).toBe(401)
    expect(gone.body).toEqual(refusal("ApiKeyInvalid"))
    expect((await owner.keys("revoke", { keyId: made.apiKey.id })).status).toBe(404)
    expect(t.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: "api_key.revoked", keyId: made.apiKey.id, actorId: owner.id })]))
  })

  it("banning the owner refuses their keys; the first use is recorded once", async () => {
    const owner = await keyHolder(t, "banned")
    const key = (await owner.keys("create", { name: "to ban" })).body.key as string
    expect((await get("/api/any", bearer(key))).status).toBe(200)
    const adminUser = await storedUser(t.adapter, "root")
    t.adminIds.add(adminUser.id)
    const admin = keyClient(await signIn(t.app, adminUser))
    const csrf = (await admin.agent.get("/auth/csrf")).body.csrfToken
    expect((await admin.agent.post("/auth/admin/ban").set("Accept", "application/json").send({ csrfToken: csrf, userId: owner.id })).status).toBe(200)
    const refused = await get("/api/any", bearer(key))
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual(refusal("UserBanned"))
    await new Promise((resume) => setTimeout(resume, 50))
    const firstUses = t.events.filter((event) => event.type === "api_key.first_used" && event.userId === owner.id)
    expect(firstUses).toHaveLength(1)
  })

  it("an organization's key acts in its organization with its scopes as permissions; a member without organization:update cannot make one", async () => {
    const owner = await keyHolder(t, "orgowner")
    const created = await owner.agent.post("/auth/organizations/create").set("Accept", "application/json").send({ csrfToken: (await owner.agent.get("/auth/csrf")).body.csrfToken, name: "Acme", slug: `acme-${Math.random().toString(36).slice(2, 8)}` })
    const organizationId = created.body.organization.id as string
    const made = await owner.keys("create", { name: "deploy bot", organizationId, scopes: ["project:write"] })
    expect(made.status).toBe(200)
    expect(made.body.apiKey).toMatchObject({ owner: "organization", organizationId, userId: null, createdBy: owner.id })
    const used = await get("/api/projects", bearer(made.body.key))
    expect(used.status).toBe(200)
    expect(used.body.auth.organization).toMatchObject({ id: organizationId, permissions: ["project:write"] })
    const readOnly = await owner.keys("create", { name: "reader", organizationId, scopes: ["project:read"] })
    expect((await get("/api/projects", bearer(readOnly.body.key))).body).toEqual(refusal("PermissionDenied"))
    const outsider = await keyHolder(t, "outsider")
    expect((await outsider.keys("create", { name: "x", organizationId })).body).toEqual(refusal("OrganizationNotFound"))
    // A user's own key is in no organization.
    const own = (await owner.keys("create", { name: "mine" })).body.key as string
    expect((await get("/api/projects", bearer(own))).body).toEqual(refusal("OrganizationRequired"))
    const listed = await owner.get(`/auth/api-keys?organizationId=${organizationId}`)
    expect(listed.body.keys.map((key: { name: string }) => key.name)).toEqual(["deploy bot", "reader"])
  })

  it("a key's requests are limited, with RateLimit headers and 429 RateLimited past the limit", async () => {
    const limited = buildKeyApp(t.adapter, { apiKeys: { rateLimit: { limit: 3, window: 60 } } })
    const owner = keyClient(await signIn(limited.app, await storedUser(t.adapter, "limited")))
    const key = (await owner.keys("create", { name: "busy" })).body.key as string
    const call = () => request(limited.app).get("/api/any").set("Host", "app.test").set(bearer(key))
    const remaining = []
    for (let i = 0; i < 3; i++) remaining.push((await call()).headers["ratelimit-remaining"])
    expect(remaining).toEqual(["2", "1", "0"])
    const over = await call()
    expect(over.status).toBe(429)
    expect(over.body).toEqual(refusal("RateLimited"))
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0)
  })

  it("creating a key needs a recent sign-in", async () => {
    const owner = await keyHolder(t, "stale")
    jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: Date.now() + 11 * 60_000 })
    const stale = await owner.keys("create", { name: "late" })
    expect(stale.status).toBe(403)
    expect(stale.body).toEqual(refusal("RecentSignInRequired"))
  })
})

describe("a session never looks like a key", () => {
  it("whatever the callbacks return, a session says via: session and has no apiKey", async () => {
    const { MemoryAdapter } = await import("../../adapters/memory/index.js")
    const forged = buildKeyApp(MemoryAdapter(), {
      extra: {
        callbacks: {
          session: ({ session }: { session: Record<string, unknown> }) => ({ ...session, via: "apiKey", apiKey: { id: "forged", scopes: ["write"] } }),
        },
      } as never,
    })
    const owner = keyClient(await signIn(forged.app, await storedUser(forged.adapter, "forger")))
    const me = (await owner.get("/api/any")).body.auth
    expect(me.via).toBe("session")
    expect(me.apiKey).toBeUndefined()
    expect((await owner.get("/api/write")).status).toBe(200)
  })
})
