/**
 * RedisStore on ioredis (the other client RedisStore documents): commands through `call`, and the
 * subscriber path (`subscribe(channel)` and the "message" event, on `client.duplicate()`). Two
 * configuration objects stand for two processes, each with its own ioredis client and subscriber
 * on one real Redis: a session revoked on A reads as signed out on B with the clock frozen, so
 * only the pushed message can end B's cached "not revoked" answer.
 */
import { randomBytes } from "node:crypto"
import { afterAll, afterEach, describe, expect, it, jest } from "@jest/globals"
import { Redis } from "ioredis"
import { createClient } from "redis"
import type { Express } from "express"
import { RedisStore } from "../../lib/shared-store/redis.js"
import type { StateStore } from "../../lib/shared-store/types.js"
import { makeApp, signInAs, testConfig } from "../helpers/app.js"
import { agentFor } from "../database/engines.js"
import { REDIS_URL, sessionCookieHeader } from "./setups.js"

const prefix = `gh14-ioredis:${randomBytes(4).toString("hex")}:`
const clients: Redis[] = []
afterEach(() => {
  jest.restoreAllMocks()
})
afterAll(async () => {
  const [first] = clients
  if (first) {
    const keys = await first.keys(`${prefix}*`)
    if (keys.length) await first.del(...keys)
  }
  for (const client of clients.splice(0)) client.disconnect()
})

/** One "process": an ioredis client and its duplicate as the subscriber. */
function ioredisStore(): StateStore {
  const client = new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 })
  const subscriber = client.duplicate()
  clients.push(client, subscriber)
  return RedisStore({ client, prefix, subscriber })
}

const status = async (app: Express, cookie: string) => (await agentFor(app).get("/api/me").set("Accept", "application/json").set("Cookie", cookie)).status

describe("RedisStore with ioredis", () => {
  it("stores, lists and revokes through ioredis's call, and pushes messages to the other store's subscriber", async () => {
    const [a, b] = [ioredisStore(), ioredisStore()]
    const received: string[] = []
    await b.subscribe!((message) => received.push(message))
    const now = Date.now()
    await a.putSession!("user-io", { sid: "sid-io-000000000000000000", createdAt: now, lastSeenAt: now, expires: now + 60_000, userAgent: "io/1.0", ip: null }, 60)
    expect(await b.listSessions!("user-io")).toEqual([expect.objectContaining({ sid: "sid-io-000000000000000000", userAgent: "io/1.0" })])
    await a.revokeSid!("sid-io-000000000000000000", 60)
    expect(await b.revocation!("sid-io-000000000000000000", "user-io")).toEqual({ revoked: true, notBefore: 0, spared: 0 })
    await a.publish!("hello from A")
    for (let attempt = 0; attempt < 100 && !received.length; attempt++) await new Promise((resume) => setTimeout(resume, 5))
    expect(received).toEqual(["hello from A"])
    // The pub/sub feed's listing (issue #36) through ioredis's call: SCAN, then the values and lives.
    await a.revokeUser!("user-io", now, 60, "sid-io-kept")
    const listed = await b.listRevocations!()
    expect(listed.map(({ kind, key, notBefore }) => ({ kind, key, notBefore })).sort((x, y) => x.kind.localeCompare(y.kind))).toEqual([
      { kind: "session", key: "sid-io-000000000000000000", notBefore: undefined },
      { kind: "spare", key: "sid-io-kept", notBefore: now },
      { kind: "user", key: "user-io", notBefore: now },
    ])
    for (const row of listed) expect(row.expires).toBeGreaterThan(now + 50_000)
    expect((await a.hit("io-counter", 60)).count).toBe(1)
    expect(await a.claim("io-claim", 60)).toBe(true)
    expect(await b.claim("io-claim", 60)).toBe(false)
  })

  it("a session revoked on A reads as signed out on B at once (pushed), without the clock moving", async () => {
    const [A, B] = [makeApp(testConfig({ store: ioredisStore() })), makeApp(testConfig({ store: ioredisStore() }))]
    const agent = agentFor(A)
    const signedIn = await signInAs(agent, "alice")
    expect(signedIn.status).toBe(302)
    const cookie = sessionCookieHeader(signedIn)
    const frozen = Date.now()
    jest.spyOn(Date, "now").mockImplementation(() => frozen)
    expect(await status(B, cookie)).toBe(200) // B holds "not revoked" in its cache from here on
    const csrfToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
    const sessions = (await agent.get("/auth/sessions").set("Accept", "application/json").expect(200)).body as Array<{ id: string; current: boolean }>
    await agent.post("/auth/sessions/revoke").set("Accept", "application/json").type("form").send({ csrfToken, id: sessions.find((entry) => entry.current)!.id }).expect(200)
    let seen = 200
    for (let attempt = 0; attempt < 100 && seen === 200; attempt++) {
      await new Promise((resume) => setTimeout(resume, 5))
      seen = await status(B, cookie)
    }
    expect(seen).toBe(401)
  })
})

describe("RedisStore waitForReplicas (issue #34), on the one server here (no replicas)", () => {
  it("a claim or a revocation is not answered unreplicated: with no replica to acknowledge it, it fails (ioredis and node-redis)", async () => {
    const io = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 })
    clients.push(io)
    const node = await createClient({ url: REDIS_URL }).connect()
    try {
      for (const client of [io, node]) {
        const store = RedisStore({ client, prefix, waitForReplicas: { replicas: 1, timeoutMs: 20 } })
        const key = `wait-${randomBytes(4).toString("hex")}`
        await expect(store.claim(key, 60)).rejects.toThrow(/0 of 1 replicas acknowledged the write within 20 ms/)
        await expect(store.revokeSid!(`sid-${key}`, 60)).rejects.toMatchObject({ name: "ReplicasShortfall" })
        // The write itself reached the primary: a second claim is refused, not accepted twice.
        expect(await RedisStore({ client, prefix }).claim(key, 60)).toBe(false)
        // Counting and reads never wait.
        expect((await store.hit(`count-${key}`, 60)).count).toBe(1)
      }
    } finally {
      node.destroy()
    }
  })

  it("refuses a malformed waitForReplicas when the store is made", () => {
    const client = new Redis(REDIS_URL, { lazyConnect: true })
    for (const waitForReplicas of [{ replicas: 0, timeoutMs: 100 }, { replicas: 1, timeoutMs: 0 }, { replicas: 1.5, timeoutMs: 100 }]) {
      expect(() => RedisStore({ client, waitForReplicas })).toThrow(/waitForReplicas must be/)
    }
  })
})
