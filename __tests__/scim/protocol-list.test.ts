/**
 * Listing SCIM Users and Groups (issue #29), memory adapter: filters (`userName eq` in any case,
 * `externalId eq`, `active eq true`, `emails[type eq "work"].value co "@"`, the core URN prefix,
 * the enterprise extension's attributes), paging (`startIndex`, `count` capped at `maxResults`),
 * sorting, `attributes`; invalid and hostile filters (unparsable, over 1000 characters, nested
 * deeper than 8, control characters that would make the tokenizer backtrack) are 400
 * invalidFilter, answered at once.
 */
import { beforeAll, describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { buildScimApp } from "./fixtures/app.js"
import { ENTERPRISE, GROUP_SCHEMA, LIST_RESPONSE, directory, expectScimError, userBody, type Directory } from "./protocol-support.js"

let dir: Directory

const names = (answer: { body: { Resources: Array<{ userName?: string; displayName?: string }> } }) => answer.body.Resources.map((resource) => resource.userName ?? resource.displayName)

beforeAll(async () => {
  dir = await directory("list", { maxResults: 3 }, buildScimApp(MemoryAdapter(), { maxResults: 3 }))
  const people: Array<[string, Record<string, unknown>]> = [
    ["carol@example.org", { externalId: "ext-c", displayName: "Carol", [ENTERPRISE]: { department: "Sales" } }],
    ["alice@example.org", { externalId: "ext-a", displayName: "Alice", emails: [{ type: "home", value: "alice@home.example" }] }],
    ["bob@corp.example", { externalId: "ext-b", displayName: "Bob", active: false }],
    ["dave@example.org", { externalId: "EXT-D", displayName: "Dave" }],
    ["erin@example.org", { displayName: "Erin" }],
  ]
  for (const [userName, extra] of people) {
    const answer = await dir.call("POST", "/Users", userBody(userName, extra))
    if (answer.status !== 201) throw new Error(answer.text)
  }
  for (const displayName of ["Zeta", "Alpha"]) await dir.call("POST", "/Groups", { schemas: [GROUP_SCHEMA], displayName })
})

describe("SCIM list filters", () => {
  const query = (filter: string, extra = "") => dir.call("GET", `/Users?filter=${encodeURIComponent(filter)}${extra}`)

  it("answers a ListResponse", async () => {
    const answer = await dir.call("GET", "/Users?count=10")
    expect(answer.body).toMatchObject({ schemas: [LIST_RESPONSE], totalResults: 5, itemsPerPage: 3, startIndex: 1 })
  })

  it("filters by userName, in any case of the value and of the attribute name", async () => {
    expect(names(await query('userName eq "alice@example.org"'))).toEqual(["alice@example.org"])
    expect(names(await query('USERNAME eq "Alice@Example.ORG"'))).toEqual(["alice@example.org"])
    expect(names(await query('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "bob@corp.example"'))).toEqual(["bob@corp.example"])
    const none = await query('userName eq "nobody@example.org"')
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] })
  })

  it("filters by externalId, exactly (it is case-exact)", async () => {
    expect(names(await query('externalId eq "ext-b"'))).toEqual(["bob@corp.example"])
    expect(names(await query('externalId eq "EXT-D"'))).toEqual(["dave@example.org"])
    expect(names(await query('externalId eq "ext-d"'))).toEqual([])
  })

  it("filters by active, by a value filter on emails, and by the enterprise extension", async () => {
    const active = await query("active eq true", "&count=3")
    expect(active.body.totalResults).toBe(4)
    expect(names(await query("active eq false"))).toEqual(["bob@corp.example"])
    expect(names(await query('emails[type eq "work"].value co "@corp"'))).toEqual(["bob@corp.example"])
    const work = await query('emails[type eq "work"].value co "@"')
    expect(work.body.totalResults).toBe(4)
    expect(names(await query(`${ENTERPRISE}:department eq "sales"`))).toEqual(["carol@example.org"])
    expect(names(await query('userName sw "d" or (displayName eq "Erin" and not (active eq false))'))).toEqual(["dave@example.org", "erin@example.org"])
  })

  it("filters groups by displayName", async () => {
    const answer = await dir.call("GET", `/Groups?filter=${encodeURIComponent('displayName eq "zeta"')}`)
    expect(names(answer)).toEqual(["Zeta"])
  })

  it("refuses invalid and hostile filters with 400 invalidFilter", async () => {
    const hostile = [
      "userName eq",
      'userName xx "a"',
      "userName eq unquoted",
      '(userName eq "a"',
      `userName eq "${"a".repeat(1001)}"`,
      `${"(".repeat(9)}userName eq "a"${")".repeat(9)}`,
      `${"(".repeat(400)}userName eq "a"${")".repeat(400)}`,
      `${"not (".repeat(9)}active eq true${")".repeat(9)}`,
      `emails[${"value pr and emails[".repeat(8)}`,
      `userName eq "${"\n".repeat(60)}`,
    ]
    for (const filter of hostile) {
      const answer = await query(filter)
      expect({ filter: filter.slice(0, 40), status: answer.status, scimType: answer.body.scimType }).toEqual({ filter: filter.slice(0, 40), status: 400, scimType: "invalidFilter" })
    }
    expectScimError(await query("userName eq"), 400, "invalidFilter")
    // Eight levels are allowed.
    expect((await query(`${"(".repeat(8)}userName eq "alice@example.org"${")".repeat(8)}`)).status).toBe(200)
  })
})

describe("SCIM list paging, sorting and attributes", () => {
  it("pages with a 1-based startIndex and caps count at maxResults", async () => {
    const first = await dir.call("GET", "/Users?sortBy=userName&startIndex=1&count=2")
    expect(names(first)).toEqual(["alice@example.org", "bob@corp.example"])
    expect(first.body).toMatchObject({ totalResults: 5, itemsPerPage: 2, startIndex: 1 })
    const second = await dir.call("GET", "/Users?sortBy=userName&startIndex=3&count=2")
    expect(names(second)).toEqual(["carol@example.org", "dave@example.org"])
    const last = await dir.call("GET", "/Users?sortBy=userName&startIndex=5&count=2")
    expect(names(last)).toEqual(["erin@example.org"])
    const past = await dir.call("GET", "/Users?startIndex=50")
    expect(past.body).toMatchObject({ totalResults: 5, itemsPerPage: 0, startIndex: 50, Resources: [] })
    const capped = await dir.call("GET", "/Users?count=1000")
    expect(capped.body.itemsPerPage).toBe(3)
    const zero = await dir.call("GET", "/Users?count=0")
    expect(zero.body).toMatchObject({ totalResults: 5, itemsPerPage: 0 })
    // Below 1 reads as 1 (RFC 7644 §3.4.2.4).
    expect((await dir.call("GET", "/Users?startIndex=-4")).body.startIndex).toBe(1)
    // Without sortBy: oldest first.
    expect(names(await dir.call("GET", "/Users"))).toEqual(["carol@example.org", "alice@example.org", "bob@corp.example"])
  })

  it("sorts ascending and descending, by any attribute", async () => {
    expect(names(await dir.call("GET", "/Users?sortBy=displayName&sortOrder=descending"))).toEqual(["erin@example.org", "dave@example.org", "carol@example.org"])
    expect(names(await dir.call("GET", "/Users?sortBy=name.givenName&sortBy2=x&count=1")).length).toBe(1)
    expect(names(await dir.call("GET", "/Groups?sortBy=displayName"))).toEqual(["Alpha", "Zeta"])
  })

  it("returns only the asked-for attributes, or all but the excluded ones", async () => {
    const answer = await dir.call("GET", `/Users?filter=${encodeURIComponent('userName eq "alice@example.org"')}&attributes=userName,name.givenName`)
    expect(answer.body.Resources[0]).toEqual({ schemas: expect.any(Array), id: expect.any(String), userName: "alice@example.org", name: { givenName: "Test" } })
    const excluded = await dir.call("GET", `/Users?filter=${encodeURIComponent('userName eq "alice@example.org"')}&excludedAttributes=emails,meta`)
    expect(excluded.body.Resources[0].emails).toBeUndefined()
    expect(excluded.body.Resources[0].meta).toBeUndefined()
    expect(excluded.body.Resources[0].userName).toBe("alice@example.org")
  })
})
