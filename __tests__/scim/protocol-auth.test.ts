/**
 * The SCIM endpoints' gate and envelope (issue #29), over HTTP on the memory adapter: a missing,
 * wrong, revoked or other organization's token is one 401 (the same answer whether or not the
 * organization exists); each token has its own rate limit (429 with Retry-After); a token's last
 * use is recorded; bodies must be JSON (415 otherwise), well-formed (400 invalidSyntax) and within
 * the limit (413); an unknown endpoint is 404, an unsupported method 405; every answer is
 * `application/scim+json` in SCIM's error format, never a 500.
 */
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { buildScimApp, mintToken } from "./fixtures/app.js"
import { call, directory, expectScimError, userBody } from "./protocol-support.js"

describe("SCIM authentication", () => {
  it("refuses a request without a token, with a wrong one, or with a malformed header, in SCIM's format", async () => {
    const dir = await directory("auth")
    expectScimError(await dir.call("GET", "/Users", undefined, { token: null }), 401)
    expectScimError(await dir.call("GET", "/Users", undefined, { token: "scim_not-a-token" }), 401)
    const basic = await dir.call("GET", "/Users", undefined, { token: null, headers: { Authorization: "Basic dXNlcjpwYXNz" } })
    expectScimError(basic, 401)
    expect(basic.headers["www-authenticate"]).toMatch(/^Bearer/)
    // The right token works (the baseline the refusals are measured against).
    expect((await dir.call("GET", "/Users")).status).toBe(200)
  })

  it("never lets a token reach another organization, and says nothing about whether it exists", async () => {
    const a = await directory("tenant-a")
    const b = await directory("tenant-b", true, a.t)
    const created = await b.call("POST", "/Users", userBody("only-in-b@example.org"))
    expect(created.status).toBe(201)
    // a's token against b's organization: 401, not b's users.
    const foreign = await call(a.t.app, b.organizationId, a.token, "GET", "/Users")
    expectScimError(foreign, 401)
    const foreignUser = await call(a.t.app, b.organizationId, a.token, "GET", `/Users/${created.body.id}`)
    expectScimError(foreignUser, 401)
    // An organization that does not exist answers exactly the same.
    const missing = await call(a.t.app, "org-does-not-exist", a.token, "GET", "/Users")
    expect({ status: missing.status, body: missing.body }).toEqual({ status: foreign.status, body: foreign.body })
    // b's user through a's organization with a's token: not there.
    expectScimError(await a.call("GET", `/Users/${created.body.id}`), 404)
  })

  it("refuses a revoked token at once", async () => {
    const dir = await directory("revoked")
    expect((await dir.call("GET", "/Users")).status).toBe(200)
    const [stored] = await dir.t.adapter.listScimTokens!(dir.organizationId)
    await dir.t.adapter.deleteScimToken!(stored!.id)
    expectScimError(await dir.call("GET", "/Users"), 401)
  })

  it("records a token's use", async () => {
    const dir = await directory("touched")
    const [before] = await dir.t.adapter.listScimTokens!(dir.organizationId)
    expect(before!.lastUsedAt).toBeNull()
    await dir.call("GET", "/ServiceProviderConfig")
    const [after] = await dir.t.adapter.listScimTokens!(dir.organizationId)
    expect(after!.lastUsedAt).toBeInstanceOf(Date)
  })

  it("limits each token's requests a minute: 429 with Retry-After, another token unaffected", async () => {
    const t = buildScimApp(MemoryAdapter(), { rateLimit: 3 })
    const dir = await directory("limited", { rateLimit: 3 }, t)
    for (let i = 0; i < 3; i++) expect((await dir.call("GET", "/Users")).status).toBe(200)
    const refused = await dir.call("GET", "/Users")
    expectScimError(refused, 429)
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1)
    const second = await mintToken(t.adapter, dir.organizationId, "Second")
    expect((await dir.call("GET", "/Users", undefined, { token: second })).status).toBe(200)
  })
})

describe("SCIM request bodies and paths", () => {
  it("answers every success as application/scim+json", async () => {
    const dir = await directory("envelope")
    const answer = await dir.call("GET", "/Users")
    expect(answer.headers["content-type"]).toBe("application/scim+json; charset=utf-8")
  })

  it("accepts application/json as well as application/scim+json", async () => {
    const dir = await directory("json-type")
    const answer = await dir.call("POST", "/Users", userBody("plain-json@example.org"), { contentType: "application/json" })
    expect(answer.status).toBe(201)
  })

  it("refuses another content type with 415, and changes nothing", async () => {
    const dir = await directory("media")
    expectScimError(await dir.call("POST", "/Users", undefined, { raw: "userName=x@example.org", contentType: "application/x-www-form-urlencoded" }), 415)
    expectScimError(await dir.call("POST", "/Users", undefined, { raw: JSON.stringify(userBody("text@example.org")), contentType: "text/plain" }), 415)
    expect(await dir.t.adapter.listScimUsers!(dir.organizationId)).toEqual([])
  })

  it("answers malformed JSON, and JSON that is not an object, with 400 invalidSyntax", async () => {
    const dir = await directory("malformed")
    expectScimError(await dir.call("POST", "/Users", undefined, { raw: '{"userName": "x@example.org",' }), 400, "invalidSyntax")
    expectScimError(await dir.call("POST", "/Users", undefined, { raw: "[1, 2, 3]" }), 400, "invalidSyntax")
    expectScimError(await dir.call("POST", "/Users", undefined, { raw: '{"userName": "p@example.org", "__proto__": {"admin": true}}' }), 400, "invalidSyntax")
    const deep = `${'{"a":'.repeat(100)}1${"}".repeat(100)}`
    expectScimError(await dir.call("POST", "/Users", undefined, { raw: deep }), 400, "invalidSyntax")
    expect(await dir.t.adapter.listScimUsers!(dir.organizationId)).toEqual([])
  })

  it("refuses a body over the limit with 413", async () => {
    const dir = await directory("huge")
    const huge = JSON.stringify(userBody("huge@example.org", { displayName: "x".repeat(300 * 1024) }))
    expectScimError(await dir.call("POST", "/Users", undefined, { raw: huge }), 413)
    expect(await dir.t.adapter.listScimUsers!(dir.organizationId)).toEqual([])
  })

  it("answers an unknown endpoint with 404 and an unsupported method with 405, in SCIM's format", async () => {
    const dir = await directory("paths")
    expectScimError(await dir.call("GET", "/Widgets"), 404)
    expectScimError(await dir.call("GET", "/Users/no-such-user"), 404)
    expectScimError(await dir.call("GET", "/Groups/no-such-group"), 404)
    expectScimError(await dir.call("GET", "/ResourceTypes/Widget"), 404)
    expectScimError(await dir.call("GET", "/Users/%E0%A4%A"), 404)
    const notAllowed = await dir.call("DELETE", "/Users")
    expectScimError(notAllowed, 405)
    expect(notAllowed.headers.allow).toBe("GET, POST")
    expectScimError(await dir.call("POST", "/ServiceProviderConfig", {}), 405)
    // Too short a path (no endpoint): 404 as well.
    expectScimError(await call(dir.t.app, dir.organizationId, dir.token, "GET", ""), 404)
  })

  it("never answers bad input with a 500", async () => {
    const dir = await directory("no-500")
    const user = await dir.call("POST", "/Users", userBody("steady@example.org"))
    const attempts: Array<[string, string, string | undefined]> = [
      ["POST", "/Users", "null"],
      ["POST", "/Users", '{"userName": 42}'],
      ["POST", "/Users", '{"userName": "a@example.org", "emails": "not-a-list"}'],
      ["POST", "/Users", '{"userName": "b@example.org", "name": "not-an-object"}'],
      ["POST", "/Users", '{"userName": "c@example.org", "active": "maybe"}'],
      ["POST", "/Groups", '{"displayName": ["x"]}'],
      ["PATCH", `/Users/${user.body.id}`, '{"Operations": "x"}'],
      ["PATCH", `/Users/${user.body.id}`, `{"schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], "Operations": [{"op": "replace", "path": "name.givenName.x.y", "value": 1}]}`],
      ["PATCH", `/Users/${user.body.id}`, `{"schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], "Operations": [{"op": "add", "path": "emails[type eq", "value": 1}]}`],
      ["PUT", `/Users/${user.body.id}`, '{"schemas": ["nope"], "userName": "x"}'],
      ["GET", "/Users?startIndex=abc", undefined],
      ["GET", "/Users?count=1&count=2", undefined],
      ["GET", "/Users?sortOrder=sideways", undefined],
    ]
    for (const [method, path, raw] of attempts) {
      const answer = await dir.call(method, path, undefined, raw === undefined ? {} : { raw })
      expect({ method, path, raw, status: answer.status < 500 && answer.status >= 400 }).toEqual({ method, path, raw, status: true })
      expect(answer.body.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:Error"])
    }
    expect(dir.t.errors).toEqual([])
  })
})
