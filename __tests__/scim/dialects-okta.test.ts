/**
 * Okta's documented SCIM 2.0 provisioning sequence (fixtures/okta.json: the existence check,
 * create, read, profile update by PUT, Group Push with a group mapped to the admin role,
 * deactivate, reactivate, member removal, rename, group delete), replayed over HTTP on memory,
 * SQLite, PostgreSQL and MariaDB. After each step the suite checks what the provisioned user
 * notices: their membership and role, their session, and `requireAuth({ permission })`.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { ENGINES, engine } from "../integration/organizations/support.js"
import { buildScimApp, mintToken } from "./fixtures/app.js"
import { loadFixture, replay, replayContext } from "./fixtures/replay.js"

describe.each(ENGINES)("Okta's provisioning sequence on %s", (name) => {
  const db = engine(name, "sok")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())

  it("create, update, group role, deactivate (signed out), reactivate, group removal, rename, delete", async () => {
    const { fixture } = loadFixture("okta")
    const t = buildScimApp(db.adapter())
    const ctx = await replayContext(t, "okta", (organizationId) => mintToken(t.adapter, organizationId, "Okta"))
    const state = await replay(fixture, ctx)
    // The whole sequence ran, and the user it provisioned is still a member with the default role.
    expect(Object.keys(state.saved).sort()).toEqual(["groupId", "userId"])
    expect(await t.adapter.getMember!(ctx.organizationId, state.saved.userId!)).toMatchObject({ role: "member" })
    expect(await t.adapter.getScimGroup!(ctx.organizationId, state.saved.groupId!)).toBeNull()
  })

  it("the fixture's userName is unknown to a second organization: its token sees none of it", async () => {
    const { fixture } = loadFixture("okta")
    const t = buildScimApp(db.adapter())
    const first = await replayContext(t, "oktaA", (organizationId) => mintToken(t.adapter, organizationId, "Okta"))
    const second = await replayContext(t, "oktaB", (organizationId) => mintToken(t.adapter, organizationId, "Okta"))
    const created = await first.scim.send("POST", "/Users", fixture.steps[1]!.request!.body)
    expect(created.status).toBe(201)
    const lookup = fixture.steps[0]!.request!.path
    expect((await second.scim.send("GET", lookup)).body).toMatchObject({ totalResults: 0, Resources: [] })
    expect((await first.scim.send("GET", lookup)).body).toMatchObject({ totalResults: 1 })
    const foreign = await second.scim.send("GET", `/Users/${encodeURIComponent(created.body.id as string)}`)
    expect(foreign.status).toBe(404)
    expect(foreign.body).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "404" })
  })
})
