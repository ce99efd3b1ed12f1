/**
 * Nobody reads or changes another organization's data through any id (issue #27), tried over HTTP
 * on memory, SQLite, PostgreSQL and MariaDB: the owner of organization A sends organization B's id
 * to every action (404 OrganizationNotFound), or A's id with B's member or invitation
 * (MemberNotFound, InvitationInvalid); B is exactly as it was afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { ENGINES, buildApp, engine, inviteTo, join, organizationOf, person, refusal, rolesIn, type TestApp } from "./support.js"

describe.each(ENGINES)("ids of another organization on %s", (name) => {
  const db = engine(name, "cross")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())

  async function snapshot(t: TestApp, organizationId: string) {
    const organization = await t.adapter.getOrganization!(organizationId)
    const invitations = (await t.adapter.listInvitations!(organizationId)).map(({ id, email, role, tokenHash, expires }) => ({ id, email, role, tokenHash, expires: expires.getTime() }))
    return { organization: organization && { ...organization, createdAt: organization.createdAt.getTime() }, members: await rolesIn(t.adapter, organizationId), invitations }
  }

  it("every action refuses another organization's ids and changes nothing there", async () => {
    const t = buildApp(db.adapter())
    const alice = await person(t, "alice")
    const bob = await person(t, "bob")
    const carol = await person(t, "carol")
    const a = await organizationOf(alice, "A")
    const b = await organizationOf(bob, "B")
    await join(t, bob, b.id, carol, "editor")
    const pending = await inviteTo(t, bob, b.id, "pending-b@example.com")
    expect((await bob.act("set-role", { organizationId: b.id, name: "auditor", permissions: ["project:read"] })).status).toBe(200)
    const before = await snapshot(t, b.id)
    const mailsBefore = t.mails.length

    // B's id: B does not exist for Alice.
    const withB: Array<[string, Record<string, unknown>]> = [
      ["update", { organizationId: b.id, name: "Taken over" }],
      ["delete", { organizationId: b.id }],
      ["switch", { organizationId: b.id }],
      ["leave", { organizationId: b.id }],
      ["transfer", { organizationId: b.id, userId: alice.id }],
      ["remove-member", { organizationId: b.id, userId: carol.id }],
      ["role", { organizationId: b.id, userId: carol.id, role: "member" }],
      ["role", { organizationId: b.id, userId: alice.id, role: "owner" }],
      ["invite", { organizationId: b.id, email: "spy@example.com" }],
      ["resend", { organizationId: b.id, invitationId: pending.invitation.id }],
      ["revoke", { organizationId: b.id, invitationId: pending.invitation.id }],
      ["set-role", { organizationId: b.id, name: "auditor", permissions: ["organization:delete"] }],
      ["delete-role", { organizationId: b.id, name: "auditor" }],
    ]
    for (const [action, fields] of withB) {
      const answer = await alice.act(action, fields)
      expect({ action, status: answer.status }).toEqual({ action, status: 404 })
      expect(answer.body).toEqual(refusal("OrganizationNotFound"))
    }
    const read = await alice.get(`/auth/organizations/${b.id}`)
    expect(read.status).toBe(404)
    expect(read.text).not.toContain(carol.email)
    expect(read.text).not.toContain("pending-b@example.com")

    // A's id with B's member or invitation.
    const withA: Array<[string, Record<string, unknown>, string]> = [
      ["remove-member", { organizationId: a.id, userId: carol.id }, "MemberNotFound"],
      ["role", { organizationId: a.id, userId: carol.id, role: "member" }, "MemberNotFound"],
      ["transfer", { organizationId: a.id, userId: bob.id }, "MemberNotFound"],
      ["resend", { organizationId: a.id, invitationId: pending.invitation.id }, "InvitationInvalid"],
      ["revoke", { organizationId: a.id, invitationId: pending.invitation.id }, "InvitationInvalid"],
      ["delete-role", { organizationId: a.id, name: "auditor" }, "UnknownRole"],
    ]
    for (const [action, fields, type] of withA) {
      const answer = await alice.act(action, fields)
      expect({ action, type: answer.body?.error?.type }).toEqual({ action, type })
    }

    expect(await snapshot(t, b.id)).toEqual(before)
    expect(t.mails).toHaveLength(mailsBefore)
    expect(await alice.active()).toMatchObject({ id: a.id, role: "owner" })
    expect(await t.adapter.getMember!(b.id, alice.id)).toBeNull()
    expect(await rolesIn(t.adapter, a.id)).toEqual({ [alice.id]: "owner" })
  })

  it("a member of both acts in B only with B's standing: the role in A does not carry over", async () => {
    const t = buildApp(db.adapter())
    const alice = await person(t, "alice")
    const bob = await person(t, "bob")
    const carol = await person(t, "carol")
    const a = await organizationOf(alice, "A")
    const b = await organizationOf(bob, "B")
    await join(t, bob, b.id, alice)
    await join(t, bob, b.id, carol)
    const before = await snapshot(t, b.id)
    // Alice owns A but is a plain member of B.
    expect((await alice.act("role", { organizationId: b.id, userId: carol.id, role: "admin" })).body).toEqual(refusal("PermissionDenied"))
    expect((await alice.act("remove-member", { organizationId: b.id, userId: carol.id })).body).toEqual(refusal("PermissionDenied"))
    expect((await alice.act("invite", { organizationId: b.id, email: "x@example.com" })).body).toEqual(refusal("PermissionDenied"))
    expect(await snapshot(t, b.id)).toEqual(before)
    // With B active, her permission route answers by her role in B.
    expect((await alice.act("switch", { organizationId: b.id })).status).toBe(200)
    expect((await alice.get("/projects/edit")).status).toBe(403)
    expect((await alice.act("switch", { organizationId: a.id })).status).toBe(200)
    expect((await alice.get("/projects/edit")).status).toBe(200)
  })
  it("a forged organization cookie naming someone else's organization chooses nothing", async () => {
    const t = buildApp(db.adapter())
    const bob = await person(t, "bob")
    const mallory = await person(t, "mallory")
    const b = await organizationOf(bob, "B")
    mallory.agent.jar.setCookie(`gatehouse.organization=${b.id}; Path=/`, "127.0.0.1", "/")
    expect(await mallory.active()).toBeNull()
    expect((await mallory.get("/projects/edit")).body).toEqual(refusal("OrganizationRequired"))
    expect((await mallory.get("/auth/organizations")).body).toEqual({ organizations: [], active: null })
    // With an organization of her own, the forged cookie still does not reach B.
    const m = await organizationOf(mallory, "M")
    const n = await organizationOf(mallory, "N")
    expect(await mallory.active()).toMatchObject({ id: n.id })
    // The cookie this way does reach the server: naming her own organization M chooses it.
    mallory.agent.jar.setCookie(`gatehouse.organization=${m.id}; Path=/`, "127.0.0.1", "/")
    expect(await mallory.active()).toMatchObject({ id: m.id })
    mallory.agent.jar.setCookie(`gatehouse.organization=${b.id}; Path=/`, "127.0.0.1", "/")
    expect(await mallory.active()).toMatchObject({ id: m.id, role: "owner" })
    expect((await mallory.get("/auth/organizations")).body.active).toMatchObject({ id: m.id })
  })
})
