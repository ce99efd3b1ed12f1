/**
 * How long a revocation can take to reach another process (README "Sessions and devices"): with
 * pub/sub (RedisStore with a subscriber) at once; without it, at worst one second, the life of a
 * "not revoked" answer in each process's cache. Two configuration objects stand for two
 * processes (each has its own caches), sharing one Redis store (cookie sessions) or one adapter
 * (database sessions). The clock is frozen, then moved past the bound: no timing is measured.
 */
import { afterAll, afterEach, describe, expect, it, jest } from "@jest/globals"
import type { Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { AuthConfig } from "../../lib/types.js"
import type { StateStore } from "../../lib/shared-store/types.js"
import { REVOCATION_REFRESH_MS } from "../../lib/devices/revocation-cache.js"
import { RedisStore } from "../../lib/shared-store/redis.js"
import { runtimeOf } from "../../lib/devices/runtime.js"
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { makeApp, testConfig } from "../helpers/app.js"
import { agentFor } from "../database/engines.js"
import { redisClient, redisStore, signedInAlice, type Client } from "./setups.js"

type Agent = ReturnType<typeof agentFor>
const closers: Array<() => Promise<void>> = []
afterEach(() => {
  jest.restoreAllMocks()
})
afterAll(async () => {
  for (const close of closers.splice(0)) await close()
})

/** Two "processes": two configuration objects with the same secret and shared storage. */
function twoProcesses(shared: Partial<AuthConfig>): [Express, Express] {
  return [makeApp(testConfig({ ...shared })), makeApp(testConfig({ ...shared }))]
}

const status = async (app: Express, cookie: string) => (await agentFor(app).get("/api/me").set("Accept", "application/json").set("Cookie", cookie)).status


/** B's answer once the pushed revocation had time to land (polled, at most about half a second): 200 while it has not. */
async function statusOnceRevoked(app: Express, cookie: string): Promise<number> {
  let seen = 200
  for (let attempt = 0; attempt < 100 && seen === 200; attempt++) {
    await new Promise((resume) => setTimeout(resume, 5))
    seen = await status(app, cookie)
  }
  return seen
}

async function revokeOwn(agent: Agent): Promise<void> {
  const csrfToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
  const sessions = (await agent.get("/auth/sessions").set("Accept", "application/json").expect(200)).body as Array<{ id: string; current: boolean }>
  const id = sessions.find((entry) => entry.current)!.id
  const response = await agent.post("/auth/sessions/revoke").set("Accept", "application/json").type("form").send({ csrfToken, id })
  expect(response.status).toBe(200)
}

function freezeClock(): { advance(ms: number): void } {
  let now = Date.now()
  jest.spyOn(Date, "now").mockImplementation(() => now)
  return { advance: (ms) => void (now += ms) }
}

async function plainRedisStore(): Promise<StateStore> {
  const client: Client = await redisClient()
  const prefix = `gh14-bound:${Math.random().toString(36).slice(2)}:`
  closers.push(async () => {
    const keys = await client.keys(`${prefix}*`)
    if (keys.length) await client.del(keys)
    client.destroy()
  })
  return RedisStore({ client, prefix })
}

const storages: Array<[string, () => Promise<Partial<AuthConfig>>]> = [
  ["cookie sessions, RedisStore without a subscriber", async () => ({ store: await plainRedisStore() })],
  ["database sessions, one adapter, no shared store", async () => ({ adapter: MemoryAdapter(), session: { strategy: "database" } })],
]

describe.each(storages)("without pub/sub (%s): the other process sees a revocation after at most one second", (_label, storage) => {
  it("reads as signed out once the one-second cache has passed, never later", async () => {
    expect(REVOCATION_REFRESH_MS).toBe(1000)
    const [A, B] = twoProcesses(await storage())
    const { agent, cookie } = await signedInAlice(A)
    const clock = freezeClock()
    expect(await status(B, cookie)).toBe(200) // B now holds "not revoked" in its cache
    await revokeOwn(agent)
    expect(await status(A, cookie)).toBe(401) // the revoking process: at once
    clock.advance(REVOCATION_REFRESH_MS + 1)
    expect(await status(B, cookie)).toBe(401)
  })
})

describe("with pub/sub (RedisStore with a subscriber): the other process sees it at once", () => {
  it("signed out on B without the clock moving", async () => {
    const redis = await redisStore()
    closers.push(redis.close)
    const [A, B] = twoProcesses({ store: redis.store })
    const { agent, cookie } = await signedInAlice(A)
    freezeClock()
    expect(await status(B, cookie)).toBe(200)
    await revokeOwn(agent)
    // The frozen clock keeps B's cached answer fresh: only the pushed message can end it.
    expect(await statusOnceRevoked(B, cookie)).toBe(401)
  })
})

describe("with pub/sub proven live (issue #36): the other process trusts its answer past one second, and still sees a revocation at once", () => {
  it("asks the store no more while its own heartbeats come back, then is signed out by the pushed message", async () => {
    const redis = await redisStore()
    closers.push(redis.close)
    let asked = 0
    const shared = redis.store
    // Without the listing (as on a cluster): the revocation cache's own trust rule, not the pub/sub
    // feed, answers here (the feed: redis-revocation-feed.test.ts).
    const counting: StateStore = { ...shared, listRevocations: undefined, revocation: (sid, userId) => (asked++, shared.revocation!(sid, userId)) }
    const configA = testConfig({ store: shared })
    const configB = testConfig({ store: counting })
    const [A, B] = [makeApp(configA), makeApp(configB)]
    const watch = runtimeOf(resolveConfig(configB)).watch!
    const { agent, cookie } = await signedInAlice(A)
    const clock = freezeClock()
    // Moves the frozen clock by less than the heartbeat's overdue time, then waits for B's next
    // own heartbeat to come back through Redis at that time.
    const step = async () => {
      clock.advance(400)
      const at = Date.now()
      for (let attempt = 0; attempt < 400 && watch.heardAt !== at; attempt++) await new Promise((resume) => setTimeout(resume, 5))
      expect(watch.heardAt).toBe(at)
    }
    expect(await status(B, cookie)).toBe(200)
    expect(asked).toBe(1)
    clock.advance(REVOCATION_REFRESH_MS + 1)
    expect(await status(B, cookie)).toBe(200) // the one-second rule: asked again (and heartbeats start)
    expect(asked).toBe(2)
    await step() // the first heartbeat back: proven live from now
    await step()
    await step()
    expect(await status(B, cookie)).toBe(200) // learnt before the proof began: asked again
    expect(asked).toBe(3)
    for (let i = 0; i < 4; i++) await step()
    expect(await status(B, cookie)).toBe(200) // 1.6 s later: trusted, not asked
    expect(asked).toBe(3)
    await revokeOwn(agent)
    expect(await statusOnceRevoked(B, cookie)).toBe(401)
  })
})
