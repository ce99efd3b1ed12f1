/**
 * Issue #36 on real Redis: RedisStore (one server) lists every live revocation, and a process
 * whose pub/sub is proven live holds them all, so a read of a session it has never seen asks Redis
 * nothing, while a revocation made anywhere still signs the session out at once. Two configuration
 * objects stand for two processes sharing one Redis store; process B counts the revocation round
 * trips it makes.
 */
import { afterAll, describe, expect, it } from "@jest/globals"
import { randomBytes } from "node:crypto"
import type { Express } from "express"
import type { StateStore } from "../../lib/shared-store/types.js"
import { RedisStore } from "../../lib/shared-store/redis.js"
import { runtimeOf } from "../../lib/devices/runtime.js"
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { makeApp, signInAs, testConfig } from "../helpers/app.js"
import { agentFor } from "../database/engines.js"
import { redisClient, redisStore, sessionCookieHeader } from "./setups.js"

type Agent = ReturnType<typeof agentFor>
const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers.splice(0)) await close()
})

const status = async (app: Express, cookie: string) => (await agentFor(app).get("/api/me").set("Accept", "application/json").set("Cookie", cookie)).status

async function signedIn(app: Express, user: "alice" | "bob"): Promise<{ agent: Agent; cookie: string }> {
  const agent = agentFor(app)
  const response = await signInAs(agent, user)
  expect(response.status).toBe(302)
  return { agent, cookie: sessionCookieHeader(response) }
}

async function revoke(agent: Agent, body: Record<string, string>): Promise<void> {
  const csrfToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
  await agent.post("/auth/sessions/revoke").set("Accept", "application/json").type("form").send({ csrfToken, ...body }).expect(200)
}

async function currentSessionId(agent: Agent): Promise<string> {
  const sessions = (await agent.get("/auth/sessions").set("Accept", "application/json").expect(200)).body as Array<{ id: string; current: boolean }>
  return sessions.find((entry) => entry.current)!.id
}

/** Polls (real time, at most ~5 s) until `done()`; the heartbeats that prove the pub/sub run every half second. */
async function until(done: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !done(); attempt++) await new Promise((resume) => setTimeout(resume, 10))
  expect(done()).toBe(true)
}

describe("RedisStore.listRevocations", () => {
  it("lists the revoked sessions, users' 'not before' and spared sessions under its prefix, with their remaining lives, and nothing else", async () => {
    const client = await redisClient()
    // Glob characters in the prefix are matched literally.
    const prefix = `gh36-list:${randomBytes(3).toString("hex")}:*[a]?:`
    const lookalike = prefix.replace("*[a]?", "x[a]y")
    closers.push(async () => {
      for (const each of [prefix, lookalike]) {
        for (const kind of ["revoked", "notbefore", "spared", "sessions"]) {
          const keys = await client.keys(`${each.replace(/[*?[\]]/g, "\\$&")}${kind}:*`)
          if (keys.length) await client.del(keys)
        }
      }
      client.destroy()
    })
    const store = RedisStore({ client, prefix })
    const other = RedisStore({ client, prefix: lookalike })
    const before = Date.now()
    await store.revokeSid!("sid-1", 60)
    await store.revokeUser!("user-1", before - 5000, 120, "sid-kept")
    await store.revokeUser!("user-2", before - 1000, 30)
    await other.revokeSid!("not-mine", 60)
    await client.set(`${prefix}notbefore:garbage`, "not a number", { PX: 60_000 })
    const listed = await store.listRevocations!()
    const after = Date.now()
    const byKey = new Map(listed.map((row) => [`${row.kind}:${row.key}`, row]))
    expect([...byKey.keys()].sort()).toEqual(["session:sid-1", "spare:sid-kept", "user:user-1", "user:user-2"])
    expect(byKey.get("user:user-1")!.notBefore).toBe(before - 5000)
    expect(byKey.get("spare:sid-kept")!.notBefore).toBe(before - 5000)
    expect(byKey.get("user:user-2")!.notBefore).toBe(before - 1000)
    const life = (key: string) => byKey.get(key)!.expires
    expect(life("session:sid-1")).toBeGreaterThan(before + 55_000)
    expect(life("session:sid-1")).toBeLessThanOrEqual(after + 60_000)
    expect(life("user:user-1")).toBeGreaterThan(before + 115_000)
    expect(life("user:user-2")).toBeLessThanOrEqual(after + 120_000)
  })

  it("is not offered on a cluster's hash-tagged layout (its keys are spread over primaries)", async () => {
    const client = await redisClient()
    closers.push(async () => void client.destroy())
    expect(RedisStore({ client, prefix: "gh36-tagged:", cluster: true }).listRevocations).toBeUndefined()
    expect(typeof RedisStore({ client, prefix: "gh36-plain:" }).listRevocations).toBe("function")
  })
})

describe("the pub/sub feed on real Redis (two processes)", () => {
  it("answers sessions it has never seen without a round trip, knows revocations made before it started, and still sees a new one at once", async () => {
    const redis = await redisStore()
    closers.push(redis.close)
    let asked = 0
    const shared = redis.store
    const counting: StateStore = { ...shared, revocation: (sid, userId) => (asked++, shared.revocation!(sid, userId)) }
    const A = makeApp(testConfig({ store: shared }))
    const alice = await signedIn(A, "alice")
    const bob = await signedIn(A, "bob")
    const bobsOther = await signedIn(A, "bob")
    // Before B starts: bob ends his first session, and alice's second session ends her others.
    await revoke(bob.agent, { id: await currentSessionId(bob.agent) })
    const aliceOld = alice
    const aliceNew = await signedIn(A, "alice")
    await revoke(aliceNew.agent, { others: "1" })
    expect(await status(A, aliceOld.cookie)).toBe(401)

    const configB = testConfig({ store: counting })
    const B = makeApp(configB)
    const runtime = runtimeOf(resolveConfig(configB))
    expect(runtime.feed).toBeDefined()
    expect(await status(B, bobsOther.cookie)).toBe(200) // not listed yet: Redis is asked
    expect(asked).toBe(1)
    await until(() => runtime.feed!.status().complete)
    const askedBefore = asked
    expect(await status(B, bob.cookie)).toBe(401) // revoked before B started: from the listing
    expect(await status(B, aliceOld.cookie)).toBe(401) // ended by alice's "not before"
    expect(await status(B, aliceNew.cookie)).toBe(200) // the session that asked is spared
    const carol = await signedIn(A, "alice")
    expect(await status(B, carol.cookie)).toBe(200) // a session B has never seen
    expect(asked).toBe(askedBefore)

    // A revocation made on A now reaches B through the pub/sub, at once.
    await revoke(carol.agent, { id: await currentSessionId(carol.agent) })
    let seen = 200
    for (let attempt = 0; attempt < 100 && seen === 200; attempt++) seen = await status(B, carol.cookie)
    expect(seen).toBe(401)
    expect(asked).toBe(askedBefore)

    // Something may have been missed: B asks Redis again until a new listing under a new proof.
    runtime.watch!.reset()
    const dave = await signedIn(A, "bob")
    expect(await status(B, dave.cookie)).toBe(200)
    expect(asked).toBe(askedBefore + 1)
    await until(() => runtime.feed!.status().complete)
    const eve = await signedIn(A, "alice")
    expect(await status(B, eve.cookie)).toBe(200)
    expect(asked).toBe(askedBefore + 1)
  })

  it("when the listing fails, logs it and keeps asking Redis per session, with the same answers", async () => {
    const redis = await redisStore()
    closers.push(redis.close)
    let asked = 0
    const shared = redis.store
    const failing: StateStore = {
      ...shared,
      listRevocations: () => Promise.reject(new Error("listing refused")),
      revocation: (sid, userId) => (asked++, shared.revocation!(sid, userId)),
    }
    const errors: string[] = []
    const A = makeApp(testConfig({ store: shared }))
    const alice = await signedIn(A, "alice")
    const bob = await signedIn(A, "bob")
    // Before B starts: only Redis can tell B about it.
    await revoke(bob.agent, { id: await currentSessionId(bob.agent) })
    const configB = testConfig({ store: failing, logLevel: "error", logger: { error: (error: Error) => void errors.push(error.message), warn() {}, debug() {} } })
    const B = makeApp(configB)
    const runtime = runtimeOf(resolveConfig(configB))
    expect(await status(B, alice.cookie)).toBe(200)
    await until(() => errors.some((message) => /Listing the shared store's session revocations failed/.test(message)))
    expect(runtime.feed!.status().complete).toBe(false)
    const askedBefore = asked
    const fresh = await signedIn(A, "alice")
    expect(await status(B, fresh.cookie)).toBe(200)
    expect(await status(B, bob.cookie)).toBe(401)
    expect(asked).toBe(askedBefore + 2)
  })
})
