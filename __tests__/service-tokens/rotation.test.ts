/**
 * Issue #31: "key rotation without a failed verification". Generated keys rotate every minute
 * while the clock (Date only) moves on; a verifier that caches the JWKS for as long as its
 * Cache-Control allows (and never fetches it sooner, even for an unknown kid) verifies every token
 * issued before, during and after each rotation. Configured keys rotate by putting the new key
 * first. Two app instances sharing one store publish one key set and sign with one key.
 */
import { afterAll, afterEach, expect, jest, test } from "@jest/globals"
import { createRemoteJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, type JWK } from "jose"
import request from "supertest"
import { MemoryStore } from "../../lib/shared-store/memory.js"
import { RedisStore } from "../../lib/shared-store/redis.js"
import type { StateStore } from "../../lib/shared-store/types.js"
import { redisClient, type Client } from "../sessions/setups.js"
import { verifyServiceToken } from "../../lib/service-tokens/index.js"
import { REAL_TIMERS, freshName, listen, signedIn, tokenApp, tokenConfig } from "./support.js"

afterEach(() => {
  jest.useRealTimers()
})

test("generated keys: every token verifies across five rotations with a verifier that caches the JWKS", async () => {
  const start = Date.now()
  jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: start })
  const app = tokenApp(tokenConfig({ serviceTokens: { maxAge: 60, rotation: { every: 60 } } }))
  const server = await listen(app)
  try {
    const agent = request.agent(server.origin)
    const csrf = (await agent.get("/auth/csrf")).body.csrfToken as string
    await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: csrf, username: freshName("rot"), password: "pw" }).expect(302)
    // As a careful verifier would: the JWKS kept for its max-age (300 s), and not fetched again sooner.
    const jwks = createRemoteJWKSet(new URL(`${server.origin}/auth/jwks`), { cacheMaxAge: 300_000, cooldownDuration: 300_000 })
    const issued: Array<{ token: string; exp: number; kid: string }> = []
    const failures: string[] = []
    const published = new Set<number>()
    // 40 minutes in steps of 20 s: the lead time (6 minutes) makes a change about every 6 minutes.
    for (let step = 0; step <= 120; step++) {
      jest.setSystemTime(start + step * 20_000)
      const { token } = (await agent.get("/auth/token").expect(200)).body as { token: string }
      const { exp } = JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString()) as { exp: number }
      issued.push({ token, exp, kid: decodeProtectedHeader(token).kid as string })
      published.add(((await request(server.origin).get("/auth/jwks").expect(200)).body as { keys: JWK[] }).keys.length)
      for (const live of issued.filter((entry) => entry.exp * 1000 > Date.now())) {
        await jwtVerify(live.token, jwks, { algorithms: ["ES256"] }).catch((error: { code?: string }) => failures.push(`step ${step}, key ${live.kid}: ${error.code}`))
      }
    }
    expect(failures).toEqual([])
    // It did rotate, and the JWKS always had the next or the previous key beside the current one.
    expect(new Set(issued.map((entry) => entry.kid)).size).toBeGreaterThanOrEqual(5)
    expect(Math.min(...published)).toBeGreaterThanOrEqual(2)
  } finally {
    await server.close()
  }
}, 60_000)

async function privateJwk(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true })
  return { ...(await exportJWK(privateKey)), kid }
}

test("configured keys: the new key first and the old one kept; tokens of either verify", async () => {
  const [oldKey, newKey] = [await privateJwk("2026-01"), await privateJwk("2026-02")]
  const before = tokenApp(tokenConfig({ serviceTokens: { keys: [oldKey], audiences: ["api"] } }))
  const after = tokenApp(tokenConfig({ serviceTokens: { keys: [newKey, oldKey], audiences: ["api"] } }))
  const oldToken = (await (await signedIn(before)).agent.get("/auth/token").expect(200)).body.token as string
  const newToken = (await (await signedIn(after)).agent.get("/auth/token").expect(200)).body.token as string
  expect([decodeProtectedHeader(oldToken).kid, decodeProtectedHeader(newToken).kid]).toEqual(["2026-01", "2026-02"])
  const keys = ((await request(after).get("/auth/jwks").expect(200)).body as { keys: JWK[] }).keys
  expect(keys.map((key) => key.kid)).toEqual(["2026-02", "2026-01"])
  await expect(verifyServiceToken(oldToken, { keys, audience: "api" })).resolves.toMatchObject({ aud: "api" })
  await expect(verifyServiceToken(newToken, { keys, audience: "api" })).resolves.toMatchObject({ aud: "api" })
})

const clients: Client[] = []
afterAll(async () => {
  for (const client of clients.splice(0)) client.destroy()
})

/** Each instance its own Redis connection, one key prefix: as two processes of one app would be. */
async function redisPair(): Promise<[StateStore, StateStore, (key: string) => Promise<string | null>]> {
  const prefix = `gh31-service-tokens:${Math.random().toString(36).slice(2)}:`
  const [a, b] = [await redisClient(), await redisClient()]
  clients.push(a, b)
  const first = RedisStore({ client: a, prefix })
  return [first, RedisStore({ client: b, prefix }), (key) => first.getValue!(key)]
}

function memoryPair(): [StateStore, StateStore, (key: string) => Promise<string | null>] {
  const store = new MemoryStore()
  return [store, store, (key) => store.getValue(key)]
}

test.each([
  ["one MemoryStore object", async () => memoryPair()],
  ["RedisStore on 127.0.0.1:6379", redisPair],
])("two app instances sharing one store (%s) publish the same keys and sign with the same key", async (_name, stores) => {
  const [storeA, storeB, read] = await stores()
  const first = tokenApp(tokenConfig({ store: storeA, serviceTokens: { audiences: ["api"] } }))
  const second = tokenApp(tokenConfig({ store: storeB, serviceTokens: { audiences: ["api"] } }))
  // Both at once: one makes the key, the other reads it.
  const [a, b] = await Promise.all([request(first).get("/auth/jwks").expect(200), request(second).get("/auth/jwks").expect(200)])
  expect(b.body).toEqual(a.body)
  const one = (await (await signedIn(first)).agent.get("/auth/token").expect(200)).body.token as string
  const two = (await (await signedIn(second)).agent.get("/auth/token").expect(200)).body.token as string
  expect(decodeProtectedHeader(two).kid).toBe(decodeProtectedHeader(one).kid)
  await expect(verifyServiceToken(one, { keys: b.body, audience: "api" })).resolves.toMatchObject({ via: "session" })
  // The private keys are stored sealed, never in clear.
  const stored = (await read("service-tokens:keys")) ?? ""
  expect(stored).toContain('"sealed"')
  expect(stored).not.toMatch(/"d":/)
})
