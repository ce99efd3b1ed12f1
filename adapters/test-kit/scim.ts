/**
 * Contract checks for the SCIM provisioning methods (issue #29): tokens found by their hash,
 * listed oldest first, touched and deleted; provisioned users and groups read back exactly (the
 * attributes JSON with nested objects and arrays, the members in their order), listed oldest first
 * and only for their organization (another organization's id reads as none); within an
 * organization a userName (case-insensitive, by its key), an externalId and a group's displayName
 * (case-insensitive) are unique, on create and on update, also when two writes race (`"uniqueness"`,
 * nothing changed), while another organization may use the same; deleting a provisioned user takes
 * it out of the organization's groups; deleting an organization or a user takes their records
 * along. Every check makes its own organizations and users.
 */
// Over 300 lines on purpose: one flat list of independent checks, one per storage rule (as the other check files).
import { randomUUID } from "node:crypto"
import { expect } from "@jest/globals"
import type { AdapterScimGroup, AdapterScimToken, AdapterScimUser } from "../../lib/adapters.js"
import { newUser, type ContractContext } from "./fixtures.js"

/** Whole seconds, so every engine stores and returns them exactly; `offset` in seconds. */
const BASE = Math.floor(Date.now() / 1000) * 1000
const at = (offset: number) => new Date(BASE + offset * 1000)
const UNIQUENESS = "uniqueness"

function newToken(organizationId: string, overrides: Partial<AdapterScimToken> = {}): AdapterScimToken {
  return { id: randomUUID(), organizationId, name: "Okta", tokenHash: `hash-${randomUUID()}`, createdAt: at(0), lastUsedAt: null, ...overrides }
}

/** What a directory sends beyond the core fields: nested objects, arrays of objects, SCIM's `$ref` and URN keys. */
const ATTRIBUTES = {
  name: { givenName: "Ada", familyName: "Lovelace", formatted: "Ada Lovelace" },
  displayName: "Ada Lovelace",
  emails: [
    { value: "ada@example.com", type: "work", primary: true },
    { value: "ada@home.example", type: "home", primary: false },
  ],
  phoneNumbers: [],
  title: null,
  "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
    employeeNumber: "701984",
    department: "Research & Development",
    manager: { value: "26118915-6090-4610-87e4-49d8ca9f808d", $ref: "../Users/26118915-6090-4610-87e4-49d8ca9f808d", displayName: "Charles Babbage" },
  },
  "x.dotted.key": [[1, 2.5], { deep: { deeper: [true, false, "ünïcödé ✓"] } }],
}

function newScimUser(organizationId: string, userId: string, overrides: Partial<AdapterScimUser> = {}): AdapterScimUser {
  const userName = overrides.userName ?? `Ada.${randomUUID().slice(0, 8)}@Example.com`
  return {
    organizationId,
    userId,
    userName,
    userNameKey: userName.toLowerCase(),
    externalId: `ext-${randomUUID()}`,
    active: true,
    suspendedRole: null,
    attributes: json(ATTRIBUTES),
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  }
}

function newGroup(organizationId: string, overrides: Partial<AdapterScimGroup> = {}): AdapterScimGroup {
  return { id: randomUUID(), organizationId, displayName: `Engineering ${randomUUID().slice(0, 8)}`, externalId: null, members: [], role: null, createdAt: at(0), updatedAt: at(0), ...overrides }
}

export function scimChecks({ adapter, check }: ContractContext): void {
  /** A stored user; its id (the adapter's, which may differ from the fixture's). */
  const user = async () => (await adapter().createUser(newUser())).id
  /** A stored organization owned by a new user; its id. */
  const organization = async () => {
    const owner = await user()
    const id = randomUUID()
    const stored = await adapter().createOrganization(
      { id, slug: `org-${id}`, name: `Organization ${id.slice(0, 8)}`, logo: null, metadata: null, roles: null, createdAt: at(0) },
      { organizationId: id, userId: owner, role: "owner", createdAt: at(0) },
    )
    expect(stored).toMatchObject({ id })
    return id
  }

  check("SCIM tokens: found by hash, listed oldest first and only for their organization; touchScimToken records the use; deleteScimToken removes it", async () => {
    const organizationId = await organization()
    const other = await organization()
    const later = newToken(organizationId, { createdAt: at(20) })
    const earlier = newToken(organizationId, { name: "Entra ID", createdAt: at(10), lastUsedAt: at(15) })
    const elsewhere = newToken(other)
    expect(await adapter().createScimToken(later)).toEqual(later)
    expect(await adapter().createScimToken(earlier)).toEqual(earlier)
    expect(await adapter().createScimToken(elsewhere)).toEqual(elsewhere)
    expect(await adapter().getScimTokenByHash(later.tokenHash)).toEqual(later)
    expect(await adapter().getScimTokenByHash(earlier.tokenHash)).toEqual(earlier)
    expect(await adapter().getScimTokenByHash(`hash-${randomUUID()}`)).toBeNull()
    expect(await adapter().listScimTokens(organizationId)).toEqual([earlier, later])
    expect(await adapter().listScimTokens(other)).toEqual([elsewhere])
    expect(await adapter().listScimTokens(randomUUID())).toEqual([])

    await adapter().touchScimToken(later.id, at(60))
    expect(await adapter().getScimTokenByHash(later.tokenHash)).toEqual({ ...later, lastUsedAt: at(60) })
    await adapter().touchScimToken(randomUUID(), at(60))

    await adapter().deleteScimToken(later.id)
    expect(await adapter().getScimTokenByHash(later.tokenHash)).toBeNull()
    expect(await adapter().listScimTokens(organizationId)).toEqual([earlier])
    expect(await adapter().getScimTokenByHash(elsewhere.tokenHash)).toEqual(elsewhere)
  })

  check("SCIM users: stored and read back exactly (attributes JSON with nested objects and arrays), listed oldest first, only for their organization", async () => {
    const a = await organization()
    const b = await organization()
    const [first, second, third] = [await user(), await user(), await user()]
    const later = newScimUser(a, first, { createdAt: at(20), updatedAt: at(25) })
    const earlier = newScimUser(a, second, { externalId: null, active: false, suspendedRole: "admin", attributes: {}, createdAt: at(10), updatedAt: at(10) })
    const elsewhere = newScimUser(b, third)
    expect(await adapter().createScimUser(later)).toEqual(later)
    expect(await adapter().createScimUser(earlier)).toEqual(earlier)
    expect(await adapter().createScimUser(elsewhere)).toEqual(elsewhere)
    expect(await adapter().getScimUser(a, first)).toEqual(later)
    expect(await adapter().getScimUser(a, second)).toEqual(earlier)
    expect(await adapter().listScimUsers(a)).toEqual([earlier, later])
    expect(await adapter().listScimUsers(b)).toEqual([elsewhere])
    expect(await adapter().listScimUsers(randomUUID())).toEqual([])
    // Another organization's id reads as none.
    expect(await adapter().getScimUser(b, first)).toBeNull()
    expect(await adapter().getScimUser(a, third)).toBeNull()

    // A caller's later change to what it read changes nothing stored.
    const read = await adapter().getScimUser(a, first)
    ;(read?.attributes.emails as unknown[]).push({ value: "injected@example.com" })
    expect(await adapter().getScimUser(a, first)).toEqual(later)
  })

  check("updateScimUser applies the changes (attributes JSON, active, suspendedRole, externalId, userName); null for none or another organization's", async () => {
    const a = await organization()
    const b = await organization()
    const userId = await user()
    const provisioned = newScimUser(a, userId)
    await adapter().createScimUser(provisioned)

    const attributes = { name: { givenName: "Augusta", familyName: "King" }, emails: [{ value: "augusta@example.com", primary: true }], groups: [], "urn:x": { nested: { list: [1, [2, 3], { four: 4 }] } } }
    const suspended = { ...provisioned, active: false, suspendedRole: "member", attributes, updatedAt: at(30) }
    expect(await adapter().updateScimUser(a, userId, { active: false, suspendedRole: "member", attributes: json(attributes), updatedAt: at(30) })).toEqual(suspended)
    expect(await adapter().getScimUser(a, userId)).toEqual(suspended)

    const renamed = { ...suspended, userName: "Augusta.King@Example.com", userNameKey: "augusta.king@example.com", externalId: null, active: true, suspendedRole: null, updatedAt: at(40) }
    expect(
      await adapter().updateScimUser(a, userId, { userName: renamed.userName, userNameKey: renamed.userNameKey, externalId: null, active: true, suspendedRole: null, updatedAt: at(40) }),
    ).toEqual(renamed)
    expect(await adapter().getScimUser(a, userId)).toEqual(renamed)
    expect(await adapter().listScimUsers(a)).toEqual([renamed])

    expect(await adapter().updateScimUser(a, await user(), { active: false })).toBeNull()
    expect(await adapter().updateScimUser(b, userId, { active: false })).toBeNull()
    expect(await adapter().getScimUser(a, userId)).toEqual(renamed)
  })

  check("userName (case-insensitive) and externalId are unique within an organization, on create and on update (uniqueness, nothing changed); another organization may use them", async () => {
    const a = await organization()
    const b = await organization()
    const [first, second, third] = [await user(), await user(), await user()]
    const taken = newScimUser(a, first, { userName: "Grace.Hopper@Example.com", externalId: "00u1" })
    await adapter().createScimUser(taken)

    // The same userName, another case: its key is the same.
    expect(await adapter().createScimUser(newScimUser(a, second, { userName: "GRACE.HOPPER@example.COM", userNameKey: "grace.hopper@example.com" }))).toBe(UNIQUENESS)
    expect(await adapter().createScimUser(newScimUser(a, second, { externalId: "00u1" }))).toBe(UNIQUENESS)
    // The same Gatehouse user provisioned twice in one organization.
    expect(await adapter().createScimUser(newScimUser(a, first))).toBe(UNIQUENESS)
    expect(await adapter().getScimUser(a, second)).toBeNull()
    expect(await adapter().listScimUsers(a)).toEqual([taken])

    // Another organization: the same userName and externalId are fine.
    const elsewhere = newScimUser(b, second, { userName: taken.userName, externalId: "00u1" })
    expect(await adapter().createScimUser(elsewhere)).toEqual(elsewhere)
    // Users without an externalId never collide.
    const plain = newScimUser(a, second, { externalId: null })
    const plainToo = newScimUser(a, third, { externalId: null })
    expect(await adapter().createScimUser(plain)).toEqual(plain)
    expect(await adapter().createScimUser(plainToo)).toEqual(plainToo)

    // On update: refused, and the user is unchanged (no other field of the update applied either).
    expect(await adapter().updateScimUser(a, second, { userName: "grace.hopper@EXAMPLE.com", userNameKey: "grace.hopper@example.com", active: false, updatedAt: at(50) })).toBe(UNIQUENESS)
    expect(await adapter().updateScimUser(a, second, { externalId: "00u1", suspendedRole: "admin", updatedAt: at(50) })).toBe(UNIQUENESS)
    expect(await adapter().getScimUser(a, second)).toEqual(plain)
    // The user's own userName and externalId are not a conflict.
    expect(await adapter().updateScimUser(a, first, { userName: "grace.hopper@example.com", userNameKey: "grace.hopper@example.com", externalId: "00u1" })).toEqual({
      ...taken,
      userName: "grace.hopper@example.com",
    })
    // A freed userName can be taken.
    await adapter().updateScimUser(a, first, { userName: "Rear.Admiral@example.com", userNameKey: "rear.admiral@example.com" })
    expect(await adapter().updateScimUser(a, second, { userName: "Grace.Hopper@Example.com", userNameKey: "grace.hopper@example.com" })).toMatchObject({ userId: second, userNameKey: "grace.hopper@example.com" })
  })

  check("two creates of one userName, or of one group displayName, at the same moment: exactly one is stored", async () => {
    const organizationId = await organization()
    for (let round = 0; round < 3; round++) {
      const userName = `race-${randomUUID()}@example.com`
      const [first, second] = [await user(), await user()]
      const users = await Promise.all([
        adapter().createScimUser(newScimUser(organizationId, first, { userName })),
        adapter().createScimUser(newScimUser(organizationId, second, { userName: userName.toUpperCase(), userNameKey: userName })),
      ])
      expect(users.filter((result) => result === UNIQUENESS)).toHaveLength(1)
      expect((await adapter().listScimUsers(organizationId)).filter((found) => found.userNameKey === userName)).toHaveLength(1)

      const displayName = `Race ${randomUUID()}`
      const groups = await Promise.all([
        adapter().createScimGroup(newGroup(organizationId, { displayName })),
        adapter().createScimGroup(newGroup(organizationId, { displayName: displayName.toLowerCase() })),
      ])
      expect(groups.filter((result) => result === UNIQUENESS)).toHaveLength(1)
      expect((await adapter().listScimGroups(organizationId)).filter((found) => found.displayName.toLowerCase() === displayName.toLowerCase())).toHaveLength(1)
    }
  })

  check("SCIM groups: stored and read back (members in their order, role), listed oldest first; updated; another organization's id reads as none; deleteScimGroup removes it", async () => {
    const a = await organization()
    const b = await organization()
    const [first, second, third] = [await user(), await user(), await user()]
    const later = newGroup(a, { members: [third, first, second], role: "admin", externalId: "okta-group-1", createdAt: at(20), updatedAt: at(20) })
    const earlier = newGroup(a, { createdAt: at(10), updatedAt: at(10) })
    const elsewhere = newGroup(b, { members: [first] })
    expect(await adapter().createScimGroup(later)).toEqual(later)
    expect(await adapter().createScimGroup(earlier)).toEqual(earlier)
    expect(await adapter().createScimGroup(elsewhere)).toEqual(elsewhere)
    expect(await adapter().getScimGroup(a, later.id)).toEqual(later)
    expect(await adapter().getScimGroup(a, earlier.id)).toEqual(earlier)
    expect(await adapter().listScimGroups(a)).toEqual([earlier, later])
    expect(await adapter().listScimGroups(b)).toEqual([elsewhere])
    expect(await adapter().listScimGroups(randomUUID())).toEqual([])
    expect(await adapter().getScimGroup(a, randomUUID())).toBeNull()

    const updated = { ...later, displayName: "Platform", externalId: null, members: [second, third], role: "member", updatedAt: at(30) }
    expect(await adapter().updateScimGroup(a, later.id, { displayName: "Platform", externalId: null, members: [second, third], role: "member", updatedAt: at(30) })).toEqual(updated)
    expect(await adapter().getScimGroup(a, later.id)).toEqual(updated)
    const reordered = { ...updated, members: [third, second, first], role: null, updatedAt: at(40) }
    expect(await adapter().updateScimGroup(a, later.id, { members: [third, second, first], role: null, updatedAt: at(40) })).toEqual(reordered)
    expect(await adapter().getScimGroup(a, later.id)).toEqual(reordered)
    expect(await adapter().updateScimGroup(a, randomUUID(), { role: "admin" })).toBeNull()

    // Another organization's id reads as none, and neither changes nor deletes it.
    expect(await adapter().getScimGroup(b, later.id)).toBeNull()
    expect(await adapter().updateScimGroup(b, later.id, { displayName: "Taken over", members: [] })).toBeNull()
    await adapter().deleteScimGroup(b, later.id)
    expect(await adapter().getScimGroup(a, later.id)).toEqual(reordered)

    await adapter().deleteScimGroup(a, later.id)
    expect(await adapter().getScimGroup(a, later.id)).toBeNull()
    expect(await adapter().listScimGroups(a)).toEqual([earlier])
    expect(await adapter().listScimGroups(b)).toEqual([elsewhere])
  })

  check("a group's displayName is unique within an organization (case-insensitive), on create and on update (uniqueness, nothing changed); another organization may use it", async () => {
    const a = await organization()
    const b = await organization()
    const taken = newGroup(a, { displayName: "Sales EMEA", createdAt: at(1) })
    const other = newGroup(a, { displayName: "Support", role: "member", createdAt: at(2) })
    await adapter().createScimGroup(taken)
    await adapter().createScimGroup(other)
    expect(await adapter().createScimGroup(newGroup(a, { displayName: "sales emea" }))).toBe(UNIQUENESS)
    expect(await adapter().listScimGroups(a)).toEqual([taken, other])
    const elsewhere = newGroup(b, { displayName: "Sales EMEA" })
    expect(await adapter().createScimGroup(elsewhere)).toEqual(elsewhere)

    expect(await adapter().updateScimGroup(a, other.id, { displayName: "SALES emea", role: "admin", members: [await user()] })).toBe(UNIQUENESS)
    expect(await adapter().getScimGroup(a, other.id)).toEqual(other)
    // Its own name, in another case, is not a conflict.
    expect(await adapter().updateScimGroup(a, taken.id, { displayName: "Sales Emea" })).toEqual({ ...taken, displayName: "Sales Emea" })
  })

  check("deleteScimUser forgets the provisioned user and takes them out of the organization's groups (another organization's keep them)", async () => {
    const a = await organization()
    const b = await organization()
    const [leaving, staying] = [await user(), await user()]
    const provisioned = newScimUser(a, leaving)
    await adapter().createScimUser(provisioned)
    await adapter().createScimUser(newScimUser(a, staying))
    const elsewhereUser = newScimUser(b, leaving)
    await adapter().createScimUser(elsewhereUser)
    const groupA = newGroup(a, { members: [staying, leaving] })
    const groupA2 = newGroup(a, { members: [leaving] })
    const groupB = newGroup(b, { members: [leaving, staying] })
    for (const group of [groupA, groupA2, groupB]) await adapter().createScimGroup(group)

    await adapter().deleteScimUser(a, leaving)
    expect(await adapter().getScimUser(a, leaving)).toBeNull()
    expect((await adapter().listScimUsers(a)).map((found) => found.userId)).toEqual([staying])
    expect(await adapter().getScimGroup(a, groupA.id)).toEqual({ ...groupA, members: [staying] })
    expect(await adapter().getScimGroup(a, groupA2.id)).toEqual({ ...groupA2, members: [] })
    expect(await adapter().getScimUser(b, leaving)).toEqual(elsewhereUser)
    expect(await adapter().getScimGroup(b, groupB.id)).toEqual(groupB)
    // The userName is free again.
    expect(await adapter().createScimUser(newScimUser(a, leaving, { userName: provisioned.userName, externalId: provisioned.externalId }))).toMatchObject({ userId: leaving })
  })

  check("deleteOrganization removes its tokens, users and groups; deleteUser removes the user's provisioned records and group places in every organization", async () => {
    const gone = await organization()
    const kept = await organization()
    const [member, other] = [await user(), await user()]
    const token = newToken(gone)
    const keptToken = newToken(kept)
    await adapter().createScimToken(token)
    await adapter().createScimToken(keptToken)
    await adapter().createScimUser(newScimUser(gone, member))
    const keptUser = newScimUser(kept, other)
    await adapter().createScimUser(keptUser)
    const group = newGroup(gone, { members: [member] })
    await adapter().createScimGroup(group)
    const keptGroup = newGroup(kept, { members: [other] })
    await adapter().createScimGroup(keptGroup)

    await adapter().deleteOrganization(gone)
    expect(await adapter().getScimTokenByHash(token.tokenHash)).toBeNull()
    expect(await adapter().listScimTokens(gone)).toEqual([])
    expect(await adapter().getScimUser(gone, member)).toBeNull()
    expect(await adapter().listScimUsers(gone)).toEqual([])
    expect(await adapter().getScimGroup(gone, group.id)).toBeNull()
    expect(await adapter().listScimGroups(gone)).toEqual([])
    expect(await adapter().getScimTokenByHash(keptToken.tokenHash)).toEqual(keptToken)
    expect(await adapter().listScimUsers(kept)).toEqual([keptUser])
    expect(await adapter().listScimGroups(kept)).toEqual([keptGroup])

    // deleteUser: the user's records in two organizations, and their places in both's groups.
    const third = await organization()
    const leaving = await user()
    await adapter().createScimUser(newScimUser(kept, leaving))
    await adapter().createScimUser(newScimUser(third, leaving))
    await adapter().updateScimGroup(kept, keptGroup.id, { members: [leaving, other] })
    const thirdGroup = newGroup(third, { members: [leaving] })
    await adapter().createScimGroup(thirdGroup)
    await adapter().deleteUser(leaving)
    expect(await adapter().getScimUser(kept, leaving)).toBeNull()
    expect(await adapter().getScimUser(third, leaving)).toBeNull()
    expect(await adapter().listScimUsers(kept)).toEqual([keptUser])
    expect(await adapter().getScimGroup(kept, keptGroup.id)).toEqual({ ...keptGroup, members: [other] })
    expect(await adapter().getScimGroup(third, thirdGroup.id)).toEqual({ ...thirdGroup, members: [] })
  })
}

/** A fresh copy of a JSON value (the check keeps its own to compare with). */
function json<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}
