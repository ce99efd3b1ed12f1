/**
 * Groups and the roles they map to (issue #29): a member gets the role of their oldest group with
 * one, else the default role; never `owner` through SCIM; an owner's role is left alone; members
 * and groups of another organization are refused.
 */
import { describe, expect, it } from "@jest/globals"
import { createGroup, deleteGroup, provisionUser, updateGroup, updateProvisionedUser, type ScimGroupInput } from "../../lib/scim/provision.js"
import { addMember, authOf, fixture, organization, problemOf, roleOf, signedIn, storedUser, unique, userInput, verifyDomain, type Fixture } from "./provision-support.js"

async function provisioned(f: Fixture, organizationId: string) {
  const email = `${unique("pat")}@example.net`
  const record = await provisionUser(f.resolved, organizationId, userInput(email))
  return { id: record.userId, email }
}

/** A group whose role the organization's admins set (the directory never does). */
async function roleGroup(f: Fixture, organizationId: string, displayName: string, role: string | null) {
  const group = await createGroup(f.resolved, organizationId, { displayName, externalId: null, members: [] })
  await f.adapter.updateScimGroup!(organizationId, group.id, { role })
  return { ...group, role }
}

const input = (displayName: string, members: string[]): ScimGroupInput => ({ displayName, externalId: null, members })

describe("group roles", () => {
  it("gives the members of a group its role, and the default role back when they leave it", async () => {
    const f = fixture()
    const org = await organization(f)
    const pat = await provisioned(f, org.id)
    const sam = await provisioned(f, org.id)
    const admins = await roleGroup(f, org.id, "Admins", "admin")
    const browser = await signedIn(f, pat)

    await updateGroup(f.resolved, org.id, admins.id, input("Admins", [pat.id, sam.id]))
    expect(await roleOf(f, org.id, pat.id)).toBe("admin")
    expect(await roleOf(f, org.id, sam.id)).toBe("admin")
    expect((await authOf(browser))?.organization).toMatchObject({ id: org.id, role: "admin" })

    await updateGroup(f.resolved, org.id, admins.id, input("Admins", [sam.id]))
    expect(await roleOf(f, org.id, pat.id)).toBe("member")
    expect(await roleOf(f, org.id, sam.id)).toBe("admin")
    expect((await authOf(browser))?.organization).toMatchObject({ id: org.id, role: "member" })

    await deleteGroup(f.resolved, org.id, admins.id)
    expect(await roleOf(f, org.id, sam.id)).toBe("member")
    expect(f.audits).toContainEqual(expect.objectContaining({ type: "scim.group_changed", organizationId: org.id, groupId: admins.id }))
  })

  it("takes the role of the oldest group that has one", async () => {
    const f = fixture()
    const org = await organization(f)
    const pat = await provisioned(f, org.id)
    const editors = await roleGroup(f, org.id, "Editors", "editor")
    const plain = await roleGroup(f, org.id, "Everyone", null)
    const admins = await roleGroup(f, org.id, "Admins", "admin")
    await updateGroup(f.resolved, org.id, admins.id, input("Admins", [pat.id]))
    await updateGroup(f.resolved, org.id, plain.id, input("Everyone", [pat.id]))
    expect(await roleOf(f, org.id, pat.id)).toBe("admin")
    await updateGroup(f.resolved, org.id, editors.id, input("Editors", [pat.id]))
    expect(await roleOf(f, org.id, pat.id)).toBe("editor")
    await updateGroup(f.resolved, org.id, editors.id, input("Editors", []))
    expect(await roleOf(f, org.id, pat.id)).toBe("admin")
  })

  it("never makes an owner through a group, and never changes an owner's role", async () => {
    const f = fixture()
    const domain = `${unique("acme")}.example`
    const owner = await storedUser(f, "olga", { email: `olga@${domain}` })
    const org = await organization(f, owner)
    await verifyDomain(f, org.id, domain)
    await provisionUser(f.resolved, org.id, userInput(owner.email))
    const pat = await provisioned(f, org.id)
    const owners = await roleGroup(f, org.id, "Owners", "owner")
    await updateGroup(f.resolved, org.id, owners.id, input("Owners", [pat.id]))
    expect(await roleOf(f, org.id, pat.id)).toBe("member")

    const admins = await roleGroup(f, org.id, "Admins", "admin")
    await updateGroup(f.resolved, org.id, admins.id, input("Admins", [owner.id, pat.id]))
    expect(await roleOf(f, org.id, owner.id)).toBe("owner")
    expect(await roleOf(f, org.id, pat.id)).toBe("admin")
  })

  it("leaves roles alone when a group without a role changes", async () => {
    const f = fixture()
    const org = await organization(f)
    const pat = await provisioned(f, org.id)
    await f.adapter.updateMemberRole!(org.id, pat.id, "editor")
    const everyone = await createGroup(f.resolved, org.id, input("Everyone", [pat.id]))
    await updateGroup(f.resolved, org.id, everyone.id, input("Everyone", []))
    expect(await roleOf(f, org.id, pat.id)).toBe("editor")
  })

  it("keeps a deactivated member's computed role for their reactivation", async () => {
    const f = fixture()
    const org = await organization(f)
    const pat = await provisioned(f, org.id)
    const admins = await roleGroup(f, org.id, "Admins", "admin")
    await updateProvisionedUser(f.resolved, org.id, pat.id, userInput(pat.email, { active: false }))
    await updateGroup(f.resolved, org.id, admins.id, input("Admins", [pat.id]))
    expect(await roleOf(f, org.id, pat.id)).toBeNull()
    expect((await f.adapter.getScimUser!(org.id, pat.id))?.suspendedRole).toBe("admin")
    await updateProvisionedUser(f.resolved, org.id, pat.id, userInput(pat.email))
    expect(await roleOf(f, org.id, pat.id)).toBe("admin")
  })
})

describe("group rules", () => {
  it("refuses members that are not users provisioned in this organization, naming the value", async () => {
    const f = fixture()
    const org = await organization(f)
    const theirs = await organization(f)
    const pat = await provisioned(f, org.id)
    const stranger = await provisioned(f, theirs.id)
    const plainMember = await storedUser(f, "mo")
    await addMember(f, org.id, plainMember.id, "member")
    for (const value of [stranger.id, plainMember.id, "no-such-user"]) {
      const problem = await problemOf(createGroup(f.resolved, org.id, input(unique("G"), [pat.id, value])))
      expect(problem).toMatchObject({ status: 400, scimType: "invalidValue" })
      expect(problem.message).toContain(value)
    }
    expect(await f.adapter.listScimGroups!(org.id)).toEqual([])
  })

  it("keeps displayNames unique in an organization (409 uniqueness), not across organizations", async () => {
    const f = fixture()
    const org = await organization(f)
    const theirs = await organization(f)
    await createGroup(f.resolved, org.id, input("Sales", []))
    expect(await problemOf(createGroup(f.resolved, org.id, input("sales", [])))).toMatchObject({ status: 409, scimType: "uniqueness" })
    const other = await createGroup(f.resolved, org.id, input("Support", []))
    expect(await problemOf(updateGroup(f.resolved, org.id, other.id, input("SALES", [])))).toMatchObject({ status: 409, scimType: "uniqueness" })
    await expect(createGroup(f.resolved, theirs.id, input("Sales", []))).resolves.toMatchObject({ organizationId: theirs.id })
  })

  it("reads another organization's group ids as none (404), changing nothing there", async () => {
    const f = fixture()
    const org = await organization(f)
    const theirs = await organization(f)
    const member = await provisioned(f, theirs.id)
    const group = await createGroup(f.resolved, theirs.id, input("Theirs", [member.id]))
    expect(await problemOf(updateGroup(f.resolved, org.id, group.id, input("Mine", [])))).toMatchObject({ status: 404 })
    expect(await problemOf(deleteGroup(f.resolved, org.id, group.id))).toMatchObject({ status: 404 })
    expect(await f.adapter.getScimGroup!(theirs.id, group.id)).toMatchObject({ displayName: "Theirs", members: [member.id] })
  })
})
