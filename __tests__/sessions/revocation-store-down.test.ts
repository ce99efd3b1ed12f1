/**
 * Issue #24 (6): revocations made while the shared store (Redis) is down are never acknowledged
 * and lost. Two app instances A and B (each its own configuration, clients and caches, as two
 * processes have) share a private `redis-server`, which is stopped and started again (empty)
 * mid-test; their clients do not queue commands while disconnected:
 *
 * - a sign-out on A while Redis is down: A refuses the copied cookie at once; once Redis is back,
 *   A writes the revocation it kept, and B refuses the copy too (before the fix, B let it in for good);
 * - "sign out everywhere else" on A while Redis is down answers 503 `RevocationPending` (before the
 *   fix, `{"revoked":0}`), A refuses the thief's copy meanwhile; once Redis is back, the user's
 *   retry succeeds and B refuses the thief's copy while the user's own session stays signed in.
 *
 * The same with no `store`, the revocations shared through the database (a MemoryAdapter shared
 * by both instances, refusing revocation writes for a while): A keeps what the database refused
 * and writes it once the database takes writes again; "everywhere else" answers 503 meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { randomUUID } from "node:crypto"
import type { Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { Adapter } from "../../lib/adapters.js"
import { RedisStore } from "../../lib/shared-store/redis.js"
import { makeApp, testConfig } from "../helpers/app.js"
import { agentFor } from "../database/engines.js"
import { quietClient, startPrivateRedis, until, type PrivateRedis, type RedisClient } from "../helpers/private-redis.js"
import { signedInAlice } from "./setups.js"

type Agent = ReturnType<typeof agentFor>
let redis: PrivateRedis
const clients: RedisClient[] = []

beforeAll(async () => {
  redis = await startPrivateRedis()
})

afterAll(async () => {
  for (const client of clients.splice(0)) client.destroy()
  await redis?.close()
})

/**
 * An app instance with its own node-redis clients (a subscriber too) on the private Redis. The
 * client does not queue commands while disconnected (`disableOfflineQueue`), as a client that
 * fails fast is configured: what the store did not take is then Gatehouse's to keep (a queueing
 * client would send it late by chance, and lose it when its queue is dropped or its process ends).
 */
async function instance(prefix: string): Promise<Express> {
  const client = await quietClient(redis.url, { disableOfflineQueue: true })
  const subscriber = await quietClient(redis.url)
  clients.push(client, subscriber)
  return makeApp(testConfig({ store: RedisStore({ client, prefix, subscriber }), logger: { error: () => undefined } }))
}

async function twoInstances(): Promise<[Express, Express]> {
  const prefix = `down:${randomUUID()}:`
  return [await instance(prefix), await instance(prefix)]
}

const me = async (app: Express, cookie: string) => (await agentFor(app).get("/api/me").set("Accept", "application/json").set("Cookie", cookie)).status


async function csrf(agent: Agent): Promise<string> {
  return (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
}

function everywhereElse(agent: Agent, csrfToken: string) {
  return agent.post("/auth/sessions/revoke").set("Accept", "application/json").type("form").send({ csrfToken, others: "1" })
}

async function restartRedis(): Promise<void> {
  await redis.start()
  await until(() => clients.every((client) => client.isReady), "the clients to reconnect")
}

describe("revocations while the shared store is down", () => {
  it("a sign-out on A while Redis is down: A refuses the copied cookie at once, and B refuses it once Redis is back", async () => {
    const [a, b] = await twoInstances()
    const { agent, cookie: copy } = await signedInAlice(a)
    expect(await me(b, copy)).toBe(200)

    await redis.stop()
    const csrfToken = await csrf(agent)
    // The sign-out itself works (the cookie is cleared), whatever the store does.
    expect((await agent.post("/auth/signout").type("form").send({ csrfToken })).status).toBe(302)
    expect(await me(a, copy)).toBe(401)

    await restartRedis()
    // A kept the revocation and writes it once Redis answers; B then reads it there.
    await until(async () => (await me(b, copy)) === 401, "B to refuse the copied cookie")
    for (const app of [a, b]) expect(await me(app, copy)).toBe(401)
  }, 40_000)

  it('"sign out everywhere else" while Redis is down fails closed (503 RevocationPending); once back, the retry ends the thief\'s copy on B', async () => {
    const [a, b] = await twoInstances()
    const laptop = await signedInAlice(a)
    const thief = await signedInAlice(b)
    expect(await me(b, thief.cookie)).toBe(200)

    await redis.stop()
    const csrfToken = await csrf(laptop.agent)
    const refused = await everywhereElse(laptop.agent, csrfToken)
    expect(refused.status).toBe(503)
    expect(refused.body).toMatchObject({ error: { type: "RevocationPending" } })
    expect(refused.headers["retry-after"]).toBeDefined()
    // Meanwhile this process refuses the other session, and the user's own stays signed in.
    expect(await me(a, thief.cookie)).toBe(401)
    expect(await me(a, laptop.cookie)).toBe(200)

    await restartRedis()
    // The user tries again until it is confirmed (each attempt answers 503 until Redis takes it).
    let answered = 0
    await until(async () => {
      answered = (await everywhereElse(laptop.agent, await csrf(laptop.agent))).status
      return answered !== 503
    }, "the retry to be confirmed")
    expect(answered).toBe(200)
    for (const app of [a, b]) {
      expect(await me(app, thief.cookie)).toBe(401)
      expect(await me(app, laptop.cookie)).toBe(200)
    }
  }, 40_000)
})

describe("revocations while the database (no store) refuses writes", () => {
  it("a sign-out on A is kept and written once the database takes it: B then refuses the copy; \"everywhere else\" answers 503 RevocationPending meanwhile", async () => {
    const inner = MemoryAdapter()
    const control = { refuse: false }
    const adapter: Adapter = {
      ...inner,
      async addSessionRevocation(revocation) {
        if (control.refuse) throw new Error("connection refused")
        return inner.addSessionRevocation!(revocation)
      },
    }
    const config = () => testConfig({ adapter, session: { strategy: "cookie" }, logger: { error: () => undefined } })
    const [a, b] = [makeApp(config()), makeApp(config())]
    const { agent, cookie: copy } = await signedInAlice(a)
    const other = await signedInAlice(a)
    expect(await me(b, copy)).toBe(200)

    control.refuse = true
    const refused = await everywhereElse(other.agent, await csrf(other.agent))
    expect(refused.status).toBe(503)
    expect(refused.body).toMatchObject({ error: { type: "RevocationPending" } })
    expect(await me(a, copy)).toBe(401)
    expect(await me(a, other.cookie)).toBe(200)
    expect((await agent.post("/auth/signout").type("form").send({ csrfToken: await csrf(agent) })).status).toBe(302)
    // B polls the database, which has neither revocation yet.
    expect(await me(b, copy)).toBe(200)

    control.refuse = false
    await until(async () => (await me(b, copy)) === 401, "B to refuse the copied cookie")
    expect(await me(b, other.cookie)).toBe(200)
  }, 40_000)
})
