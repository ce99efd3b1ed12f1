/**
 * Contract checks for the organization methods (issue #27): organizations read back exactly (by
 * id and slug, JSON fields included); a slug is unique on create and on update, and a refused
 * change changes nothing; a user is a member once; an organization never loses its last owner,
 * also when two owners are demoted or removed at the same moment; an invitation of an address
 * replaces the pending one, and is deleted for exactly one of concurrent callers; deleting an
 * organization or a user takes its memberships (and invitations) along; nothing of another
 * organization is ever answered. Every check makes its own organizations and users.
 */
import { randomUUID } from "node:crypto"
import { expect } from "@jest/globals"
import type { AdapterInvitation, AdapterMember, AdapterOrganization } from "../../lib/adapters.js"
import { newUser, type ContractContext } from "./fixtures.js"

/** Whole seconds, so every engine stores and returns them exactly; `offset` in seconds. */
const BASE = Math.floor(Date.now() / 1000) * 1000
const at = (offset: number) => new Date(BASE + offset * 1000)

function newOrganization(overrides: Partial<AdapterOrganization> = {}): AdapterOrganization {
  const id = randomUUID()
  return { id, slug: `org-${id}`, name: `Organization ${id.slice(0, 8)}`, logo: null, metadata: null, roles: null, createdAt: at(0), ...overrides }
}

const member = (organizationId: string, userId: string, role: string, createdAt = at(0)): AdapterMember => ({ organizationId, userId, role, createdAt })

function newInvitation(organizationId: string, overrides: Partial<AdapterInvitation> = {}): AdapterInvitation {
  const id = randomUUID()
  return {
    id,
    organizationId,
    email: `invited-${id}@example.com`,
    role: "member",
    tokenHash: `hash-${randomUUID()}`,
    invitedBy: null,
    createdAt: at(0),
    expires: at(7 * 24 * 3600),
    ...overrides,
  }
}

export function organizationChecks({ adapter, check }: ContractContext): void {
  const user = async () => (await adapter().createUser(newUser())).id
  /** A stored organization owned by a new user (or the given one). */
  const organizationOf = async (ownerId?: string, overrides: Partial<AdapterOrganization> = {}) => {
    const owner = ownerId ?? (await user())
    const organization = newOrganization(overrides)
    expect(await adapter().createOrganization(organization, member(organization.id, owner, "owner", organization.createdAt))).toEqual(organization)
    return { organization, owner }
  }
  const owners = async (organizationId: string) => (await adapter().listMembers(organizationId)).filter((found) => found.role === "owner").map((found) => found.userId)

  check("createOrganization stores the organization with its owner; read back by id and by slug", async () => {
    const owner = await user()
    const organization = newOrganization({ logo: "https://cdn.example.com/logo.png", metadata: { plan: "team" }, roles: { auditor: { report: ["read"] } } })
    expect(await adapter().createOrganization(organization, member(organization.id, owner, "owner", at(3)))).toEqual(organization)
    expect(await adapter().getOrganization(organization.id)).toEqual(organization)
    expect(await adapter().getOrganizationBySlug(organization.slug)).toEqual(organization)
    expect(await adapter().getMember(organization.id, owner)).toEqual(member(organization.id, owner, "owner", at(3)))
    expect(await adapter().listMembers(organization.id)).toEqual([member(organization.id, owner, "owner", at(3))])
    expect(await adapter().getOrganization(randomUUID())).toBeNull()
    expect(await adapter().getOrganizationBySlug(`org-${randomUUID()}`)).toBeNull()
  })

  check("createOrganization with a slug in use answers slugTaken and creates nothing", async () => {
    const { organization } = await organizationOf()
    const other = await user()
    const second = newOrganization({ slug: organization.slug, name: "Second" })
    expect(await adapter().createOrganization(second, member(second.id, other, "owner"))).toBe("slugTaken")
    expect(await adapter().getOrganization(second.id)).toBeNull()
    expect(await adapter().getOrganizationBySlug(organization.slug)).toEqual(organization)
    expect(await adapter().listMemberships(other)).toEqual([])
  })

  check("updateOrganization sets and clears fields; a slug in use answers slugTaken and changes nothing; an unknown id is null", async () => {
    const { organization } = await organizationOf()
    const { organization: other } = await organizationOf()
    const named = { ...organization, name: "Renamed", logo: "https://cdn.example.com/new.png", metadata: { seats: 5 }, roles: { viewer: { project: ["read"] } } }
    expect(await adapter().updateOrganization(organization.id, { name: "Renamed", logo: named.logo, metadata: named.metadata, roles: named.roles })).toEqual(named)
    expect(await adapter().getOrganization(organization.id)).toEqual(named)

    expect(await adapter().updateOrganization(organization.id, { slug: other.slug, name: "Not applied", logo: null })).toBe("slugTaken")
    expect(await adapter().getOrganization(organization.id)).toEqual(named)
    expect(await adapter().getOrganizationBySlug(other.slug)).toEqual(other)

    const cleared = { ...named, logo: null, metadata: null, roles: null }
    expect(await adapter().updateOrganization(organization.id, { logo: null, metadata: null, roles: null })).toEqual(cleared)
    expect(await adapter().getOrganization(organization.id)).toEqual(cleared)

    const moved = { ...cleared, slug: `moved-${randomUUID()}` }
    expect(await adapter().updateOrganization(organization.id, { slug: moved.slug })).toEqual(moved)
    expect(await adapter().getOrganizationBySlug(organization.slug)).toBeNull()
    expect(await adapter().getOrganizationBySlug(moved.slug)).toEqual(moved)
    // Its own slug again is not "taken".
    expect(await adapter().updateOrganization(organization.id, { slug: moved.slug })).toEqual(moved)
    expect(await adapter().updateOrganization(randomUUID(), { name: "Nobody" })).toBeNull()
  })

  check("JSON metadata and roles round-trip exactly, and a caller's later change to its object changes nothing stored", async () => {
    const metadata = { nested: { list: [1, "two", true, null, { deep: 3.5 }] }, unicode: "Zürich ✓", empty: {}, zero: 0 }
    const roles = { auditor: { report: ["read", "export"], billing: [] }, editor: { project: ["read", "write"] } }
    const { organization } = await organizationOf(undefined, { metadata: structuredJson(metadata), roles: structuredJson(roles) })
    ;(organization.metadata as Record<string, unknown>).zero = 1
    expect(await adapter().getOrganization(organization.id)).toEqual({ ...organization, metadata, roles })
    const read = await adapter().getOrganization(organization.id)
    ;(read?.roles as Record<string, unknown>).auditor = null
    expect((await adapter().getOrganization(organization.id))?.roles).toEqual(roles)
  })

  check("listMembers lists oldest first; listMemberships gives each membership with its organization, oldest first", async () => {
    const joined = await user()
    const { organization: first, owner } = await organizationOf(undefined, { createdAt: at(-100) })
    await adapter().addMember(member(first.id, joined, "admin", at(20)))
    const late = await user()
    await adapter().addMember(member(first.id, late, "member", at(30)))
    const early = await user()
    await adapter().addMember(member(first.id, early, "member", at(10)))
    expect((await adapter().listMembers(first.id)).map((found) => found.userId)).toEqual([owner, early, joined, late])

    const second = newOrganization({ metadata: { region: "eu" } })
    expect(await adapter().createOrganization(second, member(second.id, joined, "owner", at(5)))).toEqual(second)
    const { organization: third } = await organizationOf()
    await adapter().addMember(member(third.id, joined, "member", at(40)))
    expect(await adapter().listMemberships(joined)).toEqual([
      { ...member(second.id, joined, "owner", at(5)), organization: second },
      { ...member(first.id, joined, "admin", at(20)), organization: first },
      { ...member(third.id, joined, "member", at(40)), organization: third },
    ])
    expect(await adapter().listMemberships(await user())).toEqual([])
  })

  check("addMember adds once: a second time answers null and changes nothing", async () => {
    const { organization } = await organizationOf()
    const joining = await user()
    expect(await adapter().addMember(member(organization.id, joining, "member", at(1)))).toEqual(member(organization.id, joining, "member", at(1)))
    expect(await adapter().addMember(member(organization.id, joining, "admin", at(2)))).toBeNull()
    expect(await adapter().getMember(organization.id, joining)).toEqual(member(organization.id, joining, "member", at(1)))
    expect(await adapter().listMembers(organization.id)).toHaveLength(2)
  })

  check("updateMemberRole changes a role; null for a non-member; the only owner cannot stop being one (lastOwner, unchanged)", async () => {
    const { organization, owner } = await organizationOf()
    const other = await user()
    await adapter().addMember(member(organization.id, other, "member", at(1)))
    expect(await adapter().updateMemberRole(organization.id, other, "admin")).toEqual(member(organization.id, other, "admin", at(1)))
    expect(await adapter().getMember(organization.id, other)).toEqual(member(organization.id, other, "admin", at(1)))
    expect(await adapter().updateMemberRole(organization.id, await user(), "admin")).toBeNull()

    expect(await adapter().updateMemberRole(organization.id, owner, "admin")).toBe("lastOwner")
    expect((await adapter().getMember(organization.id, owner))?.role).toBe("owner")
    // Staying an owner is not losing one.
    expect(await adapter().updateMemberRole(organization.id, owner, "owner")).toEqual(member(organization.id, owner, "owner"))

    // With a second owner, the first may step down.
    await adapter().updateMemberRole(organization.id, other, "owner")
    expect(await adapter().updateMemberRole(organization.id, owner, "member")).toEqual(member(organization.id, owner, "member"))
    expect(await owners(organization.id)).toEqual([other])
  })

  check("two owners demoted at the same moment: exactly one is, one owner is left", async () => {
    for (let round = 0; round < 3; round++) {
      const { organization, owner } = await organizationOf()
      const second = await user()
      await adapter().addMember(member(organization.id, second, "owner", at(1)))
      const results = await Promise.all([adapter().updateMemberRole(organization.id, owner, "member"), adapter().updateMemberRole(organization.id, second, "admin")])
      expect(results.filter((result) => result === "lastOwner")).toHaveLength(1)
      expect(await owners(organization.id)).toHaveLength(1)
    }
  })

  check("removeMember removes and returns the member; null for a non-member; the only owner cannot leave (lastOwner, still a member)", async () => {
    const { organization, owner } = await organizationOf()
    const leaving = await user()
    await adapter().addMember(member(organization.id, leaving, "admin", at(1)))
    expect(await adapter().removeMember(organization.id, leaving)).toEqual(member(organization.id, leaving, "admin", at(1)))
    expect(await adapter().getMember(organization.id, leaving)).toBeNull()
    expect(await adapter().removeMember(organization.id, leaving)).toBeNull()
    expect(await adapter().removeMember(organization.id, owner)).toBe("lastOwner")
    expect(await adapter().getMember(organization.id, owner)).toEqual(member(organization.id, owner, "owner"))
    expect(await adapter().listMemberships(owner)).toHaveLength(1)
  })

  check("two owners removed at the same moment: exactly one is, one owner is left", async () => {
    for (let round = 0; round < 3; round++) {
      const { organization, owner } = await organizationOf()
      const second = await user()
      await adapter().addMember(member(organization.id, second, "owner", at(1)))
      const results = await Promise.all([adapter().removeMember(organization.id, owner), adapter().removeMember(organization.id, second)])
      expect(results.filter((result) => result === "lastOwner")).toHaveLength(1)
      expect(await owners(organization.id)).toHaveLength(1)
      expect(await adapter().listMembers(organization.id)).toHaveLength(1)
    }
  })

  check("invitations: stored, read by id and by token hash, listed oldest first, updated by a resend", async () => {
    const { organization, owner } = await organizationOf()
    const later = newInvitation(organization.id, { createdAt: at(20), invitedBy: owner, role: "admin" })
    const earlier = newInvitation(organization.id, { createdAt: at(10) })
    expect(await adapter().createInvitation(later)).toEqual(later)
    expect(await adapter().createInvitation(earlier)).toEqual(earlier)
    expect(await adapter().getInvitation(later.id)).toEqual(later)
    expect(await adapter().getInvitationByTokenHash(later.tokenHash)).toEqual(later)
    expect(await adapter().listInvitations(organization.id)).toEqual([earlier, later])

    const resent = { ...later, tokenHash: `hash-${randomUUID()}`, expires: at(30 * 24 * 3600), role: "member" }
    expect(await adapter().updateInvitation(later.id, { tokenHash: resent.tokenHash, expires: resent.expires, role: "member" })).toEqual(resent)
    expect(await adapter().getInvitation(later.id)).toEqual(resent)
    expect(await adapter().getInvitationByTokenHash(later.tokenHash)).toBeNull()
    expect(await adapter().getInvitationByTokenHash(resent.tokenHash)).toEqual(resent)
    expect(await adapter().updateInvitation(randomUUID(), { role: "admin" })).toBeNull()
    expect(await adapter().getInvitation(randomUUID())).toBeNull()
    expect(await adapter().getInvitationByTokenHash(`hash-${randomUUID()}`)).toBeNull()
  })

  check("createInvitation replaces the pending invitation of the same organization and address (its token no longer found)", async () => {
    const { organization } = await organizationOf()
    const { organization: elsewhere } = await organizationOf()
    const first = newInvitation(organization.id, { createdAt: at(1) })
    const sameAddressElsewhere = newInvitation(elsewhere.id, { email: first.email })
    await adapter().createInvitation(first)
    await adapter().createInvitation(sameAddressElsewhere)
    const again = newInvitation(organization.id, { email: first.email, role: "admin", createdAt: at(2) })
    expect(await adapter().createInvitation(again)).toEqual(again)
    expect(await adapter().getInvitation(first.id)).toBeNull()
    expect(await adapter().getInvitationByTokenHash(first.tokenHash)).toBeNull()
    expect(await adapter().listInvitations(organization.id)).toEqual([again])
    expect(await adapter().listInvitations(elsewhere.id)).toEqual([sameAddressElsewhere])
  })

  check("deleteInvitation under 5 concurrent callers: exactly one gets the invitation", async () => {
    const { organization } = await organizationOf()
    const invitation = newInvitation(organization.id)
    await adapter().createInvitation(invitation)
    const results = await Promise.all(Array.from({ length: 5 }, () => adapter().deleteInvitation(invitation.id)))
    expect(results.filter((result) => result !== null)).toEqual([invitation])
    expect(await adapter().getInvitation(invitation.id)).toBeNull()
    expect(await adapter().getInvitationByTokenHash(invitation.tokenHash)).toBeNull()
    expect(await adapter().deleteInvitation(invitation.id)).toBeNull()
  })

  check("deleteOrganization removes its members and invitations, and nothing of another organization", async () => {
    const { organization, owner } = await organizationOf()
    const kept = await organizationOf(owner)
    const colleague = await user()
    await adapter().addMember(member(organization.id, colleague, "member", at(1)))
    const invitation = newInvitation(organization.id)
    const keptInvitation = newInvitation(kept.organization.id)
    await adapter().createInvitation(invitation)
    await adapter().createInvitation(keptInvitation)

    await adapter().deleteOrganization(organization.id)
    expect(await adapter().getOrganization(organization.id)).toBeNull()
    expect(await adapter().getOrganizationBySlug(organization.slug)).toBeNull()
    expect(await adapter().listMembers(organization.id)).toEqual([])
    expect(await adapter().getMember(organization.id, colleague)).toBeNull()
    expect(await adapter().listMemberships(colleague)).toEqual([])
    expect((await adapter().listMemberships(owner)).map((found) => found.organizationId)).toEqual([kept.organization.id])
    expect(await adapter().getInvitationByTokenHash(invitation.tokenHash)).toBeNull()
    expect(await adapter().listInvitations(organization.id)).toEqual([])
    expect(await adapter().getInvitation(keptInvitation.id)).toEqual(keptInvitation)
    // Its slug is free again.
    const { organization: reused } = await organizationOf(undefined, { slug: organization.slug })
    expect(await adapter().getOrganizationBySlug(organization.slug)).toEqual(reused)
  })

  check("deleteUser removes the user's memberships", async () => {
    const { organization, owner } = await organizationOf()
    const leaving = await user()
    await adapter().addMember(member(organization.id, leaving, "admin", at(1)))
    await adapter().deleteUser(leaving)
    expect(await adapter().listMemberships(leaving)).toEqual([])
    expect(await adapter().getMember(organization.id, leaving)).toBeNull()
    expect((await adapter().listMembers(organization.id)).map((found) => found.userId)).toEqual([owner])
  })

  check("another organization's members and invitations are never answered", async () => {
    const a = await organizationOf()
    const b = await organizationOf()
    const invitationA = newInvitation(a.organization.id)
    const invitationB = newInvitation(b.organization.id)
    await adapter().createInvitation(invitationA)
    await adapter().createInvitation(invitationB)
    expect(await adapter().getMember(b.organization.id, a.owner)).toBeNull()
    expect((await adapter().listMembers(a.organization.id)).map((found) => found.userId)).toEqual([a.owner])
    expect(await adapter().listInvitations(a.organization.id)).toEqual([invitationA])
    expect(await adapter().updateMemberRole(b.organization.id, a.owner, "member")).toBeNull()
    expect(await adapter().removeMember(b.organization.id, a.owner)).toBeNull()
    expect((await adapter().listMemberships(a.owner)).map((found) => found.organizationId)).toEqual([a.organization.id])
    expect(await adapter().getMember(a.organization.id, a.owner)).toEqual(member(a.organization.id, a.owner, "owner"))
  })
}

/** A fresh copy of a JSON value (the check keeps its own to compare with). */
function structuredJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}
