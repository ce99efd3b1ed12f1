/**
 * Deactivating, reactivating and deprovisioning a provisioned user (issue #29), seen from the
 * person's browser: a user with no other organization is signed out; a member elsewhere stays
 * signed in but no longer acts for this organization; the organization's only owner is never
 * deactivated nor removed.
 */
import { describe, expect, it } from "@jest/globals"
import { createGroup, deprovisionUser, provisionUser, scimBlocksSignIn, updateProvisionedUser } from "../../lib/scim/provision.js"
import { addMember, authOf, fixture, organization, problemOf, roleOf, signedIn, storedUser, unique, userInput, verifyDomain } from "./provision-support.js"

async function provisioned(f: ReturnType<typeof fixture>, organizationId: string) {
  const email = `${unique("pat")}@example.net`
  const record = await provisionUser(f.resolved, organizationId, userInput(email))
  return { id: record.userId, email }
}

describe("deactivation", () => {
  it("signs out a user who is a member of no other organization", async () => {
    const f = fixture()
    const org = await organization(f)
    const pat = await provisioned(f, org.id)
    const browser = await signedIn(f, pat)
    expect(await authOf(browser)).toMatchObject({ user: { email: pat.email }, organization: { id: org.id, role: "member" } })

    const updated = await updateProvisionedUser(f.resolved, org.id, pat.id, userInput(pat.email, { active: false }))
    expect(updated).toMatchObject({ active: false, suspendedRole: "member" })
    expect((await authOf(browser))?.user).toBeUndefined()
    expect(await roleOf(f, org.id, pat.id)).toBeNull()
    expect(await scimBlocksSignIn(f.resolved, org.id, pat.id)).toBe(true)
    expect(f.audits).toContainEqual(expect.objectContaining({ type: "scim.user_deactivated", organizationId: org.id, userId: pat.id }))
  })

  it("keeps a member elsewhere signed in, without this organization", async () => {
    const f = fixture()
    const org = await organization(f)
    const elsewhere = await organization(f)
    const pat = await provisioned(f, org.id)
    await addMember(f, elsewhere.id, pat.id, "admin")
    const browser = await signedIn(f, pat)
    expect((await authOf(browser))?.organization?.id).toBe(org.id)

    await updateProvisionedUser(f.resolved, org.id, pat.id, userInput(pat.email, { active: false }))
    const auth = await authOf(browser)
    expect(auth?.user?.email).toBe(pat.email)
    expect(auth?.organization).toMatchObject({ id: elsewhere.id, role: "admin" })
    expect(await roleOf(f, elsewhere.id, pat.id)).toBe("admin")
  })

  it("restores the role the user had when reactivated", async () => {
    const f = fixture()
    const org = await organization(f)
    const pat = await provisioned(f, org.id)
    await f.adapter.updateMemberRole!(org.id, pat.id, "editor")
    await updateProvisionedUser(f.resolved, org.id, pat.id, userInput(pat.email, { active: false }))
    const back = await updateProvisionedUser(f.resolved, org.id, pat.id, userInput(pat.email, { active: true }))
    expect(back).toMatchObject({ active: true, suspendedRole: null })
    expect(await roleOf(f, org.id, pat.id)).toBe("editor")
    expect(await scimBlocksSignIn(f.resolved, org.id, pat.id)).toBe(false)
    // Signing in again reaches the organization with that role.
    expect((await authOf(await signedIn(f, pat)))?.organization).toMatchObject({ id: org.id, role: "editor" })
    expect(f.audits).toContainEqual(expect.objectContaining({ type: "scim.user_reactivated", userId: pat.id }))
  })

  it("never deactivates nor removes the organization's only owner, and changes nothing trying", async () => {
    const f = fixture()
    const domain = `${unique("acme")}.example`
    const owner = await storedUser(f, "olga", { email: `olga@${domain}` })
    const org = await organization(f, owner)
    await verifyDomain(f, org.id, domain)
    await provisionUser(f.resolved, org.id, userInput(owner.email))
    const browser = await signedIn(f, owner)

    const deactivate = await problemOf(updateProvisionedUser(f.resolved, org.id, owner.id, userInput(owner.email, { userName: "renamed", active: false })))
    expect(deactivate).toMatchObject({ status: 400, scimType: "mutability" })
    expect(deactivate.message).toMatch(/only owner/)
    expect(await problemOf(deprovisionUser(f.resolved, org.id, owner.id))).toMatchObject({ status: 400, scimType: "mutability" })
    expect(await roleOf(f, org.id, owner.id)).toBe("owner")
    expect(await f.adapter.getScimUser!(org.id, owner.id)).toMatchObject({ active: true, userName: owner.email })
    expect((await authOf(browser))?.organization).toMatchObject({ id: org.id, role: "owner" })

    // With a second owner, the first may go (and comes back an owner).
    await addMember(f, org.id, (await storedUser(f, "otto")).id, "owner")
    await updateProvisionedUser(f.resolved, org.id, owner.id, userInput(owner.email, { active: false }))
    expect(await roleOf(f, org.id, owner.id)).toBeNull()
    await updateProvisionedUser(f.resolved, org.id, owner.id, userInput(owner.email))
    expect(await roleOf(f, org.id, owner.id)).toBe("owner")
  })
})

describe("deprovisionUser", () => {
  it("removes the membership, the record and the group places, keeps the user, and signs them out", async () => {
    const f = fixture()
    const org = await organization(f)
    const pat = await provisioned(f, org.id)
    const group = await createGroup(f.resolved, org.id, { displayName: "Engineering", externalId: null, members: [pat.id] })
    const browser = await signedIn(f, pat)

    await deprovisionUser(f.resolved, org.id, pat.id)
    expect(await roleOf(f, org.id, pat.id)).toBeNull()
    expect(await f.adapter.getScimUser!(org.id, pat.id)).toBeNull()
    expect((await f.adapter.getScimGroup!(org.id, group.id))?.members).toEqual([])
    expect(await f.adapter.getUser!(pat.id)).toMatchObject({ email: pat.email })
    expect((await authOf(browser))?.user).toBeUndefined()
    expect(await problemOf(deprovisionUser(f.resolved, org.id, pat.id))).toMatchObject({ status: 404 })
  })

  it("keeps the sessions and memberships of a member elsewhere", async () => {
    const f = fixture()
    const org = await organization(f)
    const elsewhere = await organization(f)
    const pat = await provisioned(f, org.id)
    await addMember(f, elsewhere.id, pat.id, "member")
    const browser = await signedIn(f, pat)
    await deprovisionUser(f.resolved, org.id, pat.id)
    const auth = await authOf(browser)
    expect(auth?.user?.email).toBe(pat.email)
    expect(auth?.organization?.id).toBe(elsewhere.id)
  })
})
