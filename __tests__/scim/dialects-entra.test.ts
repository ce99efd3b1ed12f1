/**
 * Entra ID's documented SCIM provisioning sequence (fixtures/entra.json: the query by userName,
 * create with externalId and the enterprise extension, capitalised `Replace`/`Add`/`Remove`,
 * `active` sent as the string "False"/"True", a filtered email path, group members added and
 * removed as value lists, hard delete), replayed over HTTP on memory, SQLite, PostgreSQL and
 * MariaDB. The user is also a member of another organization: deactivation and deletion take this
 * organization from their session and keep them signed in, in the other one.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { ENGINES, engine } from "../integration/organizations/support.js"
import { buildScimApp, mintToken } from "./fixtures/app.js"
import { loadFixture, replay, replayContext } from "./fixtures/replay.js"

describe.each(ENGINES)("Entra ID's provisioning sequence on %s", (name) => {
  const db = engine(name, "sen")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())

  it("create, update, group role, disable with \"False\", enable with \"True\", delete; the other membership kept", async () => {
    const { fixture, address } = loadFixture("entra")
    const t = buildScimApp(db.adapter())
    const ctx = await replayContext(t, "entra", (organizationId) => mintToken(t.adapter, organizationId, "Entra ID"))
    const state = await replay(fixture, ctx)
    const userId = state.saved.userId!
    // Deleted from the directory's organization, kept as a user and as a member elsewhere.
    expect(await t.adapter.getScimUser!(ctx.organizationId, userId)).toBeNull()
    expect(await t.adapter.getMember!(ctx.organizationId, userId)).toBeNull()
    expect(await t.adapter.getUser!(userId)).toMatchObject({ email: address("grace.hopper") })
    expect(await t.adapter.getMember!(state.otherOrganizationId!, userId)).toMatchObject({ role: "member" })
  })

  it("the stored user keeps the address it was created with; the directory's new address stays an attribute", async () => {
    const { fixture, address } = loadFixture("entra")
    const t = buildScimApp(db.adapter())
    const ctx = await replayContext(t, "entra2", (organizationId) => mintToken(t.adapter, organizationId, "Entra ID"))
    // The steps up to and including the read-back after the Replace/Add patches.
    const upToReadBack = fixture.steps.findIndex((step) => step.step === "Entra reads the user back") + 1
    const state = await replay({ ...fixture, steps: fixture.steps.slice(0, upToReadBack) }, ctx)
    const userId = state.saved.userId!
    expect(await t.adapter.getUser!(userId)).toMatchObject({ email: address("grace.hopper") })
    const stored = await t.adapter.getScimUser!(ctx.organizationId, userId)
    expect(stored).toMatchObject({ userName: address("grace.hopper"), externalId: "7f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f", active: true })
    expect(JSON.stringify(stored!.attributes)).toContain(address("grace.hopper+navy"))
    // Found by externalId too, as Entra may query.
    const byExternal = await ctx.scim.send("GET", `/Users?filter=${encodeURIComponent('externalId eq "7f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f"')}`)
    expect(byExternal.status).toBe(200)
    expect(byExternal.body).toMatchObject({ totalResults: 1, Resources: [{ id: userId }] })
  })
})
