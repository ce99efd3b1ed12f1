/**
 * The SCIM User resource over HTTP (issue #29), memory adapter: create (201, Location, meta with a
 * weak ETag version, the enterprise extension kept), read, replace (PUT clears what is not sent,
 * `active` defaults to true), PATCH in Okta's shape (`replace` with a value object) and Entra's
 * (`Replace`, `"False"`, a value-filter path, the extension's attributes by URN), a bad path
 * (invalidPath), a change of `id` (mutability), a taken userName (409 uniqueness), delete (204).
 */
import { describe, expect, it } from "@jest/globals"
import { ENTERPRISE, PATCH_OP, USER_SCHEMA, createUser, directory, expectScimError, userBody } from "./protocol-support.js"

describe("SCIM Users", () => {
  it("creates a user: 201 with Location, ETag and meta, the attributes as sent", async () => {
    const dir = await directory("create")
    const body = userBody("ada@example.org", { externalId: "ext-ada", displayName: "Ada Lovelace", [ENTERPRISE]: { department: "Engines", manager: { value: "someone" } } })
    const answer = await dir.call("POST", "/Users", body)
    expect(answer.status).toBe(201)
    const user = answer.body
    expect(user).toMatchObject({
      schemas: [USER_SCHEMA, ENTERPRISE],
      userName: "ada@example.org",
      externalId: "ext-ada",
      active: true,
      displayName: "Ada Lovelace",
      emails: [{ primary: true, type: "work", value: "ada@example.org" }],
      name: { givenName: "Test", familyName: "User" },
      [ENTERPRISE]: { department: "Engines", manager: { value: "someone" } },
    })
    const location = `http://app.test/auth/scim/v2/${dir.organizationId}/Users/${user.id}`
    expect(answer.headers.location).toBe(location)
    expect(user.meta).toMatchObject({ resourceType: "User", location })
    expect(user.meta.version).toMatch(/^W\/".+"$/)
    expect(answer.headers.etag).toBe(user.meta.version)
    expect(new Date(user.meta.created).getTime()).not.toBeNaN()
    // The password is never kept nor shown.
    const withPassword = await dir.call("POST", "/Users", userBody("pw@example.org", { password: "Secret-1234" }))
    expect(withPassword.status).toBe(201)
    expect(withPassword.body.password).toBeUndefined()
    const read = await dir.call("GET", `/Users/${user.id}`)
    expect(read.status).toBe(200)
    expect(read.body).toEqual(user)
  })

  it("refuses a userName the organization has (409 uniqueness, any case) and a User without one (400)", async () => {
    const dir = await directory("unique")
    await dir.call("POST", "/Users", userBody("grace@example.org"))
    expectScimError(await dir.call("POST", "/Users", userBody("Grace@Example.org")), 409, "uniqueness")
    const { userName: _userName, ...nameless } = userBody("nobody@example.org")
    void _userName
    expectScimError(await dir.call("POST", "/Users", nameless), 400, "invalidValue")
    expectScimError(await dir.call("POST", "/Users", userBody("odd@example.org", { shoeSize: 42 })), 400, "invalidValue")
    expect(await dir.t.adapter.listScimUsers!(dir.organizationId)).toHaveLength(1)
  })

  it("replaces a user with PUT: attributes not sent are cleared, active defaults to true", async () => {
    const dir = await directory("put")
    const user = await createUser(dir, "put", { displayName: "Before", externalId: "ext-1", [ENTERPRISE]: { department: "Old" } })
    const answer = await dir.call("PUT", `/Users/${user.id}`, { schemas: [USER_SCHEMA], userName: user.userName, name: { givenName: "After" } })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ id: user.id, userName: user.userName, active: true, name: { givenName: "After" } })
    expect(answer.body.displayName).toBeUndefined()
    expect(answer.body.externalId).toBeUndefined()
    expect(answer.body.emails).toBeUndefined()
    expect(answer.body[ENTERPRISE]).toBeUndefined()
    expect(answer.body.schemas).toEqual([USER_SCHEMA])
    // A PUT naming another id is refused.
    expectScimError(await dir.call("PUT", `/Users/${user.id}`, { ...userBody(user.userName), id: "someone-else" }), 400, "mutability")
    // A stale If-Match is refused, the current one accepted.
    expectScimError(await dir.call("PUT", `/Users/${user.id}`, userBody(user.userName), { headers: { "If-Match": 'W/"1"' } }), 412)
    const current = await dir.call("GET", `/Users/${user.id}`)
    const matched = await dir.call("PUT", `/Users/${user.id}`, userBody(user.userName, { displayName: "Matched" }), { headers: { "If-Match": current.body.meta.version } })
    expect(matched.status).toBe(200)
    expectScimError(await dir.call("PUT", "/Users/no-such-user", userBody("ghost@example.org")), 404)
  })

  it("applies Okta's PATCH: replace with a value object (deactivate, reactivate)", async () => {
    const dir = await directory("okta-patch")
    const user = await createUser(dir, "okta")
    const off = await dir.call("PATCH", `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] })
    expect(off.status).toBe(200)
    expect(off.body.active).toBe(false)
    expect((await dir.t.adapter.getScimUser!(dir.organizationId, user.id))!.active).toBe(false)
    const on = await dir.call("PATCH", `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: true, "name.givenName": "Again" } }] })
    expect(on.body).toMatchObject({ active: true, name: { givenName: "Again", familyName: "User" } })
  })

  it("applies Entra's PATCH: capitalised ops, string booleans, filter paths and the extension by URN", async () => {
    const dir = await directory("entra-patch")
    const user = await createUser(dir, "entra", { externalId: "ext-entra" })
    const answer = await dir.call("PATCH", `/Users/${user.id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: "Replace", path: "displayName", value: "Entra Name" },
        { op: "Replace", path: 'emails[type eq "work"].value', value: "moved@example.org" },
        { op: "Add", path: `${ENTERPRISE}:department`, value: "Research" },
        { op: "Add", path: 'phoneNumbers[type eq "mobile"].value', value: "+1 555 0100" },
        { op: "Replace", path: "active", value: "False" },
      ],
    })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      displayName: "Entra Name",
      active: false,
      emails: [{ type: "work", value: "moved@example.org", primary: true }],
      phoneNumbers: [{ type: "mobile", value: "+1 555 0100" }],
      [ENTERPRISE]: { department: "Research" },
    })
    expect(answer.body.schemas).toEqual([USER_SCHEMA, ENTERPRISE])
    const back = await dir.call("PATCH", `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: "Replace", path: "active", value: "True" }, { op: "Remove", path: `${ENTERPRISE}:department` }] })
    expect(back.body.active).toBe(true)
    expect(back.body[ENTERPRISE]).toEqual({})
    // Without a path: the extension as an object beside core attributes.
    const whole = await dir.call("PATCH", `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: "Add", value: { [ENTERPRISE]: { costCenter: "42" }, title: "Engineer" } }] })
    expect(whole.body).toMatchObject({ title: "Engineer", [ENTERPRISE]: { costCenter: "42" } })
  })

  it("refuses a bad PATCH with invalidPath, mutability or invalidSyntax, and changes nothing", async () => {
    const dir = await directory("bad-patch")
    const user = await createUser(dir, "bad", { displayName: "Unchanged" })
    const before = await dir.t.adapter.getScimUser!(dir.organizationId, user.id)
    const patch = (Operations: unknown[], schemas = [PATCH_OP]) => dir.call("PATCH", `/Users/${user.id}`, { schemas, Operations })
    expectScimError(await patch([{ op: "replace", path: "shoeSize", value: 42 }]), 400, "invalidPath")
    expectScimError(await patch([{ op: "replace", path: "emails[type eq]", value: "x" }]), 400, "invalidPath")
    expectScimError(await patch([{ op: "replace", path: "name.__proto__.polluted", value: "yes" }]), 400, "invalidPath")
    expectScimError(await patch([{ op: "replace", path: "id", value: "another" }]), 400, "mutability")
    expectScimError(await patch([{ op: "replace", value: { id: "another" } }]), 400, "mutability")
    expectScimError(await patch([{ op: "move", path: "displayName", value: "x" }]), 400, "invalidSyntax")
    expectScimError(await patch([{ op: "replace", path: "displayName", value: "x" }], ["urn:wrong"]), 400, "invalidSyntax")
    expectScimError(await patch([]), 400, "invalidSyntax")
    expectScimError(await patch([{ op: "replace", path: 'emails[type eq "home"].display', value: "x" }, { op: "replace", path: "emails", value: "not-a-list" }]), 400, "invalidValue")
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(await dir.t.adapter.getScimUser!(dir.organizationId, user.id)).toEqual(before)
  })

  it("deletes a user: 204, then 404", async () => {
    const dir = await directory("delete")
    const user = await createUser(dir, "gone")
    const answer = await dir.call("DELETE", `/Users/${user.id}`)
    expect(answer.status).toBe(204)
    expect(answer.text).toBe("")
    expectScimError(await dir.call("GET", `/Users/${user.id}`), 404)
    expectScimError(await dir.call("DELETE", `/Users/${user.id}`), 404)
    expect(await dir.t.adapter.getScimUser!(dir.organizationId, user.id)).toBeNull()
  })
})
