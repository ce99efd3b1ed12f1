/**
 * An adapter without Gatehouse's optional session methods (as an `@auth/*` adapter is): database
 * sessions keep working (sign-in, read, sign-out) and the adapter is never handed fields it does
 * not know; listing and revoking answer MissingAdapterMethods naming the missing method.
 */
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { Adapter } from "../../lib/adapters.js"
import { listSessions, revokeUserSessions } from "../../lib/index.js"
import { makeApp, signInAs, testConfig } from "../helpers/app.js"
import { agentFor } from "../database/engines.js"

function authJsLikeAdapter(): { adapter: Adapter; created: unknown[]; updated: unknown[] } {
  const memory = MemoryAdapter() as unknown as Record<string, unknown>
  const created: unknown[] = []
  const updated: unknown[] = []
  const adapter: Record<string, unknown> = {}
  for (const [name, method] of Object.entries(memory)) {
    if (typeof method !== "function" || name === "listSessionsByUserId" || name === "deleteSessionsByUserId" || name === "transaction") continue
    adapter[name] = (...args: unknown[]) => {
      if (name === "createSession") created.push(args[0])
      if (name === "updateSession") updated.push(args[0])
      return (method as (...a: unknown[]) => unknown).apply(memory, args)
    }
  }
  return { adapter: adapter as Adapter, created, updated }
}

describe("an adapter without listSessionsByUserId / deleteSessionsByUserId", () => {
  it("signs in, reads and signs out as before, and gets only the Auth.js session fields", async () => {
    const { adapter, created, updated } = authJsLikeAdapter()
    const app = makeApp(testConfig({ adapter, session: { strategy: "database", updateAge: 0 } }))
    const agent = agentFor(app).set("User-Agent", "Old/1.0")
    expect((await signInAs(agent, "alice")).status).toBe(302)
    await agent.get("/api/me").set("Accept", "application/json").expect(200)
    expect(created).toEqual([{ sessionToken: expect.any(String), userId: expect.any(String), expires: expect.any(Date) }])
    expect(updated.length).toBeGreaterThan(0)
    for (const update of updated) expect(Object.keys(update as object).sort()).toEqual(["expires", "sessionToken"])
    const csrfToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
    await agent.post("/auth/signout").type("form").send({ csrfToken }).expect(302)
    await agent.get("/api/me").set("Accept", "application/json").expect(401)
  })

  it("listing and revoking answer MissingAdapterMethods naming the method (501 over HTTP)", async () => {
    const { adapter } = authJsLikeAdapter()
    const config = testConfig({ adapter, session: { strategy: "database" } })
    const app = makeApp(config)
    app.get("/devices", (req, res) => {
      listSessions(req, config).then(
        (list) => res.json(list),
        (error: { type?: string; message?: string }) => res.status(500).json({ type: error.type, message: error.message }),
      )
    })
    const agent = agentFor(app)
    expect((await signInAs(agent, "alice")).status).toBe(302)
    const listed = await agent.get("/auth/sessions").set("Accept", "application/json")
    expect(listed.status).toBe(501)
    expect(listed.body.error.type).toBe("MissingAdapterMethods")
    const csrfToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
    const revoked = await agent.post("/auth/sessions/revoke").set("Accept", "application/json").type("form").send({ csrfToken, others: "1" })
    expect(revoked.status).toBe(501)
    expect(revoked.body.error.type).toBe("MissingAdapterMethods")
    const helper = await agent.get("/devices").expect(500)
    expect(helper.body).toEqual({ type: "MissingAdapterMethods", message: expect.stringContaining("listSessionsByUserId") })
    await expect(revokeUserSessions("someone", config)).rejects.toMatchObject({ type: "MissingAdapterMethods", message: expect.stringContaining("deleteSessionsByUserId") })
    // The session itself is untouched.
    await agent.get("/api/me").set("Accept", "application/json").expect(200)
  })
})
