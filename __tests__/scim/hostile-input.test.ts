/**
 * Hostile input to the SCIM endpoints (issue #29), on memory and SQLite: malformed JSON, a 2 MB
 * body, deeply nested JSON, hostile filters (nested 50 levels, 100 000 characters, odd unicode,
 * broken percent-encoding), another organization's id in the path with this organization's token,
 * this organization's token against the other's resource ids, the wrong content type, unknown
 * attributes in PATCH paths, a PATCH changing `id`, a userName collision. Each answer is a SCIM
 * error (the error schema, the status as a string, the scimType where the RFC names one), never a
 * 500, and nothing is changed: both organizations' users, groups and members read the same
 * through the adapter before and after.
 */
import { createServer } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { engine, type EngineName } from "../integration/organizations/support.js"
import { ERROR_SCHEMA, SCIM_JSON, buildScimApp, mintToken, organizationWithOwner, scimClient, type ScimAnswer, type ScimApp, type ScimClient } from "./fixtures/app.js"

const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User"

interface Side {
  organizationId: string
  token: string
  scim: ScimClient
  userId: string
  userName: string
  groupId: string
}

interface World {
  t: ScimApp
  a: Side
  b: Side
}

let sequence = 0

function userBody(userName: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { schemas: [USER_SCHEMA], userName, name: { givenName: "Test", familyName: "User" }, emails: [{ primary: true, type: "work", value: userName }], active: true, ...extra }
}

async function side(t: ScimApp, label: string): Promise<Side> {
  const { organizationId } = await organizationWithOwner(t.adapter, label)
  const token = await mintToken(t.adapter, organizationId)
  const scim = scimClient(t.app, organizationId, token)
  sequence += 1
  const userName = `${label}${sequence}.${Math.random().toString(36).slice(2, 8)}@hostile.test`
  const user = await scim.send("POST", "/Users", userBody(userName))
  if (user.status !== 201) throw new Error(`set-up: POST /Users answered ${user.status} ${user.text}`)
  const group = await scim.send("POST", "/Groups", { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: `Group ${label}${sequence}`, members: [{ value: user.body.id }] })
  if (group.status !== 201) throw new Error(`set-up: POST /Groups answered ${group.status} ${group.text}`)
  return { organizationId, token, scim, userId: user.body.id as string, userName, groupId: group.body.id as string }
}

async function world(adapterOf: () => ScimApp["adapter"]): Promise<World> {
  const t = buildScimApp(adapterOf())
  return { t, a: await side(t, "alpha"), b: await side(t, "beta") }
}

/** Both organizations as stored: provisioned users, groups, members (the token's lastUsedAt aside). */
async function snapshot(w: World): Promise<string> {
  const read = async (s: Side) => ({
    users: await w.t.adapter.listScimUsers!(s.organizationId),
    groups: await w.t.adapter.listScimGroups!(s.organizationId),
    members: (await w.t.adapter.listMembers!(s.organizationId)).map((m) => [m.userId, m.role]).sort(),
    tokens: (await w.t.adapter.listScimTokens!(s.organizationId)).map((token) => token.tokenHash).sort(),
  })
  return JSON.stringify({ a: await read(w.a), b: await read(w.b) })
}

/** A SCIM error answer with `status` (and `scimType` when given). */
function expectScimError(answer: ScimAnswer, status: number | number[], scimType?: string): void {
  const statuses = Array.isArray(status) ? status : [status]
  if (!statuses.includes(answer.status)) throw new Error(`expected ${statuses.join(" or ")}, got ${answer.status} ${answer.text.slice(0, 400)}`)
  expect(answer.contentType).toContain(SCIM_JSON)
  expect(answer.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: String(answer.status) })
  expect(typeof answer.body.detail).toBe("string")
  if (scimType) expect(answer.body.scimType).toBe(scimType)
}

/** Runs `attempt`; the state of both organizations is unchanged and no error reached Express. */
async function unchanged(w: World, attempt: () => Promise<void>): Promise<void> {
  const before = await snapshot(w)
  await attempt()
  expect(await snapshot(w)).toBe(before)
  expect(w.t.errors).toEqual([])
}

function nestedFilter(levels: number): string {
  return `${"(".repeat(levels)}userName eq "x@hostile.test"${")".repeat(levels)}`
}

function nestedJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`
}

const HOSTILE_ENGINES: EngineName[] = ["memory", "sqlite"]

describe.each(HOSTILE_ENGINES)("hostile SCIM input on %s", (name) => {
  const db = engine(name, "shi")
  let w: World
  beforeAll(async () => {
    await db.open()
    w = await world(() => db.adapter())
  }, 30_000)
  afterAll(() => db.close())

  it("malformed JSON: 400 invalidSyntax", async () => {
    await unchanged(w, async () => {
      for (const raw of ['{"userName": "broken@hostile.test", ', "not json at all", '{"userName": "x@hostile.test"}}', "", "[]", "null", '"a string"']) {
        const answer = await w.a.scim.send("POST", "/Users", undefined, { raw })
        expectScimError(answer, 400)
        if (raw && !["[]", "null", '"a string"'].includes(raw)) expect(answer.body.scimType).toBe("invalidSyntax")
      }
      expectScimError(await w.a.scim.send("PATCH", `/Users/${w.a.userId}`, undefined, { raw: '{"Operations": [' }), 400, "invalidSyntax")
      expectScimError(await w.a.scim.send("PUT", `/Groups/${w.a.groupId}`, undefined, { raw: "{'displayName': 'single quotes'}" }), 400, "invalidSyntax")
    })
  })

  it("a 2 MB body: refused as too large, nothing stored", async () => {
    await unchanged(w, async () => {
      const huge = JSON.stringify(userBody("huge@hostile.test", { displayName: "x".repeat(2 * 1024 * 1024) }))
      expectScimError(await w.a.scim.send("POST", "/Users", undefined, { raw: huge }), 413)
      const patch = JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: "replace", path: "displayName", value: "y".repeat(2 * 1024 * 1024) }] })
      expectScimError(await w.a.scim.send("PATCH", `/Users/${w.a.userId}`, undefined, { raw: patch }), 413)
    })
  })

  it("deeply nested JSON: 400, never a stack overflow", async () => {
    await unchanged(w, async () => {
      for (const levels of [200, 5000]) {
        const raw = `{"schemas":["${USER_SCHEMA}"],"userName":"deep${levels}@hostile.test","active":true,"name":${nestedJson(levels)}}`
        expectScimError(await w.a.scim.send("POST", "/Users", undefined, { raw }), [400, 413])
        const patch = `{"schemas":["${PATCH_OP}"],"Operations":[{"op":"add","path":"name","value":${nestedJson(levels)}}]}`
        expectScimError(await w.a.scim.send("PATCH", `/Users/${w.a.userId}`, undefined, { raw: patch }), [400, 413])
      }
    })
  })

  it("hostile filters: nested 50 levels, 100 000 characters, odd unicode, broken encoding: 400 invalidFilter or no match", async () => {
    await unchanged(w, async () => {
      const deep = await w.a.scim.send("GET", `/Users?filter=${encodeURIComponent(nestedFilter(50))}`)
      expectScimError(deep, 400, "invalidFilter")
      const deepNot = await w.a.scim.send("GET", `/Users?filter=${encodeURIComponent(`${"not (".repeat(50)}userName pr${")".repeat(50)}`)}`)
      expectScimError(deepNot, 400, "invalidFilter")
      // Fifty conditions joined by `and`: refused as too deep, or answered (no group has all fifty names).
      const deepAnd = await w.a.scim.send("GET", `/Groups?filter=${encodeURIComponent(Array.from({ length: 50 }, (_v, i) => `displayName eq "g${i}"`).join(" and "))}`)
      if (deepAnd.status === 200) expect(deepAnd.body).toMatchObject({ totalResults: 0, Resources: [] })
      else expectScimError(deepAnd, 400, "invalidFilter")
      // 100 000 characters: longer than Node's default request line allows (431 before any app
      // code), so through a server that accepts 512 KiB of headers, as one behind a proxy might.
      const long = `userName eq "${"a".repeat(100_000 - 14)}"`
      expect(long.length).toBe(100_000)
      const roomy = createServer({ maxHeaderSize: 512 * 1024 }, w.t.app)
      try {
        const searched = await scimClient(roomy, w.a.organizationId, w.a.token).send("GET", `/Users?filter=${encodeURIComponent(long)}`)
        expectScimError(searched, 400, "invalidFilter")
      } finally {
        roomy.close()
      }
      // As long as Node's default allows: refused by the filter's own bound.
      const longUrl = await w.a.scim.send("GET", `/Users?filter=${encodeURIComponent(`userName eq "${"b".repeat(12_000)}"`)}`)
      expectScimError(longUrl, 400, "invalidFilter")
      // Odd unicode: answered (no match) or refused, never a 500, never another user.
      for (const odd of ['userName eq "\u202e\u0000moc.tset@"', 'userName eq "e\u0301\u0301\u0301\u{1F9D1}\u200d\u{1F4BB}"', 'userName eq "\uFEFF' + w.a.userName + '"', "userName eq \u201cx@hostile.test\u201d"]) {
        const answer = await w.a.scim.send("GET", `/Users?filter=${encodeURIComponent(odd)}`)
        if (answer.status === 200) expect(answer.body).toMatchObject({ totalResults: 0, Resources: [] })
        else expectScimError(answer, 400, "invalidFilter")
      }
      // Broken percent-encoding, and invalid UTF-8 bytes.
      for (const raw of ["userName%20eq%20%22%E0%A4%A%22", "userName%20eq%20%22%ED%A0%80%22", "%FF%FE"]) {
        const answer = await w.a.scim.send("GET", `/Users?filter=${raw}`)
        if (answer.status === 200) expect(answer.body).toMatchObject({ totalResults: 0 })
        else expectScimError(answer, 400)
      }
      // Other filter injections: an attribute that does not exist, an operator that does not.
      expectScimError(await w.a.scim.send("GET", `/Users?filter=${encodeURIComponent('userName xx "a"')}`), 400, "invalidFilter")
      expectScimError(await w.a.scim.send("GET", `/Users?filter=${encodeURIComponent('userName eq "a" or')}`), 400, "invalidFilter")
    })
  })

  it("this organization's token with another organization's id in the path: 401", async () => {
    await unchanged(w, async () => {
      const asA = scimClient(w.t.app, w.b.organizationId, w.a.token)
      expectScimError(await asA.send("GET", "/Users"), 401)
      expectScimError(await asA.send("GET", `/Users/${w.b.userId}`), 401)
      expectScimError(await asA.send("POST", "/Users", userBody("intruder@hostile.test")), 401)
      expectScimError(await asA.send("PATCH", `/Users/${w.b.userId}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] }), 401)
      expectScimError(await asA.send("DELETE", `/Users/${w.b.userId}`), 401)
      expectScimError(await asA.send("DELETE", `/Groups/${w.b.groupId}`), 401)
      // No token, a wrong one, a session-less Basic header.
      expectScimError(await w.a.scim.send("GET", "/Users", undefined, { token: null }), 401)
      expectScimError(await w.a.scim.send("GET", "/Users", undefined, { token: "scim_not-a-token" }), 401)
      expectScimError(await w.a.scim.send("GET", "/Users", undefined, { token: w.a.token.slice(0, -1) }), 401)
    })
  })

  it("this organization's token against the other organization's resource ids: 404, nothing changed", async () => {
    await unchanged(w, async () => {
      const { scim } = w.a
      expectScimError(await scim.send("GET", `/Users/${w.b.userId}`), 404)
      expectScimError(await scim.send("PUT", `/Users/${w.b.userId}`, userBody(w.b.userName, { active: false })), 404)
      expectScimError(await scim.send("PATCH", `/Users/${w.b.userId}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] }), 404)
      expectScimError(await scim.send("DELETE", `/Users/${w.b.userId}`), 404)
      expectScimError(await scim.send("GET", `/Groups/${w.b.groupId}`), 404)
      expectScimError(await scim.send("PUT", `/Groups/${w.b.groupId}`, { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: "Taken over", members: [] }), 404)
      expectScimError(await scim.send("PATCH", `/Groups/${w.b.groupId}`, { schemas: [PATCH_OP], Operations: [{ op: "add", path: "members", value: [{ value: w.a.userId }] }] }), 404)
      expectScimError(await scim.send("DELETE", `/Groups/${w.b.groupId}`), 404)
      // The other organization's user added to this organization's group: not a user of this organization.
      const cross = await scim.send("PATCH", `/Groups/${w.a.groupId}`, { schemas: [PATCH_OP], Operations: [{ op: "add", path: "members", value: [{ value: w.b.userId }] }] })
      expectScimError(cross, [400, 404])
      // And not listed through a filter on it.
      const listed = await scim.send("GET", `/Users?filter=${encodeURIComponent(`userName eq "${w.b.userName}"`)}`)
      expect(listed.status).toBe(200)
      expect(listed.body).toMatchObject({ totalResults: 0, Resources: [] })
    })
  })

  it("the wrong content type: 415", async () => {
    await unchanged(w, async () => {
      const body = JSON.stringify(userBody("typed@hostile.test"))
      for (const contentType of ["text/plain", "application/xml", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
        expectScimError(await w.a.scim.send("POST", "/Users", undefined, { raw: body, contentType }), 415)
      }
      const patch = JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] })
      expectScimError(await w.a.scim.send("PATCH", `/Users/${w.a.userId}`, undefined, { raw: patch, contentType: "text/plain" }), 415)
    })
  })

  it("unknown attributes in PATCH paths: 400 invalidPath", async () => {
    await unchanged(w, async () => {
      for (const path of ["nickNameOfNoSchema", "name.middleNameX", 'emails[type eq "work"].nothing', "members.value", "constructor", "__proto__.polluted"]) {
        const answer = await w.a.scim.send("PATCH", `/Users/${w.a.userId}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path, value: "x" }] })
        expectScimError(answer, 400, "invalidPath")
      }
      const group = await w.a.scim.send("PATCH", `/Groups/${w.a.groupId}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "owner", value: "x" }] })
      expectScimError(group, 400, "invalidPath")
      // A valid operation beside an invalid one: the whole PATCH is refused.
      const mixed = await w.a.scim.send("PATCH", `/Users/${w.a.userId}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "active", value: false }, { op: "replace", path: "noSuchAttribute", value: 1 }] })
      expectScimError(mixed, 400, "invalidPath")
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })
  })

  it("a PATCH changing id: 400 mutability", async () => {
    await unchanged(w, async () => {
      expectScimError(await w.a.scim.send("PATCH", `/Users/${w.a.userId}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "id", value: w.b.userId }] }), 400, "mutability")
      expectScimError(await w.a.scim.send("PATCH", `/Users/${w.a.userId}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { id: "another-id" } }] }), 400, "mutability")
      expectScimError(await w.a.scim.send("PATCH", `/Groups/${w.a.groupId}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "id", value: "another-id" }] }), 400, "mutability")
    })
    // Still found under its own id.
    expect((await w.a.scim.send("GET", `/Users/${w.a.userId}`)).body).toMatchObject({ id: w.a.userId })
  })

  it("a userName collision: 409 uniqueness (case-insensitive), on create, replace and patch", async () => {
    const second = await w.a.scim.send("POST", "/Users", userBody(`second${sequence}.${Date.now()}@hostile.test`))
    expect(second.status).toBe(201)
    await unchanged(w, async () => {
      const other = `other.${Date.now()}@hostile.test`
      // Same userName, another address: the organization has it.
      expectScimError(await w.a.scim.send("POST", "/Users", userBody(w.a.userName, { emails: [{ primary: true, type: "work", value: other }] })), 409, "uniqueness")
      expectScimError(await w.a.scim.send("POST", "/Users", userBody(w.a.userName.toUpperCase(), { emails: [{ primary: true, type: "work", value: other }] })), 409, "uniqueness")
      expectScimError(await w.a.scim.send("PUT", `/Users/${second.body.id}`, userBody(w.a.userName)), 409, "uniqueness")
      expectScimError(await w.a.scim.send("PATCH", `/Users/${second.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "userName", value: w.a.userName }] }), 409, "uniqueness")
      // A group's displayName too.
      const taken = (await w.t.adapter.getScimGroup!(w.a.organizationId, w.a.groupId))!.displayName
      expectScimError(await w.a.scim.send("POST", "/Groups", { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: taken, members: [] }), 409, "uniqueness")
    })
  })

  it("no answer was a 500 and no error reached the app", () => {
    expect(w.t.errors).toEqual([])
  })
})

