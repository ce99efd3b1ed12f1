/**
 * A custom `store` written before revocable sessions (only hit, reset, claim): it keeps working,
 * and the session records and revocations live in this process's memory instead.
 */
import { describe, expect, it } from "@jest/globals"
import type { StateStore } from "../../lib/shared-store/types.js"
import { MemoryStore } from "../../lib/shared-store/memory.js"
import { makeApp, signInAs, testConfig } from "../helpers/app.js"
import { agentFor } from "../database/engines.js"

describe("a store with only hit, reset and claim", () => {
  it("sessions are listed and revoked in this process's memory", async () => {
    const inner = new MemoryStore()
    const store: StateStore = { hit: (key, window) => inner.hit(key, window), reset: (key) => inner.reset(key), claim: (key, ttl) => inner.claim(key, ttl) }
    const app = makeApp(testConfig({ store }))
    const [laptop, phone] = [agentFor(app), agentFor(app)]
    for (const agent of [laptop, phone]) expect((await signInAs(agent, "alice")).status).toBe(302)
    const sessions = (await laptop.get("/auth/sessions").set("Accept", "application/json").expect(200)).body as Array<{ id: string; current: boolean }>
    expect(sessions).toHaveLength(2)
    const csrfToken = (await laptop.get("/auth/csrf").expect(200)).body.csrfToken as string
    await laptop.post("/auth/sessions/revoke").set("Accept", "application/json").type("form").send({ csrfToken, others: "1" }).expect(200)
    await phone.get("/api/me").set("Accept", "application/json").expect(401)
    await laptop.get("/api/me").set("Accept", "application/json").expect(200)
  })
})
