/**
 * Organization events and server helpers (issue #27), on memory, SQLite, PostgreSQL and MariaDB:
 * `events.organization` and `events.audit` hear every change with the organization's id and who
 * made it; the server helpers (`createOrganization`, `addMember`, `setMemberRole`, `removeMember`,
 * `transferOwnership`) keep the rules (the last owner stays, ids must match), and the member's next
 * request sees what they changed.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { addMember, createOrganization, removeMember, setMemberRole, transferOwnership } from "../../../lib/index.js"
import { LastOwner, MemberNotFound, OrganizationNotFound } from "../../../lib/organizations/errors.js"
import { ENGINES, buildApp, engine, inviteTo, join, organizationOf, person, rolesIn, signIn, storedUser } from "./support.js"

describe.each(ENGINES)("organization events and server helpers on %s", (name) => {
  const db = engine(name, "evt")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())

  it("events.organization and events.audit hear each change with the organization's id", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const member = await person(t, "member")
    const organization = await organizationOf(owner)
    const { invitation, token } = await inviteTo(t, owner, organization.id, member.email)
    await owner.act("resend", { organizationId: organization.id, invitationId: invitation.id })
    const latest = t.mails.at(-1)!
    expect(latest.url).not.toContain(token)
    await member.act("accept", { token: new URL(latest.url).searchParams.get("token") })
    await owner.act("role", { organizationId: organization.id, userId: member.id, role: "editor" })
    await owner.act("update", { organizationId: organization.id, name: "Renamed" })
    const revoked = await inviteTo(t, owner, organization.id, "gone@example.com")
    await owner.act("revoke", { organizationId: organization.id, invitationId: revoked.invitation.id })
    await owner.act("remove-member", { organizationId: organization.id, userId: member.id })
    await owner.act("delete", { organizationId: organization.id })

    const types = t.organizationEvents.map((event) => event.type)
    expect(types).toEqual([
      "organization.created",
      "invitation.sent",
      "invitation.resent",
      "invitation.accepted",
      "member.added",
      "member.role_changed",
      "organization.updated",
      "invitation.sent",
      "invitation.revoked",
      "member.removed",
      "organization.deleted",
    ])
    for (const event of t.organizationEvents) expect(event.organizationId).toBe(organization.id)
    expect(t.organizationEvents[0]).toMatchObject({ actorId: owner.id, userId: owner.id, role: "owner" })
    expect(t.organizationEvents[1]).toMatchObject({ actorId: owner.id, email: member.email, role: "member", invitationId: invitation.id })
    expect(t.organizationEvents[4]).toMatchObject({ actorId: member.id, userId: member.id, role: "member" })
    expect(t.organizationEvents[5]).toMatchObject({ actorId: owner.id, userId: member.id, role: "editor", previousRole: "member" })
    expect(t.organizationEvents[9]).toMatchObject({ actorId: owner.id, userId: member.id, previousRole: "editor" })
    expect(JSON.stringify(t.organizationEvents)).not.toMatch(/tokenHash/)

    const audited = t.auditRecords.filter((record) => types.includes(record.type as string))
    expect(audited.map((record) => record.type)).toEqual(types)
    for (const record of audited) expect(record.organizationId).toBe(organization.id)
    expect(audited.find((record) => record.type === "member.role_changed")).toMatchObject({ userId: owner.id, memberId: member.id, role: "editor", previousRole: "member" })
  })

  it("a refused change fires no event", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const count = t.organizationEvents.length
    expect((await owner.act("leave", { organizationId: organization.id })).status).toBe(409)
    expect((await owner.act("role", { organizationId: organization.id, userId: owner.id, role: "member" })).status).toBe(409)
    expect(t.organizationEvents).toHaveLength(count)
  })

  it("the server helpers keep the last owner, refuse another organization's member, and the member's next request sees their change", async () => {
    const t = buildApp(db.adapter())
    const ownerUser = await storedUser(t.adapter, "owner")
    const memberUser = await storedUser(t.adapter, "member")
    const organization = await createOrganization(t.config, { ownerId: ownerUser.id, name: "Server Made" })
    expect(organization).toMatchObject({ name: "Server Made", slug: expect.stringMatching(/^server-made/) })
    expect(await rolesIn(t.adapter, organization.id)).toEqual({ [ownerUser.id]: "owner" })
    expect(t.organizationEvents.at(-1)).toMatchObject({ type: "organization.created", organizationId: organization.id, userId: ownerUser.id })
    expect(t.organizationEvents.at(-1)).not.toHaveProperty("actorId", expect.anything())

    // The last owner: not demoted, not removed.
    await expect(setMemberRole(t.config, { organizationId: organization.id, userId: ownerUser.id, role: "admin" })).rejects.toBeInstanceOf(LastOwner)
    await expect(removeMember(t.config, { organizationId: organization.id, userId: ownerUser.id })).rejects.toBeInstanceOf(LastOwner)
    expect(await rolesIn(t.adapter, organization.id)).toEqual({ [ownerUser.id]: "owner" })

    const member = await signIn(t.app, memberUser)
    expect(await member.active()).toBeNull()
    expect(await addMember(t.config, { organizationId: organization.id, userId: memberUser.id })).toMatchObject({ role: "member" })
    expect(await member.active()).toMatchObject({ id: organization.id, role: "member" })
    expect((await member.get("/projects/edit")).status).toBe(403)
    await setMemberRole(t.config, { organizationId: organization.id, userId: memberUser.id, role: "editor" })
    expect((await member.get("/projects/edit")).status).toBe(200)

    // Another organization's member through this organization's id: not found, nothing changed.
    const elsewhere = await storedUser(t.adapter, "elsewhere")
    const other = await createOrganization(t.config, { ownerId: elsewhere.id, name: "Other" })
    await expect(setMemberRole(t.config, { organizationId: organization.id, userId: elsewhere.id, role: "member" })).rejects.toBeInstanceOf(MemberNotFound)
    await expect(removeMember(t.config, { organizationId: organization.id, userId: elsewhere.id })).rejects.toBeInstanceOf(MemberNotFound)
    await expect(setMemberRole(t.config, { organizationId: "no-such-organization", userId: elsewhere.id, role: "member" })).rejects.toBeInstanceOf(OrganizationNotFound)
    expect(await rolesIn(t.adapter, other.id)).toEqual({ [elsewhere.id]: "owner" })

    // With a second owner the first may go; then the second is the last.
    await transferOwnership(t.config, { organizationId: organization.id, userId: memberUser.id })
    expect(await rolesIn(t.adapter, organization.id)).toEqual({ [ownerUser.id]: "owner", [memberUser.id]: "owner" })
    await removeMember(t.config, { organizationId: organization.id, userId: ownerUser.id })
    await expect(removeMember(t.config, { organizationId: organization.id, userId: memberUser.id })).rejects.toBeInstanceOf(LastOwner)
    expect(await rolesIn(t.adapter, organization.id)).toEqual({ [memberUser.id]: "owner" })
    expect((await member.get("/owners")).status).toBe(200)
  })

  it("two owners stepping down at once leave one owner", async () => {
    const t = buildApp(db.adapter())
    const first = await person(t, "first")
    const second = await person(t, "second")
    const organization = await organizationOf(first)
    await join(t, first, organization.id, second)
    expect((await first.act("role", { organizationId: organization.id, userId: second.id, role: "owner" })).status).toBe(200)
    const answers = await Promise.all([
      first.act("role", { organizationId: organization.id, userId: first.id, role: "admin" }),
      second.act("role", { organizationId: organization.id, userId: second.id, role: "admin" }),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
    expect(Object.values(await rolesIn(t.adapter, organization.id)).sort()).toEqual(["admin", "owner"])
  })
})
