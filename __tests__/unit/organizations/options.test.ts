/**
 * The `organizations` option (issue #27), resolved once with the configuration: mistakes are named
 * errors that name the option, an adapter without the storage methods is refused naming what it
 * lacks, and the role book gives each role its permissions (an owner all of them).
 */
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../../adapters/memory/index.js"
import { resolveOrganizations } from "../../../lib/organizations/options.js"
import { grantOf } from "../../../lib/organizations/roles.js"
import type { Adapter } from "../../../lib/adapters.js"

const adapter = MemoryAdapter()

describe("the organizations option", () => {
  it("is off unless given, and true turns it on with the built-in roles", () => {
    expect(resolveOrganizations(undefined, adapter, [])).toBeUndefined()
    expect(resolveOrganizations(false, adapter, [])).toBeUndefined()
    const on = resolveOrganizations(true, adapter, [])!
    expect([...on.book.roles.keys()]).toEqual(["owner", "admin", "member"])
    expect(on.book.roles.get("member")!.permissions).toEqual([])
    expect(on.book.roles.get("admin")!.permissions).not.toContain("organization:delete")
    expect(on.book.roles.get("owner")!.permissions).toContain("organization:delete")
    expect(on.invitationMaxAge).toBe(7 * 24 * 60 * 60)
  })

  it("adds configured permissions to the built-in roles and declares new roles; an owner holds every one", () => {
    const on = resolveOrganizations({ roles: { member: { project: ["read"] }, billing: { billing: ["read", "write"] } } }, adapter, [])!
    expect(on.book.roles.get("member")!.permissions).toEqual(["project:read"])
    expect(on.book.roles.get("billing")!.permissions).toEqual(["billing:read", "billing:write"])
    expect(on.book.roles.get("owner")!.set.has("billing:write")).toBe(true)
    expect(on.book.roles.get("admin")!.set.has("billing:write")).toBe(false)
  })

  it("an organization's own role grants only permissions the configuration declares", () => {
    const on = resolveOrganizations({ roles: { member: { project: ["read"] } }, customRoles: true }, adapter, [])!
    const grant = grantOf(on.book, "auditor", { auditor: { project: ["read", "delete"], billing: ["read"] } }, true)!
    expect(grant.permissions).toEqual(["project:read"])
    expect(grantOf(on.book, "auditor", { auditor: { project: ["read"] } }, false)).toBeUndefined()
  })

  it.each([
    [{ roles: [] }, /organizations.roles must be an object/],
    [{ roles: { "Bad Name": {} } }, /is not a role name/],
    [{ roles: { editor: { project: "write" } } }, /organizations.roles.editor must map resources/],
    [{ invitationMaxAge: 5 }, /invitationMaxAge/],
    [{ defaultRole: "owner" }, /defaultRole/],
    [{ defaultRole: "ghost" }, /defaultRole/],
    [{ allowCreate: "yes" }, /allowCreate/],
    ["on", /organizations must be true or an object/],
  ])("refuses %j with InvalidOption naming it", (option, message) => {
    expect(() => resolveOrganizations(option, adapter, [])).toThrow(expect.objectContaining({ type: "InvalidOption", message: expect.stringMatching(message) }))
  })

  it("needs an adapter, with every storage method (MissingAdapterMethods names the missing ones)", () => {
    expect(() => resolveOrganizations(true, undefined, [])).toThrow(expect.objectContaining({ type: "MissingAdapter" }))
    const partial = { ...adapter } as Adapter
    delete partial.listMemberships
    delete partial.deleteInvitation
    expect(() => resolveOrganizations(true, partial, [])).toThrow(
      expect.objectContaining({ type: "MissingAdapterMethods", message: expect.stringMatching(/listMemberships, deleteInvitation|deleteInvitation.*listMemberships|listMemberships.*deleteInvitation/) }),
    )
  })
})
