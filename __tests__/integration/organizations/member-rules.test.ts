/**
 * The member and role rules of organizations (issue #27), each tried against over HTTP on memory,
 * SQLite, PostgreSQL and MariaDB: the last owner cannot leave, step down or be removed; a member
 * cannot promote themself; an admin cannot make or unmake owners, nor hand out a permission they
 * lack (a custom role). Every refusal leaves the stored members as they were.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { ENGINES, buildApp, engine, join, organizationOf, person, refusal, rolesIn, signIn, storedUser, type Client } from "./support.js"

describe.each(ENGINES)("organization member rules on %s", (name) => {
  const db = engine(name, "rules")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())

  it("the last owner cannot leave, step down or be removed: 409 LastOwner, nothing changed", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const admin = await person(t, "admin")
    const organization = await organizationOf(owner)
    await join(t, owner, organization.id, admin, "admin")
    const before = await rolesIn(t.adapter, organization.id)
    expect(before).toEqual({ [owner.id]: "owner", [admin.id]: "admin" })

    const leave = await owner.act("leave", { organizationId: organization.id })
    expect(leave.status).toBe(409)
    expect(leave.body).toEqual(refusal("LastOwner"))

    const demote = await owner.act("role", { organizationId: organization.id, userId: owner.id, role: "admin" })
    expect(demote.status).toBe(409)
    expect(demote.body).toEqual(refusal("LastOwner"))

    // An admin may not remove an owner at all; server code may, but not the last one (helpers.test.ts).
    const removed = await admin.act("remove-member", { organizationId: organization.id, userId: owner.id })
    expect(removed.status).toBe(403)
    expect(removed.body).toEqual(refusal("PermissionDenied"))
    // The owner removing themself is refused too (leave is the way, and it is refused).
    const self = await owner.act("remove-member", { organizationId: organization.id, userId: owner.id })
    expect(self.status).toBeGreaterThanOrEqual(400)

    expect(await rolesIn(t.adapter, organization.id)).toEqual(before)
    expect(await owner.active()).toMatchObject({ id: organization.id, role: "owner" })
    expect((await owner.get("/owners")).status).toBe(200)

    // With a second owner, the first may step down: the rule is about the last one only.
    expect((await owner.act("role", { organizationId: organization.id, userId: admin.id, role: "owner" })).status).toBe(200)
    expect((await owner.act("role", { organizationId: organization.id, userId: owner.id, role: "admin" })).status).toBe(200)
    expect(await rolesIn(t.adapter, organization.id)).toEqual({ [owner.id]: "admin", [admin.id]: "owner" })
    // Now the other one is the last owner.
    expect((await admin.act("leave", { organizationId: organization.id })).body).toEqual(refusal("LastOwner"))
  })

  it("a member cannot promote themself, nor change anyone's role", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const member = await person(t, "member")
    const other = await person(t, "other")
    const organization = await organizationOf(owner)
    await join(t, owner, organization.id, member)
    await join(t, owner, organization.id, other)
    const before = await rolesIn(t.adapter, organization.id)

    for (const role of ["owner", "admin", "editor"]) {
      const self = await member.act("role", { organizationId: organization.id, userId: member.id, role })
      expect(self.status).toBe(403)
      expect(self.body).toEqual(refusal("PermissionDenied"))
    }
    const others = await member.act("role", { organizationId: organization.id, userId: other.id, role: "editor" })
    expect(others.body).toEqual(refusal("PermissionDenied"))
    const transfer = await member.act("transfer", { organizationId: organization.id, userId: member.id })
    expect(transfer.body).toEqual(refusal("PermissionDenied"))
    const remove = await member.act("remove-member", { organizationId: organization.id, userId: other.id })
    expect(remove.body).toEqual(refusal("PermissionDenied"))
    const invite = await member.act("invite", { organizationId: organization.id, email: "friend@example.com", role: "admin" })
    expect(invite.body).toEqual(refusal("PermissionDenied"))
    const rename = await member.act("update", { organizationId: organization.id, name: "Mine now" })
    expect(rename.body).toEqual(refusal("PermissionDenied"))

    expect(await rolesIn(t.adapter, organization.id)).toEqual(before)
    expect(await member.active()).toMatchObject({ role: "member" })
    expect((await member.get("/projects/edit")).status).toBe(403)
    expect((await t.adapter.getOrganization!(organization.id))?.name).toBe(organization.name)
  })

  it("an admin cannot make someone owner, demote or remove an owner, or transfer ownership", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const admin = await person(t, "admin")
    const member = await person(t, "member")
    const organization = await organizationOf(owner)
    await join(t, owner, organization.id, admin, "admin")
    await join(t, owner, organization.id, member)
    const before = await rolesIn(t.adapter, organization.id)

    const attempts = [
      admin.act("role", { organizationId: organization.id, userId: member.id, role: "owner" }),
      admin.act("role", { organizationId: organization.id, userId: admin.id, role: "owner" }),
      admin.act("role", { organizationId: organization.id, userId: owner.id, role: "member" }),
      admin.act("remove-member", { organizationId: organization.id, userId: owner.id }),
      admin.act("transfer", { organizationId: organization.id, userId: member.id }),
      admin.act("invite", { organizationId: organization.id, email: "boss@example.com", role: "owner" }),
      admin.act("delete", { organizationId: organization.id }),
    ]
    for (const attempt of await Promise.all(attempts)) {
      expect(attempt.status).toBe(403)
      expect(attempt.body).toEqual(refusal("PermissionDenied"))
    }
    expect(await rolesIn(t.adapter, organization.id)).toEqual(before)
    expect(await t.adapter.listInvitations!(organization.id)).toEqual([])
    expect(await t.adapter.getOrganization!(organization.id)).not.toBeNull()

    // What an admin may do: manage members below owner.
    expect((await admin.act("role", { organizationId: organization.id, userId: member.id, role: "editor" })).status).toBe(200)
    expect(await rolesIn(t.adapter, organization.id)).toMatchObject({ [member.id]: "editor" })
  })

  it("an admin cannot hand out a custom role with a permission the admin lacks", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const admin = await person(t, "admin")
    const member = await person(t, "member")
    const organization = await organizationOf(owner)
    await join(t, owner, organization.id, admin, "admin")
    await join(t, owner, organization.id, member)

    // The admin may not even define a role granting organization:delete (owners only hold it).
    const define = await admin.act("set-role", { organizationId: organization.id, name: "destroyer", permissions: ["organization:delete"] })
    expect(define.status).toBe(403)
    expect(define.body).toEqual(refusal("PermissionDenied"))
    expect((await t.adapter.getOrganization!(organization.id))?.roles ?? null).toBeNull()

    // The owner defines it; the admin still cannot hand it out, by role change or invitation.
    const defined = await owner.act("set-role", { organizationId: organization.id, name: "destroyer", permissions: ["organization:delete", "project:read"] })
    expect(defined.status).toBe(200)
    expect(defined.body.roles).toEqual({ destroyer: { organization: ["delete"], project: ["read"] } })
    const handOut = await admin.act("role", { organizationId: organization.id, userId: member.id, role: "destroyer" })
    expect(handOut.status).toBe(403)
    expect(handOut.body).toEqual(refusal("PermissionDenied"))
    const invite = await admin.act("invite", { organizationId: organization.id, email: "destroyer@example.com", role: "destroyer" })
    expect(invite.body).toEqual(refusal("PermissionDenied"))
    expect(await rolesIn(t.adapter, organization.id)).toMatchObject({ [member.id]: "member" })
    expect(await t.adapter.listInvitations!(organization.id)).toEqual([])

    // A role within the admin's own permissions is fine, and the member's next request has it.
    expect((await admin.act("set-role", { organizationId: organization.id, name: "writer", permissions: { project: ["write"] } })).status).toBe(200)
    expect((await admin.act("role", { organizationId: organization.id, userId: member.id, role: "writer" })).status).toBe(200)
    expect(await member.active()).toMatchObject({ role: "writer", permissions: ["project:write"] })
    expect((await member.get("/projects/edit")).status).toBe(200)
    // A role members hold cannot be deleted; an unknown role cannot be given.
    expect((await owner.act("delete-role", { organizationId: organization.id, name: "writer" })).body).toEqual(refusal("RoleInUse"))
    expect((await owner.act("role", { organizationId: organization.id, userId: member.id, role: "wizard" })).body).toEqual(refusal("UnknownRole"))
    // The owner (holding every permission) can hand out the destroyer role.
    expect((await owner.act("role", { organizationId: organization.id, userId: member.id, role: "destroyer" })).status).toBe(200)
    expect((await member.get("/projects/edit")).status).toBe(403)
  })
  it("a stale sign-in cannot delete, leave or transfer: 403 RecentSignInRequired, nothing changed", async () => {
    const t = buildApp(db.adapter())
    const user = await storedUser(t.adapter, "stale")
    const now = Date.now()
    const clock = jest.spyOn(Date, "now").mockReturnValue(now - 3 * 60 * 60 * 1000)
    let owner: Client
    try {
      owner = await signIn(t.app, user)
    } finally {
      clock.mockRestore()
    }
    const other = await person(t, "other")
    const organization = await organizationOf(owner)
    await join(t, owner, organization.id, other, "admin")
    const before = await rolesIn(t.adapter, organization.id)
    for (const [action, fields] of [
      ["delete", { organizationId: organization.id }],
      ["leave", { organizationId: organization.id }],
      ["transfer", { organizationId: organization.id, userId: other.id }],
    ] as const) {
      const answer = await owner.act(action, fields)
      expect({ action, status: answer.status }).toEqual({ action, status: 403 })
      expect(answer.body).toEqual(refusal("RecentSignInRequired"))
    }
    expect(await rolesIn(t.adapter, organization.id)).toEqual(before)
    expect(await t.adapter.getOrganization!(organization.id)).not.toBeNull()
    // What needs no recent sign-in still works.
    expect((await owner.act("update", { organizationId: organization.id, name: "Still mine" })).status).toBe(200)
  })
})
