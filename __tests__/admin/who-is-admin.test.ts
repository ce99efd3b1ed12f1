/**
 * Who is an admin (issue #30): listed user ids; members of the one named staff organization with
 * the configured role, or whose role grants the configured permission (an owner of any other
 * organization, which anyone may create, is not); the app's `isAdmin`. Decided on the stored state
 * at each request: a member demoted in the staff organization loses the tools at once.
 */
import { beforeAll, describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { addMember, createOrganization, setMemberRole } from "../../lib/index.js"
import { adminClient, buildAdminApp, refusal, signIn, storedUser, type AdminApp } from "./support.js"

async function signedIn(t: AdminApp, label: string) {
  const user = await storedUser(t.adapter, label)
  return { user, client: adminClient(await signIn(t.app, user)) }
}

describe("admins listed by id", () => {
  it("a listed id is an admin, anyone else is refused", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser!({ id: "listed-admin", email: "listed@example.com", emailVerified: new Date(), name: "Listed" })
    const t = buildAdminApp(adapter, { admin: { userIds: ["listed-admin"], isAdmin: undefined } })
    const { rememberPerson } = await import("../integration/organizations/support.js")
    rememberPerson("listed", { id: "listed-admin", email: "listed@example.com", name: "Listed" })
    const admin = adminClient(await signIn(t.app, { id: "listed-admin", email: "listed@example.com", username: "listed" }))
    expect((await admin.get("/auth/admin")).status).toBe(200)
    const other = await signedIn(t, "other")
    expect((await other.client.get("/auth/admin")).body).toEqual(refusal("AdminRequired"))
  })
})

describe.each([
  ["role", { role: "support" }],
  ["permission", { permission: "users:manage" }],
] as const)("the staff organization's %s", (_kind, rule) => {
  let t: AdminApp
  let staffId: string
  beforeAll(async () => {
    const adapter = MemoryAdapter()
    t = buildAdminApp(adapter, {
      admin: { organization: "staff", ...rule, isAdmin: undefined },
      extra: { organizations: { roles: { support: { users: ["manage"] } } } },
    })
    const founder = await storedUser(adapter, "founder")
    staffId = (await createOrganization(t.config, { ownerId: founder.id, name: "Staff", slug: "staff" })).id
  })

  it("a staff member with it is an admin; an owner of another organization is not; a demoted one loses the tools at once", async () => {
    const agent = await signedIn(t, "agent")
    await addMember(t.config, { organizationId: staffId, userId: agent.user.id, role: "support" })
    expect((await agent.client.get("/auth/admin")).status).toBe(200)

    const founderElsewhere = await signedIn(t, "elsewhere")
    const own = await founderElsewhere.client.agent
      .post("/auth/organizations/create")
      .set("Accept", "application/json")
      .send({ csrfToken: (await founderElsewhere.client.agent.get("/auth/csrf")).body.csrfToken, name: "Mine", slug: `mine-${Date.now()}` })
    expect(own.status).toBe(200)
    expect((await founderElsewhere.client.get("/auth/admin")).body).toEqual(refusal("AdminRequired"))

    const plainMember = await signedIn(t, "plain")
    await addMember(t.config, { organizationId: staffId, userId: plainMember.user.id, role: "member" })
    expect((await plainMember.client.get("/auth/admin")).body).toEqual(refusal("AdminRequired"))

    await setMemberRole(t.config, { organizationId: staffId, userId: agent.user.id, role: "member" })
    expect((await agent.client.get("/auth/admin")).body).toEqual(refusal("AdminRequired"))
  })
})
