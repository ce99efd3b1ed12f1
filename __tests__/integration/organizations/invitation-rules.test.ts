/**
 * The invitation rules of organizations (issue #27), each tried against over HTTP on memory,
 * SQLite, PostgreSQL and MariaDB: accepted only by the signed-in user whose verified address is the
 * invited one (a forwarded link lets nobody else in, and stays usable by the right person); single
 * use; dead after revoke, after resend (the new link works), after expiry; declined by the invitee.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { ENGINES, buildApp, engine, inviteTo, organizationOf, person, refusal, rolesIn, tokenOf, type Client, type TestApp } from "./support.js"

describe.each(ENGINES)("organization invitation rules on %s", (name) => {
  const db = engine(name, "inv")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())

  async function setting(t: TestApp) {
    const owner = await person(t, "owner")
    const invitee = await person(t, "invitee")
    const organization = await organizationOf(owner)
    return { owner, invitee, organization }
  }

  async function notMember(t: TestApp, organizationId: string, client: Client) {
    expect(await t.adapter.getMember!(organizationId, client.id)).toBeNull()
    expect(await client.active()).toBeNull()
  }

  it("another signed-in account cannot accept or decline it (403 InvitationMismatch); the invitee still can", async () => {
    const t = buildApp(db.adapter())
    const { owner, invitee, organization } = await setting(t)
    const stranger = await person(t, "stranger")
    const { token } = await inviteTo(t, owner, organization.id, invitee.email)

    const taken = await stranger.act("accept", { token })
    expect(taken.status).toBe(403)
    expect(taken.body).toEqual(refusal("InvitationMismatch"))
    const declined = await stranger.act("decline", { token })
    expect(declined.body).toEqual(refusal("InvitationMismatch"))
    await notMember(t, organization.id, stranger)
    expect(await t.adapter.listInvitations!(organization.id)).toHaveLength(1)

    const accepted = await invitee.act("accept", { token })
    expect(accepted.status).toBe(200)
    expect(await rolesIn(t.adapter, organization.id)).toEqual({ [owner.id]: "owner", [invitee.id]: "member" })
  })

  it("an account with the invited address but unverified cannot accept it (InvitationMismatch)", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const unverified = await person(t, "unverified", { verified: false })
    const { token } = await inviteTo(t, owner, organization.id, unverified.email)
    const refused = await unverified.act("accept", { token })
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual(refusal("InvitationMismatch"))
    await notMember(t, organization.id, unverified)
    expect(await t.adapter.listInvitations!(organization.id)).toHaveLength(1)
  })

  it("is single use: a second accept gets 410 InvitationInvalid", async () => {
    const t = buildApp(db.adapter())
    const { owner, invitee, organization } = await setting(t)
    const { token } = await inviteTo(t, owner, organization.id, invitee.email, "editor")
    const first = await invitee.act("accept", { token })
    expect(first.status).toBe(200)
    expect(first.body.active).toMatchObject({ id: organization.id, role: "editor" })
    const second = await invitee.act("accept", { token })
    expect(second.status).toBe(410)
    expect(second.body).toEqual(refusal("InvitationInvalid"))
    expect(await rolesIn(t.adapter, organization.id)).toEqual({ [owner.id]: "owner", [invitee.id]: "editor" })
    // Two answers at once: one takes it.
    const again = await inviteTo(t, owner, organization.id, "twice@example.com")
    const twin = await person(t, "twin", { email: "twice@example.com" })
    const answers = await Promise.all([twin.act("accept", { token: again.token }), twin.act("accept", { token: again.token })])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410])
  })

  it("a revoked invitation is dead", async () => {
    const t = buildApp(db.adapter())
    const { owner, invitee, organization } = await setting(t)
    const { invitation, token } = await inviteTo(t, owner, organization.id, invitee.email)
    const revoked = await owner.act("revoke", { organizationId: organization.id, invitationId: invitation.id })
    expect(revoked.status).toBe(200)
    expect(await t.adapter.getInvitation!(invitation.id)).toBeNull()
    const accepted = await invitee.act("accept", { token })
    expect(accepted.status).toBe(410)
    expect(accepted.body).toEqual(refusal("InvitationInvalid"))
    await notMember(t, organization.id, invitee)
    // Revoking twice: nothing left to revoke.
    expect((await owner.act("revoke", { organizationId: organization.id, invitationId: invitation.id })).body).toEqual(refusal("InvitationInvalid"))
  })

  it("after a resend the old link is dead and the new one works", async () => {
    const t = buildApp(db.adapter())
    const { owner, invitee, organization } = await setting(t)
    const { invitation, token: oldToken } = await inviteTo(t, owner, organization.id, invitee.email)
    const resent = await owner.act("resend", { organizationId: organization.id, invitationId: invitation.id })
    expect(resent.status).toBe(200)
    expect(resent.body.invitation).toMatchObject({ id: invitation.id, email: invitee.email })
    expect(resent.text).not.toContain("tokenHash")
    expect(t.mails).toHaveLength(2)
    const newToken = tokenOf(t.mails[1]!)
    expect(newToken).not.toBe(oldToken)

    const stale = await invitee.act("accept", { token: oldToken })
    expect(stale.status).toBe(410)
    expect(stale.body).toEqual(refusal("InvitationInvalid"))
    await notMember(t, organization.id, invitee)
    const fresh = await invitee.act("accept", { token: newToken })
    expect(fresh.status).toBe(200)
    expect(await rolesIn(t.adapter, organization.id)).toMatchObject({ [invitee.id]: "member" })
  })

  it("an expired invitation is dead (InvitationInvalid), and a resend revives it", async () => {
    const t = buildApp(db.adapter(), { extra: { invitationMaxAge: 60 } })
    const { owner, invitee, organization } = await setting(t)
    const { invitation, token } = await inviteTo(t, owner, organization.id, invitee.email)
    expect(new Date(invitation.expires).getTime() - Date.now()).toBeLessThanOrEqual(60_000)
    await t.adapter.updateInvitation!(invitation.id, { expires: new Date(Date.now() - 1000) })

    const listed = await owner.get(`/auth/organizations/${organization.id}`)
    expect(listed.body.invitations).toEqual([expect.objectContaining({ id: invitation.id, expired: true })])
    const accepted = await invitee.act("accept", { token })
    expect(accepted.status).toBe(410)
    expect(accepted.body).toEqual(refusal("InvitationInvalid"))
    await notMember(t, organization.id, invitee)

    expect((await owner.act("resend", { organizationId: organization.id, invitationId: invitation.id })).status).toBe(200)
    expect((await invitee.act("accept", { token: tokenOf(t.mails[1]!) })).status).toBe(200)
  })

  it("the invitee declines: the link is dead and nobody joined", async () => {
    const t = buildApp(db.adapter())
    const { owner, invitee, organization } = await setting(t)
    const { token } = await inviteTo(t, owner, organization.id, invitee.email)
    expect((await invitee.act("decline", { token })).status).toBe(200)
    expect(await t.adapter.listInvitations!(organization.id)).toEqual([])
    expect((await invitee.act("accept", { token })).body).toEqual(refusal("InvitationInvalid"))
    await notMember(t, organization.id, invitee)
  })

  it("a made-up or truncated token is InvitationInvalid; inviting a member is AlreadyMember", async () => {
    const t = buildApp(db.adapter())
    const { owner, invitee, organization } = await setting(t)
    const { token } = await inviteTo(t, owner, organization.id, invitee.email)
    expect((await invitee.act("accept", { token: token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA") })).body).toEqual(refusal("InvitationInvalid"))
    expect((await invitee.act("accept", { token: token.slice(0, 10) })).body).toEqual(refusal("InvitationInvalid"))
    expect((await invitee.act("accept", {})).body).toEqual(refusal("InvitationInvalid"))
    expect((await invitee.act("accept", { token })).status).toBe(200)
    const again = await owner.act("invite", { organizationId: organization.id, email: invitee.email })
    expect(again.status).toBe(409)
    expect(again.body).toEqual(refusal("AlreadyMember"))
  })
  it("an invitation to a deleted organization is dead", async () => {
    const t = buildApp(db.adapter())
    const { owner, invitee, organization } = await setting(t)
    const { token } = await inviteTo(t, owner, organization.id, invitee.email)
    expect((await owner.act("delete", { organizationId: organization.id })).status).toBe(200)
    const accepted = await invitee.act("accept", { token })
    expect(accepted.status).toBe(410)
    expect(accepted.body).toEqual(refusal("InvitationInvalid"))
    expect(await invitee.active()).toBeNull()
    expect(await t.adapter.listMemberships!(invitee.id)).toEqual([])
  })
})
