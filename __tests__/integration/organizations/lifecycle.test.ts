/**
 * Organizations over HTTP, the whole lifecycle (issue #27), on memory, SQLite, PostgreSQL and
 * MariaDB: create, update, invite and accept, role change seen by the member's next request,
 * remove, leave, transfer ownership, delete; switching between organizations; a user in no
 * organization; an HTML request refused with a page.
 */
import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { ENGINES, buildApp, engine, inviteTo, join, organizationOf, person, refusal, rolesIn, tokenOf, unique, type Client } from "./support.js"

const denied = refusal

async function guarded(client: Client) {
  return (await client.get("/projects/edit")).status
}

describe.each(ENGINES)("organizations lifecycle on %s", (name) => {
  const db = engine(name, "life")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())

  it("create, update, invite, accept, role change, remove, leave, transfer, delete", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const member = await person(t, "member")

    // In no organization: null, and a permission route says OrganizationRequired.
    expect(await owner.active()).toBeNull()
    const none = await owner.get("/projects/edit")
    expect(none.status).toBe(403)
    expect(none.body).toEqual(denied("OrganizationRequired"))

    // Create: the creator is owner, and the active organization is the new one.
    const slug = unique("acme").toLowerCase()
    const created = await owner.act("create", { name: "Acme Inc", slug })
    expect(created.status).toBe(200)
    const organization = created.body.organization
    expect(organization).toMatchObject({ name: "Acme Inc", slug })
    expect(created.body.active).toMatchObject({ id: organization.id, slug, role: "owner" })
    const active = await owner.active()
    expect(active).toEqual({ id: organization.id, slug, role: "owner", permissions: expect.arrayContaining(["project:read", "project:write", "organization:delete", "member:update"]) })
    expect(await guarded(owner)).toBe(200)
    expect((await owner.get("/owners")).status).toBe(200)
    expect(await rolesIn(t.adapter, organization.id)).toEqual({ [owner.id]: "owner" })

    // Update name and slug: the session's slug follows.
    const newSlug = unique("renamed").toLowerCase()
    const updated = await owner.act("update", { organizationId: organization.id, name: "Acme Renamed", slug: newSlug })
    expect(updated.status).toBe(200)
    expect(updated.body.organization).toMatchObject({ id: organization.id, name: "Acme Renamed", slug: newSlug })
    expect(await owner.active()).toMatchObject({ id: organization.id, slug: newSlug })
    expect(await t.adapter.getOrganization!(organization.id)).toMatchObject({ name: "Acme Renamed", slug: newSlug })

    // Invite: mailed with a link; the answer never carries the token or its hash.
    const sent = await owner.act("invite", { organizationId: organization.id, email: member.email.toUpperCase() })
    expect(sent.status).toBe(200)
    expect(sent.body.mailed).toBe(true)
    expect(sent.body.invitation).toMatchObject({ organizationId: organization.id, email: member.email, role: "member", expired: false })
    expect(t.mails).toHaveLength(1)
    expect(t.mails[0]).toMatchObject({ to: member.email, role: "member", organization: { id: organization.id, slug: newSlug, name: "Acme Renamed" } })
    const token = tokenOf(t.mails[0]!)
    const hash = createHash("sha256").update(token).digest("base64url")
    expect(sent.text).not.toContain(token)
    expect(sent.text).not.toContain(hash)
    expect(sent.text).not.toContain("tokenHash")
    const listed = await owner.get(`/auth/organizations/${organization.id}`)
    expect(listed.status).toBe(200)
    expect(listed.body.invitations).toEqual([expect.objectContaining({ email: member.email })])
    expect(listed.text).not.toContain(hash)
    expect(listed.text).not.toContain("tokenHash")

    // Accept: a member with the default role, acting for the organization at once.
    expect(await member.active()).toBeNull()
    const accepted = await member.act("accept", { token })
    expect(accepted.status).toBe(200)
    expect(accepted.body.active).toEqual({ id: organization.id, slug: newSlug, role: "member", permissions: ["project:read"] })
    expect(await member.active()).toEqual({ id: organization.id, slug: newSlug, role: "member", permissions: ["project:read"] })
    expect(await rolesIn(t.adapter, organization.id)).toEqual({ [owner.id]: "owner", [member.id]: "member" })
    expect((await owner.get(`/auth/organizations/${organization.id}`)).body.invitations).toEqual([])
    const refused = await member.get("/projects/edit")
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual(denied("PermissionDenied"))
    expect((await member.get("/can")).body).toEqual({ read: true, write: false, both: false })
    expect((await member.get("/staff")).status).toBe(403)

    // Role change: the member's next request sees it.
    const changed = await owner.act("role", { organizationId: organization.id, userId: member.id, role: "editor" })
    expect(changed.status).toBe(200)
    expect(changed.body.member).toMatchObject({ userId: member.id, role: "editor" })
    expect(await guarded(member)).toBe(200)
    expect((await member.get("/can")).body).toEqual({ read: true, write: true, both: true })
    expect((await member.get("/staff")).status).toBe(200)
    expect((await member.get("/owners")).body).toEqual(denied("PermissionDenied"))
    expect(await member.active()).toMatchObject({ role: "editor", permissions: ["project:read", "project:write"] })

    // Remove: the member's next request has no organization.
    const removed = await owner.act("remove-member", { organizationId: organization.id, userId: member.id })
    expect(removed.status).toBe(200)
    const after = await member.get("/projects/edit")
    expect(after.status).toBe(403)
    expect(after.body).toEqual(denied("OrganizationRequired"))
    expect(await member.active()).toBeNull()
    expect((await member.get(`/auth/organizations/${organization.id}`)).body).toEqual(denied("OrganizationNotFound"))

    // Leave: back in, then out by their own choice.
    await join(t, owner, organization.id, member)
    expect(await member.active()).toMatchObject({ id: organization.id, role: "member" })
    const left = await member.act("leave", { organizationId: organization.id })
    expect(left.status).toBe(200)
    expect(await member.active()).toBeNull()
    expect(await rolesIn(t.adapter, organization.id)).toEqual({ [owner.id]: "owner" })

    // Transfer ownership: the member becomes owner, the old owner admin.
    await join(t, owner, organization.id, member, "editor")
    const transferred = await owner.act("transfer", { organizationId: organization.id, userId: member.id })
    expect(transferred.status).toBe(200)
    expect(await rolesIn(t.adapter, organization.id)).toEqual({ [owner.id]: "admin", [member.id]: "owner" })
    expect((await member.get("/owners")).status).toBe(200)
    expect((await owner.get("/owners")).status).toBe(403)
    expect(await guarded(owner)).toBe(200)
    // The old owner (admin now) cannot delete it.
    expect((await owner.act("delete", { organizationId: organization.id })).body).toEqual(denied("PermissionDenied"))

    // Delete: gone for everyone.
    const deleted = await member.act("delete", { organizationId: organization.id })
    expect(deleted.status).toBe(200)
    expect(await t.adapter.getOrganization!(organization.id)).toBeNull()
    expect(await owner.active()).toBeNull()
    expect(await member.active()).toBeNull()
    expect((await owner.get("/auth/organizations")).body).toEqual({ organizations: [], active: null })
    expect(await guarded(member)).toBe(403)
  })

  it("switching between two organizations; a removed member falls back to the other one", async () => {
    const t = buildApp(db.adapter())
    const alice = await person(t, "alice")
    const bob = await person(t, "bob")
    const first = await organizationOf(alice, "First")
    const second = await organizationOf(bob, "Second")
    await join(t, bob, second.id, alice, "editor")
    // Accepting switched Alice to the second organization.
    expect(await alice.active()).toMatchObject({ id: second.id, role: "editor" })

    const list = await alice.get("/auth/organizations")
    expect(list.status).toBe(200)
    expect(list.body.organizations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: first.id, name: "First", role: "owner" }),
        expect.objectContaining({ id: second.id, name: "Second", role: "editor" }),
      ]),
    )
    expect(list.body.organizations).toHaveLength(2)
    expect(list.body.active).toMatchObject({ id: second.id })

    const switched = await alice.act("switch", { organizationId: first.id })
    expect(switched.status).toBe(200)
    expect(switched.body.active).toMatchObject({ id: first.id, role: "owner" })
    expect(await alice.active()).toMatchObject({ id: first.id, role: "owner" })
    expect((await alice.get("/owners")).status).toBe(200)

    // Bob cannot switch to Alice's first organization: not his.
    const foreign = await bob.act("switch", { organizationId: first.id })
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual(denied("OrganizationNotFound"))
    expect(await bob.active()).toMatchObject({ id: second.id })

    // Back to the second, then removed from it: the first is active again.
    expect((await alice.act("switch", { organizationId: second.id })).status).toBe(200)
    expect(await alice.active()).toMatchObject({ id: second.id })
    expect((await bob.act("remove-member", { organizationId: second.id, userId: alice.id })).status).toBe(200)
    expect(await alice.active()).toMatchObject({ id: first.id, role: "owner" })
    expect(await guarded(alice)).toBe(200)
  })

  it("an HTML request refused by a permission route gets a 403 page, not JSON", async () => {
    const t = buildApp(db.adapter())
    const loner = await person(t, "loner")
    const page = await loner.get("/projects/edit", "text/html")
    expect(page.status).toBe(403)
    expect(String(page.headers["content-type"])).toMatch(/text\/html/)
    expect(page.text).toMatch(/<html/i)
    expect(page.text).not.toMatch(/^\s*\{/)

    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    await join(t, owner, organization.id, loner)
    const denied403 = await loner.get("/projects/edit", "text/html")
    expect(denied403.status).toBe(403)
    expect(String(denied403.headers["content-type"])).toMatch(/text\/html/)
  })

  it("GET organizations/<id> shows members and roles to members only; invitations only to those who may invite", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const member = await person(t, "member")
    const outsider = await person(t, "outsider")
    const organization = await organizationOf(owner)
    await join(t, owner, organization.id, member)
    await inviteTo(t, owner, organization.id, "pending@example.com")

    const seen = await member.get(`/auth/organizations/${organization.id}`)
    expect(seen.status).toBe(200)
    expect(seen.body).toMatchObject({ role: "member", permissions: ["project:read"], invitations: null })
    expect(seen.body.members).toEqual(
      expect.arrayContaining([expect.objectContaining({ userId: owner.id, role: "owner" }), expect.objectContaining({ userId: member.id, role: "member", email: member.email })]),
    )
    const asOwner = await owner.get(`/auth/organizations/${organization.id}`)
    expect(asOwner.body.invitations).toEqual([expect.objectContaining({ email: "pending@example.com" })])
    const hidden = await outsider.get(`/auth/organizations/${organization.id}`)
    expect(hidden.status).toBe(404)
    expect(hidden.body).toEqual(denied("OrganizationNotFound"))
    expect(hidden.text).not.toContain(owner.email)
  })
})
