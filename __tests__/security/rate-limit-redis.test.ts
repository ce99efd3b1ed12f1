/**
 * The shared state store (RedisStore, `gatehouse/stores/redis`) behind two app instances, and
 * FAULT-06 (SECURITY-CATALOG.md §14): what happens when it goes away and comes back.
 *
 * - Against the shared Redis on 127.0.0.1:6379, with a key prefix unique to this run (removed
 *   afterwards): two Express apps, each with its own client, share one limit; a passkey challenge
 *   used on one instance is refused on the other.
 * - FAULT-06 runs a private `redis-server` on a free port (spawned here, stopped with
 *   `redis-cli shutdown nosave`, started again, killed at the end). The documented policy is to
 *   fail open to this process's memory with an error log: no 5xx, no hang, limits per process
 *   while it is down, shared again once it is back.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { execFile, spawn, type ChildProcess } from "node:child_process"
import { randomUUID } from "node:crypto"
import { promisify } from "node:util"
import type { Express } from "express"
import { createClient } from "redis"
import { RedisStore } from "gatehouse/stores/redis"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { AuthConfig } from "../../lib/types.js"
import {
  ALICE, Browser, buildApp as buildPasskeyApp, expectRefused, expectSignedIn, names, seedPasskey, seedUser, softFor, storedCounter,
} from "../webauthn/fixtures.js"
import { AUTH_URL, BASE, buildApp, call, csrfPair, preserveEnv, sessionCookie, type CsrfPair, type Res } from "./fixtures.js"
import { freePort } from "../helpers/ports.js"

preserveEnv("AUTH_URL", "NODE_ENV")

const run = promisify(execFile)
type Client = ReturnType<typeof createClient>

/** Runs `build` with NODE_ENV=production (APP-PROD: limits on by default), then puts it back. */
function production<T>(build: () => T): T {
  const saved = process.env.NODE_ENV
  process.env.NODE_ENV = "production"
  try {
    return build()
  } finally {
    process.env.NODE_ENV = saved
  }
}

const clients: Client[] = []
/** A connected node-redis client with an error listener (node-redis needs one, or a lost connection crashes the process). */
async function connect(url: string, errors: Error[] = []): Promise<Client> {
  const client = createClient({ url })
  client.on("error", (error: Error) => void errors.push(error))
  clients.push(client)
  await client.connect()
  return client
}

afterAll(async () => {
  for (const client of clients.splice(0)) client.destroy()
})

function attempt(app: Express, pair: CsrfPair, username: string, password: string): Promise<Res> {
  return call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, form: { csrfToken: pair.token, username, password } })
}

function expectWrong(res: Res): void {
  expect(res.status).toBe(302)
  const location = new URL(String(res.headers.location))
  expect(`${location.origin}${location.pathname}`).toBe(`${BASE}/auth/signin`)
  expect(location.searchParams.get("error")).toBe("CredentialsSignin")
}

function expectLimited(res: Res): void {
  expect(res.status).toBe(429)
  expect(String(res.headers["retry-after"])).toMatch(/^[1-9]\d*$/)
  expect(res.text).toContain("Too many attempts")
  expect(sessionCookie(res)).toBe("")
}

function expectSession(res: Res): void {
  expect(res.status).toBe(302)
  expect(String(res.headers.location)).not.toContain("error=")
  expect(sessionCookie(res)).not.toBe("")
}

// ---- RedisStore on the shared Redis ------------------------------------------------------------

describe("RedisStore shares limits and used passkey challenges between app instances", () => {
  const prefix = `gatehouse-test:${randomUUID()}:`
  let redis: Client

  beforeAll(async () => {
    redis = await connect("redis://127.0.0.1:6379")
  })
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(keys)
  })

  /** Two apps (two "processes"), each with its own client and RedisStore over the same prefix. */
  async function twoInstances(overrides: Partial<AuthConfig> = {}) {
    const apps: Express[] = []
    for (let i = 0; i < 2; i++) {
      const store = RedisStore({ client: await connect("redis://127.0.0.1:6379"), prefix })
      apps.push(production(() => buildApp(AUTH_URL, { store, ...overrides })).app)
    }
    return apps as [Express, Express]
  }

  it("attempts alternating between two instances count against one limit (10 per account)", async () => {
    const [a, b] = await twoInstances()
    const pair = await csrfPair(a)
    for (let i = 0; i < 10; i++) expectWrong(await attempt(i % 2 ? b : a, pair, "alice", `guess${i}`))
    // Each instance saw only 5: alone, neither would refuse.
    expectLimited(await attempt(a, pair, "alice", "correct-horse"))
    expectLimited(await attempt(b, pair, "alice", "correct-horse"))
    expectSession(await attempt(b, pair, "bob", "battery-staple"))
    // What the store holds: counters under the prefix, identifiers hashed (no username in a key).
    const keys = await redis.keys(`${prefix}*`)
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) expect(key.toLowerCase()).not.toContain("alice")
  })

  it("a success on one instance forgets the failures counted on both", async () => {
    const [a, b] = await twoInstances()
    const pair = await csrfPair(a)
    for (let i = 0; i < 9; i++) expectWrong(await attempt(i % 2 ? b : a, pair, "bob", `typo${i}`))
    expectSession(await attempt(a, pair, "bob", "battery-staple"))
    for (let i = 0; i < 10; i++) expectWrong(await attempt(i % 2 ? a : b, pair, "bob", `guess${i}`))
    expectLimited(await attempt(b, pair, "bob", "battery-staple"))
  })

  it("a passkey challenge used on one instance cannot be used on the other (even with a counter that stays 0)", async () => {
    const adapter = MemoryAdapter()
    const soft = softFor()
    soft.counting = false
    await seedUser(adapter, ALICE)
    await seedPasskey(adapter, ALICE.id, soft, 0)
    const [a, b] = await Promise.all(
      [0, 1].map(async () => {
        const store = RedisStore({ client: await connect("redis://127.0.0.1:6379"), prefix })
        return production(() => buildPasskeyApp({ adapter, config: { store } })).app
      }),
    )
    const victim = new Browser(a!)
    const options = await victim.options()
    const challenge = victim.jar.get(names().challenge)!
    const data = soft.authenticate(options.body.options)
    expectSignedIn(await victim.callback("authenticate", data))
    const attacker = new Browser(b!)
    attacker.jar.set(names().challenge, challenge)
    await expectRefused(await attacker.callback("authenticate", data), attacker)
    expect(storedCounter(adapter as never, soft.id)).toBe(0)
    // The other instance itself works: a fresh ceremony there signs in.
    const fresh = new Browser(b!)
    const again = await fresh.options()
    expectSignedIn(await fresh.callback("authenticate", soft.authenticate(again.body.options)))
  })
})

// ---- FAULT-06 ----------------------------------------------------------------------------------


async function ping(port: number): Promise<boolean> {
  try {
    const { stdout } = await run("redis-cli", ["-p", String(port), "ping"], { timeout: 2000 })
    return stdout.trim() === "PONG"
  } catch {
    return false
  }
}

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 8000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resume) => setTimeout(resume, 50))
  }
}

describe("FAULT-06 the shared rate-limit store goes away and comes back", () => {
  let port: number
  let server: ChildProcess | undefined

  async function startRedis(): Promise<void> {
    server = spawn("redis-server", ["--port", String(port), "--save", "", "--appendonly", "no", "--bind", "127.0.0.1"], { stdio: "ignore" })
    await until(() => ping(port), "redis-server to answer")
  }

  beforeAll(async () => {
    port = await freePort()
    await startRedis()
  })
  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((done) => server!.once("exit", done))
      server.kill("SIGTERM")
      await exited
    }
  })

  it("down: no 5xx, no hang, limits from this process's memory, one AdapterError per app; back: shared again", async () => {
    const url = `redis://127.0.0.1:${port}`
    const logged: [Error[], Error[]] = [[], []]
    const clientErrors: Error[] = []
    const prefix = `fault06:${randomUUID()}:`
    const apps: Express[] = []
    const clientsOf: Client[] = []
    for (const i of [0, 1]) {
      const client = await connect(url, clientErrors)
      clientsOf.push(client)
      const store = RedisStore({ client, prefix })
      const config: Partial<AuthConfig> = {
        store,
        logger: { error: (error: Error) => void logged[i]!.push(error) },
        rateLimit: { credentials: { ip: { limit: 1000, window: 600 }, identifier: { limit: 5, window: 600 } } },
      }
      apps.push(production(() => buildApp(AUTH_URL, config)).app)
    }
    const [a, b] = apps as [Express, Express]
    const pair = await csrfPair(a)
    const adapterErrors = (i: 0 | 1) => logged[i].filter((error) => (error as { type?: string }).type === "AdapterError")
    // Shared while it is up.
    for (let i = 0; i < 5; i++) expectWrong(await attempt(i % 2 ? b : a, pair, "dave", `guess${i}`))
    expectLimited(await attempt(a, pair, "dave", "x"))
    expect(adapterErrors(0)).toHaveLength(0)

    await run("redis-cli", ["-p", String(port), "shutdown", "nosave"]).catch(() => undefined)
    await new Promise((exited) => (server!.exitCode === null ? server!.once("exit", exited) : exited(undefined)))
    expect(await ping(port)).toBe(false)

    const statuses: Record<"a" | "b", number[]> = { a: [], b: [] }
    for (let i = 0; i < 20; i++) {
      const target = i % 2 ? b : a
      const started = Date.now()
      const res = await attempt(target, pair, "alice", `guess${i}`)
      expect(Date.now() - started).toBeLessThan(1500)
      expect(res.status).toBeLessThan(500)
      if (res.status === 302) expectWrong(res)
      else expectLimited(res)
      statuses[i % 2 ? "b" : "a"].push(res.status)
    }
    // Each app enforces the limit from its own memory: 5 failures, then 429.
    expect(statuses.a).toEqual([...Array(5).fill(302), ...Array(5).fill(429)])
    expect(statuses.b).toEqual([...Array(5).fill(302), ...Array(5).fill(429)])
    // A user with the right password gets in, promptly, while the store is down.
    const started = Date.now()
    expectSession(await attempt(b, pair, "bob", "battery-staple"))
    expect(Date.now() - started).toBeLessThan(1500)
    // Logged, not per request: one AdapterError per app, saying memory stands in.
    for (const i of [0, 1] as const) {
      expect(adapterErrors(i)).toHaveLength(1)
      expect(adapterErrors(i)[0]!.message).toMatch(/memory stands in/)
    }
    expect(clientErrors.length).toBeGreaterThan(0)

    // Back (same port, empty): both clients reconnect, and the limit is shared again.
    await startRedis()
    await until(() => clientsOf.every((client) => client.isReady), "the clients to reconnect")
    // Each instance asks the shared store again (in the background) 2 s after its last failure:
    // a request after that starts the probe, and the ones after the probe's answer use Redis.
    await new Promise((resume) => setTimeout(resume, 2200))
    for (const app of [a, b]) expectWrong(await attempt(app, pair, `warm-up-${randomUUID()}`, "x"))
    await new Promise((resume) => setTimeout(resume, 300))
    for (let i = 0; i < 5; i++) expectWrong(await attempt(i % 2 ? b : a, pair, "carol", `guess${i}`))
    expectLimited(await attempt(a, pair, "carol", "x"))
    expectLimited(await attempt(b, pair, "carol", "x"))
    for (const res of [await attempt(a, pair, "bob", "battery-staple"), await attempt(b, pair, "bob", "battery-staple")]) expectSession(res)
    expect(adapterErrors(0)).toHaveLength(1)
    expect(adapterErrors(1)).toHaveLength(1)
  }, 30_000)

  it("issue #12: down, a passkey challenge's single use cannot be checked across processes, so verification fails closed (503 StoreUnavailable) on both; back, passkeys work", async () => {
    if (!(await ping(port))) await startRedis()
    const url = `redis://127.0.0.1:${port}`
    const prefix = `fault06-passkey:${randomUUID()}:`
    const adapter = MemoryAdapter()
    const soft = softFor()
    soft.counting = false
    await seedUser(adapter, ALICE)
    await seedPasskey(adapter, ALICE.id, soft, 0)
    const clientsOf: Client[] = []
    const apps = await Promise.all(
      [0, 1].map(async () => {
        const client = await connect(url)
        clientsOf.push(client)
        return production(() => buildPasskeyApp({ adapter, config: { store: RedisStore({ client, prefix }), logger: { error: () => undefined } } })).app
      }),
    )
    const [a, b] = apps as [Express, Express]
    const victim = new Browser(a)
    const options = await victim.options()
    const challenge = victim.jar.get(names().challenge)!
    const data = soft.authenticate(options.body.options)

    await run("redis-cli", ["-p", String(port), "shutdown", "nosave"]).catch(() => undefined)
    await new Promise((exited) => (server!.exitCode === null ? server!.once("exit", exited) : exited(undefined)))
    // The victim's own response, and the same response replayed on the other process: neither
    // signs in, and each says why (a temporary 503, not a passkey failure).
    const attacker = new Browser(b)
    attacker.jar.set(names().challenge, challenge)
    for (const [browser, res] of [[victim, await victim.callback("authenticate", data)], [attacker, await attacker.callback("authenticate", data)]] as const) {
      expect(res.status).toBe(302)
      expect(new URL(res.headers.location!, BASE).searchParams.get("error")).toBe("StoreUnavailable")
      expect(await browser.session()).toBeNull()
    }

    await startRedis()
    await until(() => clientsOf.every((client) => client.isReady), "the clients to reconnect")
    await new Promise((resume) => setTimeout(resume, 2200))
    // The first call after the retry delay starts the background probe; the next ones use Redis.
    await new Browser(b).callback("authenticate", data).catch(() => undefined)
    await new Promise((resume) => setTimeout(resume, 300))
    const fresh = new Browser(b)
    const again = await fresh.options()
    expectSignedIn(await fresh.callback("authenticate", soft.authenticate(again.body.options)))
  }, 30_000)
})
