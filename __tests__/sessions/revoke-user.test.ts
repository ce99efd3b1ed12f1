/**
 * revokeUserSessions(userId, config): the app ends every session of a user (a ban, a password
 * change), with no request, for the cookie strategy (in-process store) and the memory adapter.
 */
import { describe, expect, it } from "@jest/globals"
import { revokeUserSessions } from "../../lib/index.js"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { makeApp, request, signInAs, testConfig } from "../helpers/app.js"
import type { AuthConfig } from "../../lib/types.js"

async function signedInAgents(config: AuthConfig, users: string[]) {
  const app = makeApp(config)
  return Promise.all(
    users.map(async (user) => {
      const agent = request.agent(app)
      expect((await signInAs(agent, user)).status).toBe(302)
      await agent.get("/api/me").set("Accept", "application/json").expect(200)
      return agent
    }),
  )
}

describe("revokeUserSessions, cookie strategy", () => {
  it("ends every cookie session of the user (each device) and leaves other users signed in; the revokeSession event fires", async () => {
    const events: unknown[] = []
    const config = testConfig({ events: { revokeSession: (message) => void events.push(message) } })
    const [laptop, phone, bob] = await signedInAgents(config, ["alice", "alice", "bob"])
    await revokeUserSessions("user-alice", config)
    await laptop!.get("/api/me").set("Accept", "application/json").expect(401)
    await phone!.get("/api/me").set("Accept", "application/json").expect(401)
    await bob!.get("/api/me").set("Accept", "application/json").expect(200)
    expect(events).toEqual([{ userId: "user-alice", scope: "user" }])
  })

  it("a sign-in after the revocation works", async () => {
    const config = testConfig()
    const [before] = await signedInAgents(config, ["alice"])
    await revokeUserSessions("user-alice", config)
    const [after] = await signedInAgents(config, ["alice"])
    await after!.get("/api/me").set("Accept", "application/json").expect(200)
    await before!.get("/api/me").set("Accept", "application/json").expect(401)
  })

  it("refuses a missing user id with a named error", async () => {
    await expect(revokeUserSessions("", testConfig())).rejects.toMatchObject({ type: "InvalidRequest" })
  })
})

describe("revokeUserSessions, database strategy (memory adapter)", () => {
  it("deletes the user's session records; their cookies read as signed out", async () => {
    const adapter = MemoryAdapter()
    const config = testConfig({ adapter, session: { strategy: "database" } })
    const [laptop, bob] = await signedInAgents(config, ["alice", "bob"])
    // Credentials users are stored with an id of the adapter's, linked to the provider's id.
    const alice = await adapter.getUserByAccount({ provider: "credentials", providerAccountId: "user-alice" })
    expect(await adapter.listSessionsByUserId(alice!.id)).toHaveLength(1)
    await revokeUserSessions(alice!.id, config)
    expect(await adapter.listSessionsByUserId(alice!.id)).toEqual([])
    await laptop!.get("/api/me").set("Accept", "application/json").expect(401)
    await bob!.get("/api/me").set("Accept", "application/json").expect(200)
  })
})
