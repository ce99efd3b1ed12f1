/**
 * Organization actions and their requests (issue #27), tried against over HTTP on memory, SQLite,
 * PostgreSQL and MariaDB: a POST without the CSRF token (or from another site) is refused and
 * changes nothing; a signed-out caller gets 401 from every action and read; no JSON answer ever
 * carries an invitation's token or its hash.
 */
import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { ENGINES, agentFor, buildApp, clientOf, engine, inviteTo, join, organizationOf, person, refusal, rolesIn, tokenOf } from "./support.js"

const ACTIONS = ["create", "update", "delete", "switch", "leave", "transfer", "remove-member", "role", "invite", "resend", "revoke", "accept", "decline", "set-role", "delete-role"]

describe.each(ENGINES)("organization requests on %s", (name) => {
  const db = engine(name, "safe")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())

  it("a POST without the CSRF token, with a wrong one, or from another site is refused and changes nothing", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const member = await person(t, "member")
    const organization = await organizationOf(owner)
    await join(t, owner, organization.id, member)
    const before = await rolesIn(t.adapter, organization.id)
    const { invitation, token } = await inviteTo(t, owner, organization.id, "later@example.com")
    const eventsBefore = t.organizationEvents.length

    const attempts = [
      owner.act("create", { name: "Sneaky" }, { csrf: false }),
      owner.act("role", { organizationId: organization.id, userId: member.id, role: "admin" }, { csrf: false }),
      owner.act("remove-member", { organizationId: organization.id, userId: member.id }, { csrf: false }),
      owner.act("update", { organizationId: organization.id, name: "Renamed" }, { csrf: false }),
      owner.act("revoke", { organizationId: organization.id, invitationId: invitation.id }, { csrf: false }),
      owner.act("delete", { organizationId: organization.id }, { csrf: false }),
      owner.act("role", { organizationId: organization.id, userId: member.id, role: "admin", csrfToken: "0".repeat(64) }, { csrf: false }),
    ]
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status).toBe(403)
      expect(answer.body).toEqual(refusal("MissingCSRF"))
    }
    // The right token, but the request comes from another site.
    const csrf = (await owner.agent.get("/auth/csrf").set("Accept", "application/json")).body.csrfToken as string
    const crossSite = await owner.agent
      .post("/auth/organizations/role")
      .set("Accept", "application/json")
      .set("Origin", "https://evil.example")
      .send({ csrfToken: csrf, organizationId: organization.id, userId: member.id, role: "admin" })
    expect(crossSite.status).toBe(403)

    expect(await rolesIn(t.adapter, organization.id)).toEqual(before)
    expect(await t.adapter.getOrganization!(organization.id)).toMatchObject({ name: organization.name })
    expect(await t.adapter.getInvitation!(invitation.id)).not.toBeNull()
    expect((await owner.get("/auth/organizations")).body.organizations).toHaveLength(1)
    expect(t.organizationEvents).toHaveLength(eventsBefore)
    // The token still works, with the CSRF token.
    const later = await person(t, "later", { email: "later@example.com" })
    expect((await later.act("accept", { token }, { csrf: false })).body).toEqual(refusal("MissingCSRF"))
    expect(await t.adapter.getMember!(organization.id, later.id)).toBeNull()
    expect((await later.act("accept", { token })).status).toBe(200)
  })

  it("signed out: 401 from every action and read, nothing changes", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const { token } = await inviteTo(t, owner, organization.id, "nobody@example.com")
    const anonymous = clientOf(agentFor(t.app), { id: "", email: "", username: "" })
    for (const action of ACTIONS) {
      const answer = await anonymous.act(action, { organizationId: organization.id, userId: owner.id, name: "X", email: "x@example.com", role: "member", token })
      expect({ action, status: answer.status }).toEqual({ action, status: 401 })
      expect(answer.body.error?.type).toEqual(expect.any(String))
    }
    expect((await anonymous.get("/auth/organizations")).status).toBe(401)
    expect((await anonymous.get(`/auth/organizations/${organization.id}`)).status).toBe(401)
    const guarded = await anonymous.get("/projects/edit")
    expect(guarded.status).toBe(401)
    expect(await rolesIn(t.adapter, organization.id)).toEqual({ [owner.id]: "owner" })
    expect(await t.adapter.getOrganization!(organization.id)).toMatchObject({ name: organization.name })
    expect(await t.adapter.listInvitations!(organization.id)).toHaveLength(1)
  })

  it("no JSON answer carries an invitation's token or its hash", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const invitee = await person(t, "invitee")
    const sent = await owner.act("invite", { organizationId: organization.id, email: invitee.email })
    const resent = await owner.act("resend", { organizationId: organization.id, invitationId: sent.body.invitation.id })
    const tokens = t.mails.map(tokenOf)
    const stored = await t.adapter.getInvitation!(sent.body.invitation.id)
    const secrets = [...tokens, ...tokens.map((token) => createHash("sha256").update(token).digest("base64url")), stored!.tokenHash]
    const answers = [sent.text, resent.text, (await owner.get(`/auth/organizations/${organization.id}`)).text, (await owner.get("/auth/organizations")).text]
    const accepted = await invitee.act("accept", { token: tokens[1]! })
    answers.push(accepted.text)
    for (const text of answers) {
      expect(text).not.toContain("tokenHash")
      for (const secret of secrets) expect(text).not.toContain(secret)
    }
  })
})

describe("adding a user without their consent", () => {
  const db = engine("memory", "consent")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())

  it("no action adds an existing user by id: people join by accepting an invitation, or through the app's server code", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const stranger = await person(t, "stranger")
    const organization = await organizationOf(owner)
    const answer = await owner.act("add-member", { organizationId: organization.id, userId: stranger.id, role: "member" })
    expect(answer.status).toBe(404)
    expect(answer.body.error.type).toBe("UnknownAction")
    expect(await t.adapter.getMember!(organization.id, stranger.id)).toBeNull()
    // The stranger's session still shows no organization (it would have become their active one).
    expect((await stranger.get("/auth/session")).body.organization).toBeNull()
  })
})
