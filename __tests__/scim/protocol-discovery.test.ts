/**
 * The SCIM discovery endpoints (issue #29): ServiceProviderConfig (PATCH, filter with maxResults,
 * sort and ETag supported; bulk and password change not; bearer tokens), ResourceTypes (User with
 * the enterprise extension, Group) and Schemas (User, Group, EnterpriseUser), each also by its id.
 */
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { buildScimApp } from "./fixtures/app.js"
import { ENTERPRISE, GROUP_SCHEMA, LIST_RESPONSE, USER_SCHEMA, directory, expectScimError } from "./protocol-support.js"

describe("SCIM discovery", () => {
  it("describes the service provider", async () => {
    const dir = await directory("spc", { maxResults: 50 }, buildScimApp(MemoryAdapter(), { maxResults: 50 }))
    const answer = await dir.call("GET", "/ServiceProviderConfig")
    expect(answer.status).toBe(200)
    expect(answer.headers["content-type"]).toBe("application/scim+json; charset=utf-8")
    expect(answer.body).toMatchObject({
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 50 },
      changePassword: { supported: false },
      sort: { supported: true },
      etag: { supported: true },
      authenticationSchemes: [{ type: "oauthbearertoken" }],
    })
  })

  it("lists the resource types, and each by its name", async () => {
    const dir = await directory("types")
    const answer = await dir.call("GET", "/ResourceTypes")
    expect(answer.body).toMatchObject({ schemas: [LIST_RESPONSE], totalResults: 2 })
    const [user, group] = answer.body.Resources
    expect(user).toMatchObject({ id: "User", endpoint: "/Users", schema: USER_SCHEMA, schemaExtensions: [{ schema: ENTERPRISE, required: false }] })
    expect(group).toMatchObject({ id: "Group", endpoint: "/Groups", schema: GROUP_SCHEMA })
    expect((await dir.call("GET", "/ResourceTypes/Group")).body).toEqual(group)
  })

  it("lists the schemas with their attributes, and each by its URN", async () => {
    const dir = await directory("schemas")
    const answer = await dir.call("GET", "/Schemas")
    expect(answer.body.Resources.map((schema: { id: string }) => schema.id)).toEqual([USER_SCHEMA, GROUP_SCHEMA, ENTERPRISE])
    const user = (await dir.call("GET", `/Schemas/${USER_SCHEMA}`)).body
    const userName = user.attributes.find((attribute: { name: string }) => attribute.name === "userName")
    expect(userName).toMatchObject({ type: "string", required: true, uniqueness: "server", multiValued: false })
    expect(user.attributes.find((attribute: { name: string }) => attribute.name === "emails")).toMatchObject({ multiValued: true, type: "complex" })
    const encoded = await dir.call("GET", `/Schemas/${encodeURIComponent(ENTERPRISE)}`)
    expect(encoded.body.attributes.map((attribute: { name: string }) => attribute.name)).toEqual(["employeeNumber", "costCenter", "organization", "division", "department", "manager"])
    expect((await dir.call("GET", `/Schemas/${GROUP_SCHEMA}`)).body.attributes.map((attribute: { name: string }) => attribute.name)).toEqual(["displayName", "members"])
    expectScimError(await dir.call("GET", "/Schemas/urn:unknown"), 404)
  })
})
