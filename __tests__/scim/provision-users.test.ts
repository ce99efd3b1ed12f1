/**
 * Provisioning a user (issue #29): who is created, who is linked, who is refused, and what the
 * organization membership becomes. The functions are called as the SCIM protocol layer calls them.
 */
import { describe, expect, it } from "@jest/globals"
import { deprovisionUser, provisionUser, scimBlocksSignIn, updateProvisionedUser } from "../../lib/scim/provision.js"
import { addMember, fixture, organization, problemOf, roleOf, storedUser, unique, userInput, verifyDomain } from "./provision-support.js"

describe("provisionUser", () => {
  it("creates a new user, unproven at a domain the organization has not verified, as a member with the default role", async () => {
    const f = fixture()
    const org = await organization(f)
    const email = `${unique("pat")}@elsewhere.example`
    const provisioned = await provisionUser(f.resolved, org.id, userInput(email, { externalId: "okta-1", attributes: { emails: [{ value: email }], name: { formatted: "Pat Q. Doe" } } }))
    const user = await f.adapter.getUser!(provisioned.userId)
    expect(user).toMatchObject({ email, name: "Pat Q. Doe", emailVerified: null })
    expect(await roleOf(f, org.id, provisioned.userId)).toBe("member")
    expect(provisioned).toMatchObject({ organizationId: org.id, userName: email, userNameKey: email.toLowerCase(), externalId: "okta-1", active: true })
    expect(f.audits).toContainEqual(expect.objectContaining({ type: "scim.user_provisioned", organizationId: org.id, userId: provisioned.userId }))
  })

  it("marks the address proven at a domain the organization verified, and names the user from given and family names", async () => {
    const f = fixture()
    const org = await organization(f)
    const domain = `${unique("acme")}.example`
    await verifyDomain(f, org.id, domain)
    const provisioned = await provisionUser(f.resolved, org.id, userInput(`pat@${domain}`))
    const user = await f.adapter.getUser!(provisioned.userId)
    expect(user?.emailVerified).toBeInstanceOf(Date)
    expect(user?.name).toBe("Pat Doe")
  })

  it("takes the primary address over the first one, and the userName when no email is sent", async () => {
    const f = fixture()
    const org = await organization(f)
    const work = `${unique("work")}@example.org`
    const first = await provisionUser(f.resolved, org.id, { userName: "pat", externalId: null, active: true, attributes: { emails: [{ value: `${unique("home")}@example.org` }, { value: work, primary: true }] } })
    expect((await f.adapter.getUser!(first.userId))?.email).toBe(work)
    const byName = `${unique("sam")}@example.org`
    const second = await provisionUser(f.resolved, org.id, { userName: byName, externalId: null, active: true, attributes: {} })
    expect((await f.adapter.getUser!(second.userId))?.email).toBe(byName)
  })

  it("refuses a user without an address (400 invalidValue), creating nothing", async () => {
    const f = fixture()
    const org = await organization(f)
    const problem = await problemOf(provisionUser(f.resolved, org.id, { userName: "not-an-address", externalId: null, active: true, attributes: { displayName: "Nobody" } }))
    expect(problem).toMatchObject({ status: 400, scimType: "invalidValue" })
    expect(await f.adapter.listScimUsers!(org.id)).toEqual([])
  })

  it("refuses an existing user at a domain the organization has not verified (409 uniqueness): no membership, no record", async () => {
    const f = fixture()
    const org = await organization(f)
    const existing = await storedUser(f, "ann", { email: `${unique("ann")}@gmail.example` })
    const problem = await problemOf(provisionUser(f.resolved, org.id, userInput(existing.email)))
    expect(problem).toMatchObject({ status: 409, scimType: "uniqueness" })
    expect(problem.message).toMatch(/cannot claim/)
    expect(await roleOf(f, org.id, existing.id)).toBeNull()
    expect(await f.adapter.listScimUsers!(org.id)).toEqual([])
  })

  it("refuses an existing user whose domain another organization verified", async () => {
    const f = fixture()
    const other = await organization(f)
    const org = await organization(f)
    const domain = `${unique("theirs")}.example`
    await verifyDomain(f, other.id, domain)
    const existing = await storedUser(f, "ann", { email: `ann@${domain}` })
    expect(await problemOf(provisionUser(f.resolved, org.id, userInput(existing.email)))).toMatchObject({ status: 409, scimType: "uniqueness" })
    expect(await roleOf(f, org.id, existing.id)).toBeNull()
  })

  it("links an existing user at a verified domain; a member keeps their role", async () => {
    const f = fixture()
    const org = await organization(f)
    const domain = `${unique("acme")}.example`
    await verifyDomain(f, org.id, domain)
    const newcomer = await storedUser(f, "ann", { email: `ann@${domain}` })
    const editor = await storedUser(f, "eve", { email: `eve@${domain}` })
    await addMember(f, org.id, editor.id, "editor")
    expect((await provisionUser(f.resolved, org.id, userInput(newcomer.email))).userId).toBe(newcomer.id)
    expect((await provisionUser(f.resolved, org.id, userInput(editor.email))).userId).toBe(editor.id)
    expect(await roleOf(f, org.id, newcomer.id)).toBe("member")
    expect(await roleOf(f, org.id, editor.id)).toBe("editor")
  })

  it("does not hand an unproven existing account at a verified domain to the organization", async () => {
    const f = fixture()
    const org = await organization(f)
    const domain = `${unique("acme")}.example`
    await verifyDomain(f, org.id, domain)
    const squatter = await storedUser(f, "ceo", { email: `ceo@${domain}`, verified: false })
    expect(await problemOf(provisionUser(f.resolved, org.id, userInput(squatter.email)))).toMatchObject({ status: 409, scimType: "uniqueness" })
    expect(await roleOf(f, org.id, squatter.id)).toBeNull()
  })

  it("refuses a userName the organization has (any case) with 409 uniqueness, and keeps no user for it", async () => {
    const f = fixture()
    const org = await organization(f)
    await provisionUser(f.resolved, org.id, userInput(`${unique("a")}@example.net`, { userName: "Pat.Doe" }))
    const second = `${unique("b")}@example.net`
    expect(await problemOf(provisionUser(f.resolved, org.id, userInput(second, { userName: "pat.doe" })))).toMatchObject({ status: 409, scimType: "uniqueness" })
    expect(await f.adapter.getUserByEmail!(second)).toBeNull()
    expect(await f.adapter.listScimUsers!(org.id)).toHaveLength(1)
  })

  it("provisions an inactive user without a membership, blocked from signing in there", async () => {
    const f = fixture()
    const org = await organization(f)
    const provisioned = await provisionUser(f.resolved, org.id, userInput(`${unique("c")}@example.net`, { active: false }))
    expect(provisioned.active).toBe(false)
    expect(await roleOf(f, org.id, provisioned.userId)).toBeNull()
    expect(await scimBlocksSignIn(f.resolved, org.id, provisioned.userId)).toBe(true)
    // Reactivated: the default role.
    await updateProvisionedUser(f.resolved, org.id, provisioned.userId, userInput((await f.adapter.getUser!(provisioned.userId))!.email))
    expect(await roleOf(f, org.id, provisioned.userId)).toBe("member")
    expect(await scimBlocksSignIn(f.resolved, org.id, provisioned.userId)).toBe(false)
  })

  it("reads another organization's user ids as none (404), changing nothing there", async () => {
    const f = fixture()
    const mine = await organization(f)
    const theirs = await organization(f)
    const email = `${unique("d")}@example.net`
    const provisioned = await provisionUser(f.resolved, theirs.id, userInput(email))
    expect(await problemOf(updateProvisionedUser(f.resolved, mine.id, provisioned.userId, userInput(email, { active: false })))).toMatchObject({ status: 404 })
    expect(await problemOf(deprovisionUser(f.resolved, mine.id, provisioned.userId))).toMatchObject({ status: 404 })
    expect(await roleOf(f, theirs.id, provisioned.userId)).toBe("member")
    expect((await f.adapter.getScimUser!(theirs.id, provisioned.userId))?.active).toBe(true)
    expect(await scimBlocksSignIn(f.resolved, mine.id, provisioned.userId)).toBe(false)
  })

  it("keeps the Gatehouse user's address when the directory sends a new one", async () => {
    const f = fixture()
    const org = await organization(f)
    const email = `${unique("e")}@example.net`
    const provisioned = await provisionUser(f.resolved, org.id, userInput(email))
    const moved = `${unique("f")}@example.net`
    const updated = await updateProvisionedUser(f.resolved, org.id, provisioned.userId, userInput(moved))
    expect(updated.userName).toBe(moved)
    expect(updated.attributes).toEqual(expect.objectContaining({ emails: [{ value: moved, primary: true }] }))
    expect((await f.adapter.getUser!(provisioned.userId))?.email).toBe(email)
  })
})
