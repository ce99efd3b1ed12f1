/**
 * The SCIM Group resource over HTTP (issue #29), memory adapter: create with members (each shown
 * with its display name), Okta's member-by-member PATCH (`add` members, `remove` with
 * `members[value eq "..."]`, a rename that repeats the id), Entra's removal by value, replace (PUT),
 * `excludedAttributes=members`, a member who is not this organization's provisioned user
 * (invalidValue, nothing changed), delete (204).
 */
import { describe, expect, it } from "@jest/globals"
import { GROUP_SCHEMA, PATCH_OP, createUser, directory, expectScimError } from "./protocol-support.js"

describe("SCIM Groups", () => {
  it("creates a group with members and reads it back", async () => {
    const dir = await directory("groups")
    const ada = await createUser(dir, "ada", { displayName: "Ada" })
    const answer = await dir.call("POST", "/Groups", { schemas: [GROUP_SCHEMA], displayName: "Engineers", externalId: "g-1", members: [{ value: ada.id }] })
    expect(answer.status).toBe(201)
    const group = answer.body
    expect(group).toMatchObject({ schemas: [GROUP_SCHEMA], displayName: "Engineers", externalId: "g-1", members: [{ value: ada.id, display: "Ada" }], meta: { resourceType: "Group" } })
    expect(answer.headers.location).toBe(group.meta.location)
    expect((await dir.call("GET", `/Groups/${group.id}`)).body).toEqual(group)
    const slim = await dir.call("GET", `/Groups/${group.id}?excludedAttributes=members`)
    expect(slim.body.members).toBeUndefined()
    expect(slim.body.displayName).toBe("Engineers")
    expectScimError(await dir.call("POST", "/Groups", { schemas: [GROUP_SCHEMA], displayName: "engineers" }), 409, "uniqueness")
  })

  it("patches members one by one as Okta does, and renames with the id repeated", async () => {
    const dir = await directory("okta-groups")
    const [a, b] = [await createUser(dir, "a"), await createUser(dir, "b")]
    const group = (await dir.call("POST", "/Groups", { schemas: [GROUP_SCHEMA], displayName: "Okta Group", members: [] })).body
    const patch = (Operations: unknown[]) => dir.call("PATCH", `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations })
    expect((await patch([{ op: "add", path: "members", value: [{ value: a.id, display: a.userName }] }])).body.members.map((m: { value: string }) => m.value)).toEqual([a.id])
    expect((await patch([{ op: "add", path: "members", value: [{ value: b.id }] }])).body.members.map((m: { value: string }) => m.value)).toEqual([a.id, b.id])
    // Adding a member twice keeps one.
    expect((await patch([{ op: "add", path: "members", value: [{ value: a.id }] }])).body.members).toHaveLength(2)
    const removed = await patch([{ op: "remove", path: `members[value eq "${a.id}"]` }])
    expect(removed.body.members.map((m: { value: string }) => m.value)).toEqual([b.id])
    expect((await dir.t.adapter.getScimGroup!(dir.organizationId, group.id))!.members).toEqual([b.id])
    const renamed = await patch([{ op: "replace", value: { id: group.id, displayName: "Renamed" } }])
    expect(renamed.body).toMatchObject({ id: group.id, displayName: "Renamed" })
    // Removing the last member, then removing from none: both fine.
    expect((await patch([{ op: "remove", path: `members[value eq "${b.id}"]` }])).body.members).toEqual([])
    expect((await patch([{ op: "remove", path: `members[value eq "${b.id}"]` }])).status).toBe(200)
  })

  it("removes members by value as Entra does", async () => {
    const dir = await directory("entra-groups")
    const [a, b] = [await createUser(dir, "a"), await createUser(dir, "b")]
    const group = (await dir.call("POST", "/Groups", { schemas: [GROUP_SCHEMA], displayName: "Entra Group", members: [{ value: a.id }, { value: b.id }] })).body
    const answer = await dir.call("PATCH", `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: "Remove", path: "members", value: [{ value: a.id }] }] })
    expect(answer.status).toBe(200)
    expect(answer.body.members.map((m: { value: string }) => m.value)).toEqual([b.id])
    const renamed = await dir.call("PATCH", `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: "Replace", path: "displayName", value: "Entra Renamed" }] })
    expect(renamed.body.displayName).toBe("Entra Renamed")
  })

  it("refuses a member who is not this organization's provisioned user, and changes nothing", async () => {
    const dir = await directory("foreign-members")
    const other = await directory("other-org", true, dir.t)
    const mine = await createUser(dir, "mine")
    const theirs = await createUser(other, "theirs")
    expectScimError(await dir.call("POST", "/Groups", { schemas: [GROUP_SCHEMA], displayName: "Mixed", members: [{ value: mine.id }, { value: theirs.id }] }), 400, "invalidValue")
    expectScimError(await dir.call("POST", "/Groups", { schemas: [GROUP_SCHEMA], displayName: "Owner", members: [{ value: "owner-anyone" }] }), 400, "invalidValue")
    const group = (await dir.call("POST", "/Groups", { schemas: [GROUP_SCHEMA], displayName: "Mine", members: [{ value: mine.id }] })).body
    expectScimError(await dir.call("PATCH", `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: "add", path: "members", value: [{ value: theirs.id }] }] }), 400, "invalidValue")
    expectScimError(await dir.call("PATCH", `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: "add", path: "owners", value: [{ value: mine.id }] }] }), 400, "invalidPath")
    expect((await dir.t.adapter.listScimGroups!(dir.organizationId)).map((g) => [g.displayName, g.members])).toEqual([["Mine", [mine.id]]])
    // The other organization's group is not reachable with this token.
    const theirGroup = (await other.call("POST", "/Groups", { schemas: [GROUP_SCHEMA], displayName: "Theirs" })).body
    expectScimError(await dir.call("GET", `/Groups/${theirGroup.id}`), 404)
    expectScimError(await dir.call("DELETE", `/Groups/${theirGroup.id}`), 404)
    expect(await dir.t.adapter.getScimGroup!(other.organizationId, theirGroup.id)).not.toBeNull()
  })

  it("replaces a group with PUT and deletes it", async () => {
    const dir = await directory("put-groups")
    const a = await createUser(dir, "a")
    const group = (await dir.call("POST", "/Groups", { schemas: [GROUP_SCHEMA], displayName: "Before", externalId: "x", members: [{ value: a.id }] })).body
    const replaced = await dir.call("PUT", `/Groups/${group.id}`, { schemas: [GROUP_SCHEMA], displayName: "After" })
    expect(replaced.status).toBe(200)
    expect(replaced.body).toMatchObject({ id: group.id, displayName: "After", members: [] })
    expect(replaced.body.externalId).toBeUndefined()
    const deleted = await dir.call("DELETE", `/Groups/${group.id}`)
    expect(deleted.status).toBe(204)
    expectScimError(await dir.call("GET", `/Groups/${group.id}`), 404)
  })
})
