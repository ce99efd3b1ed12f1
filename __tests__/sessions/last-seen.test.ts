/**
 * A session's last-seen time moves at most once per `updateAge`, when the session is refreshed:
 * reads in between leave it (and the store or database) alone. Both strategies.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { makeApp, signInAs, testConfig } from "../helpers/app.js"
import { agentFor } from "../database/engines.js"

const HOUR = 3_600_000
afterEach(() => {
  jest.restoreAllMocks()
})

describe.each([
  ["cookie", () => ({})],
  ["database", () => ({ adapter: MemoryAdapter(), session: { strategy: "database" as const } })],
])("%s strategy", (_name, extra: () => Partial<AuthConfig>) => {
  it("lastSeenAt: set at sign-in, unchanged by reads within updateAge (1 h here), moved by the first read after", async () => {
    let now = Date.now()
    jest.spyOn(Date, "now").mockImplementation(() => now)
    const app = makeApp(testConfig({ ...extra(), session: { ...extra().session, updateAge: 3600 } }))
    const agent = agentFor(app)
    expect((await signInAs(agent, "alice")).status).toBe(302)
    const lastSeen = async () => {
      const [session] = (await agent.get("/auth/sessions").set("Accept", "application/json").expect(200)).body as Array<{ lastSeenAt: string }>
      return Date.parse(session!.lastSeenAt)
    }
    const signedInAt = now
    expect(Math.abs((await lastSeen()) - signedInAt)).toBeLessThan(1000)
    now += HOUR / 2
    await agent.get("/api/me").set("Accept", "application/json").expect(200)
    expect(Math.abs((await lastSeen()) - signedInAt)).toBeLessThan(1000)
    now += HOUR
    await agent.get("/api/me").set("Accept", "application/json").expect(200)
    expect(Math.abs((await lastSeen()) - now)).toBeLessThan(1000)
  })
})
