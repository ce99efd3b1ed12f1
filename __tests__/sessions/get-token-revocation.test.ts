/**
 * Issue #14 and `getToken` (gatehouse/jwt): given the app's configuration, a token whose session
 * was signed out or revoked reads as null, as session reads do; without it, getToken only decodes
 * (the signature it always had). With the memory store, with a RedisStore shared by two
 * configurations (two processes), and with an adapter shared by two configurations (no store).
 */
import { afterAll, describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { getToken } from "../../lib/jwt/index.js"
import { revokeUserSessions } from "../../lib/devices/helpers.js"
import type { AuthConfig } from "../../lib/types.js"
import { makeApp, SECRET, signInAs, testConfig } from "../helpers/app.js"
import { agentFor } from "../database/engines.js"
import { redisStore, sessionCookieHeader } from "./setups.js"

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers.splice(0)) await close()
})

async function signedIn(config: AuthConfig) {
  const agent = agentFor(makeApp(config))
  const response = await signInAs(agent, "alice")
  expect(response.status).toBe(302)
  return { agent, req: { headers: { cookie: sessionCookieHeader(response) } } }
}

async function signOut(agent: ReturnType<typeof agentFor>) {
  const csrfToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
  await agent.post("/auth/signout").type("form").send({ csrfToken }).expect(302)
}

/** Polls `getToken` with `config` until it reads null; fails past one second. */
async function untilNull(req: { headers: Record<string, string> }, config: AuthConfig): Promise<void> {
  const since = performance.now()
  for (;;) {
    const sent = performance.now()
    if ((await getToken({ req, config })) === null) return
    if (sent - since > 1000) throw new Error("getToken still accepts the revoked session after one second")
    await new Promise((resume) => setTimeout(resume, 10))
  }
}

describe("getToken with the app's configuration", () => {
  it("a signed-out session's token is null (raw too); without the configuration it is still decoded", async () => {
    const config = testConfig()
    const { agent, req } = await signedIn(config)
    const token = await getToken({ req, config })
    expect(token).toMatchObject({ email: "alice@example.com", sid: expect.any(String) })
    // The configuration's secret is the default secret.
    expect(await getToken({ req, config, raw: true })).toBe(req.headers.cookie.split("=").slice(1).join("="))
    await signOut(agent)
    expect(await getToken({ req, config })).toBeNull()
    expect(await getToken({ req, config, raw: true })).toBeNull()
    // The old call (no configuration) cannot know: it decodes, as documented.
    expect(await getToken({ req, secret: SECRET })).toMatchObject({ sid: token!.sid })
  })

  it("revokeUserSessions: every token of the user made before is null", async () => {
    const config = testConfig()
    const first = await signedIn(config)
    const second = await signedIn(config)
    const bob = agentFor(makeApp(config))
    const bobs = { headers: { cookie: sessionCookieHeader(await signInAs(bob, "bob")) } }
    await revokeUserSessions("user-alice", config)
    expect(await getToken({ req: first.req, config })).toBeNull()
    expect(await getToken({ req: second.req, config })).toBeNull()
    expect(await getToken({ req: bobs, config })).toMatchObject({ email: "bob@example.com" })
  })

  it("two processes sharing RedisStore: a sign-out on A makes the token null on B", async () => {
    const redis = await redisStore()
    closers.push(redis.close)
    const [A, B] = [testConfig({ store: redis.store }), testConfig({ store: redis.store })]
    const { agent, req } = await signedIn(A)
    expect(await getToken({ req, config: B })).not.toBeNull()
    await signOut(agent)
    await untilNull(req, B)
  })

  it("two processes sharing only an adapter: a sign-out on A makes the token null on B within one second", async () => {
    const adapter = MemoryAdapter()
    const [A, B] = [testConfig({ adapter, session: { strategy: "cookie" } }), testConfig({ adapter, session: { strategy: "cookie" } })]
    const { agent, req } = await signedIn(A)
    expect(await getToken({ req, config: B })).not.toBeNull()
    await signOut(agent)
    await untilNull(req, B)
  })
})
