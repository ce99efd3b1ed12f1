/**
 * Signing out forgets the organization this browser acted for (issue #27): the next person to sign
 * in at the browser starts from their own organizations, not from a choice the previous one made.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { buildApp, csrfOf, engine, organizationOf, person } from "./support.js"

describe("signing out", () => {
  const db = engine("memory", "signout")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())

  it("clears the active-organization cookie with the session", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const first = await organizationOf(owner, "First")
    await organizationOf(owner, "Second")
    expect((await owner.act("switch", { organizationId: first.id })).status).toBe(200)
    expect((await owner.active())?.id).toBe(first.id)
    const out = await owner.agent.post("/auth/signout").type("form").send({ csrfToken: await csrfOf(owner.agent) })
    expect(out.status).toBe(302)
    const lines = ([] as string[]).concat(out.headers["set-cookie"] ?? [])
    const cleared = lines.find((line) => line.startsWith("gatehouse.organization="))
    expect(cleared).toBeDefined()
    expect(cleared).toMatch(/^gatehouse\.organization=;/)
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/)
  })
})
