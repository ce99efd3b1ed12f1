/**
 * Managing an organization's SCIM tokens and its directory groups' roles (issue #29), over HTTP
 * and through the server helpers (memory adapter): a token is shown once and only its SHA-256 is
 * stored; it reaches its organization's SCIM endpoint until it is revoked; only someone holding
 * `organization:update` with a recent sign-in manages them (a plain member: PermissionDenied; a
 * non-member: OrganizationNotFound; a stale sign-in: RecentSignInRequired), and another
 * organization's token or group is refused with nothing changed; a group's role is applied to its
 * members at once, never `owner`.
 */
import { describe, expect, it } from "@jest/globals"
import { createHash } from "node:crypto"
import request from "supertest"
import { createScimToken, listScimGroups, listScimTokens, revokeScimToken, setScimGroupRole } from "../../lib/scim/helpers.js"
import { admin, buildApp, organizationOf, person, type Json, type ScimApp } from "./admin-support.js"

function sha256(value: string): string {
  return createHash("sha256").update(value).digest("base64url")
}

async function serviceProviderConfig(t: ScimApp, organizationId: string, token: string): Promise<number> {
  const response = await request(t.app).get(`/auth/scim/v2/${organizationId}/ServiceProviderConfig`).set("Host", "app.test").set("Authorization", `Bearer ${token}`)
  return response.status
}

/** A user the directory provisioned into the organization (stored directly), a member with `role`. */
async function provisioned(t: ScimApp, organizationId: string, label: string, role = "member"): Promise<string> {
  const userId = `scim-${label}-${Math.random().toString(36).slice(2, 8)}`
  await t.adapter.createUser!({ id: userId, email: `${userId}@example.org`, name: label, emailVerified: null })
  const now = new Date()
  await t.adapter.createScimUser!({ organizationId, userId, userName: `${userId}@example.org`, userNameKey: `${userId}@example.org`, externalId: null, active: true, suspendedRole: null, attributes: {}, createdAt: now, updatedAt: now })
  await t.adapter.addMember!({ organizationId, userId, role, createdAt: now })
  return userId
}

async function groupOf(t: ScimApp, organizationId: string, displayName: string, members: string[]): Promise<string> {
  const now = new Date()
  const made = await t.adapter.createScimGroup!({ id: `group-${Math.random().toString(36).slice(2, 10)}`, organizationId, displayName, externalId: null, members, role: null, createdAt: now, updatedAt: now })
  if (made === "uniqueness") throw new Error("group name taken")
  return made.id
}

async function roleOf(t: ScimApp, organizationId: string, userId: string): Promise<string | undefined> {
  return (await t.adapter.getMember!(organizationId, userId))?.role
}

describe("SCIM tokens", () => {
  it("a new token is shown once, stored only as its hash, reaches its organization's endpoint, and not after it is revoked", async () => {
    const t = buildApp()
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const made = await admin(owner, "create-token", { organizationId: organization.id, name: "Okta" })
    expect(made.status).toBe(200)
    const token = made.body.token as string
    expect(token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/)
    expect(made.body).toMatchObject({ name: "Okta", endpoint: `http://app.test/auth/scim/v2/${organization.id}` })
    expect(Number.isNaN(Date.parse(made.body.createdAt))).toBe(false)
    expect(made.headers["cache-control"]).toBe("no-store")

    const stored = await t.adapter.listScimTokens!(organization.id)
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ id: made.body.id, name: "Okta", tokenHash: sha256(token), lastUsedAt: null })
    expect(JSON.stringify(stored)).not.toContain(token)
    expect(JSON.stringify(stored)).not.toContain(token.slice("scim_".length))

    // Two tokens are never the same.
    const second = await admin(owner, "create-token", { organizationId: organization.id, name: "Entra" })
    expect(second.body.token).not.toBe(token)

    expect(await serviceProviderConfig(t, organization.id, token)).toBe(200)
    // Another organization's endpoint does not take it.
    const other = await organizationOf(owner, "Other")
    expect(await serviceProviderConfig(t, other.id, token)).toBe(401)

    const revoked = await admin(owner, "revoke-token", { organizationId: organization.id, tokenId: made.body.id })
    expect(revoked.status).toBe(200)
    expect(revoked.body.revoked).toMatchObject({ id: made.body.id, name: "Okta" })
    expect(revoked.body.revoked.tokenHash).toBeUndefined()
    expect(await serviceProviderConfig(t, organization.id, token)).toBe(401)
    expect(await serviceProviderConfig(t, organization.id, second.body.token)).toBe(200)

    expect(t.audits).toContainEqual(expect.objectContaining({ type: "scim.token_created", organizationId: organization.id, tokenId: made.body.id, userId: owner.id }))
    expect(t.audits).toContainEqual(expect.objectContaining({ type: "scim.token_revoked", organizationId: organization.id, tokenId: made.body.id, userId: owner.id }))
    expect(JSON.stringify(t.audits)).not.toContain(token)
  })

  it("only an admin with a recent sign-in manages tokens; another organization's token is refused and kept", async () => {
    const t = buildApp()
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const member = await person(t, "member")
    await t.adapter.addMember!({ organizationId: organization.id, userId: member.id, role: "member", createdAt: new Date() })
    const stranger = await person(t, "stranger")
    const staleOwner = await person(t, "stale", { stale: true })
    await t.adapter.addMember!({ organizationId: organization.id, userId: staleOwner.id, role: "owner", createdAt: new Date() })

    const denied = await admin(member, "create-token", { organizationId: organization.id, name: "Okta" })
    expect([denied.status, denied.body.error?.type]).toEqual([403, "PermissionDenied"])
    const hidden = await admin(stranger, "create-token", { organizationId: organization.id, name: "Okta" })
    expect([hidden.status, hidden.body.error?.type]).toEqual([404, "OrganizationNotFound"])
    const stale = await admin(staleOwner, "create-token", { organizationId: organization.id, name: "Okta" })
    expect([stale.status, stale.body.error?.type]).toEqual([403, "RecentSignInRequired"])
    const nameless = await admin(owner, "create-token", { organizationId: organization.id, name: "  " })
    expect(nameless.body.error?.type).toBe("InvalidRequest")
    expect(await t.adapter.listScimTokens!(organization.id)).toEqual([])

    const made = await admin(owner, "create-token", { organizationId: organization.id, name: "Okta" })
    const other = await organizationOf(owner, "Other")
    const foreign = await admin(owner, "revoke-token", { organizationId: other.id, tokenId: made.body.id })
    expect(foreign.body.error?.type).toBe("InvalidRequest")
    const byMember = await admin(member, "revoke-token", { organizationId: organization.id, tokenId: made.body.id })
    expect(byMember.body.error?.type).toBe("PermissionDenied")
    expect((await t.adapter.listScimTokens!(organization.id)).map((token) => token.id)).toEqual([made.body.id])
    expect(await serviceProviderConfig(t, organization.id, made.body.token)).toBe(200)
    expect(t.audits.filter((record) => record.type === "scim.token_revoked")).toEqual([])
  })

  it("the server helpers make, list and revoke tokens of the organization named", async () => {
    const t = buildApp()
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const other = await organizationOf(owner, "Other")
    const made = await createScimToken(t.config, { organizationId: organization.id, name: "Seeded" })
    expect(made.token).toMatch(/^scim_/)
    const listed = await listScimTokens(t.config, { organizationId: organization.id })
    expect(listed).toEqual([{ id: made.id, name: "Seeded", createdAt: made.createdAt, lastUsedAt: null }])
    expect(await serviceProviderConfig(t, organization.id, made.token)).toBe(200)
    await expect(revokeScimToken(t.config, { organizationId: other.id, tokenId: made.id })).rejects.toMatchObject({ type: "InvalidRequest" })
    await revokeScimToken(t.config, { organizationId: organization.id, tokenId: made.id })
    expect(await listScimTokens(t.config, { organizationId: organization.id })).toEqual([])
    expect(t.audits).toContainEqual(expect.objectContaining({ type: "scim.token_revoked", tokenId: made.id, organizationId: organization.id }))
  })
})

describe("directory groups' roles", () => {
  it("a group's role is applied to its members at once; none goes back to the default role; owners are untouched", async () => {
    const t = buildApp()
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const alice = await provisioned(t, organization.id, "alice")
    const bob = await provisioned(t, organization.id, "bob")
    const groupId = await groupOf(t, organization.id, "Engineering", [alice, owner.id])

    const set = await admin(owner, "group-role", { organizationId: organization.id, groupId, role: "editor" })
    expect(set.status).toBe(200)
    expect(set.body.group).toMatchObject({ id: groupId, displayName: "Engineering", role: "editor", memberCount: 2 })
    expect((await t.adapter.getScimGroup!(organization.id, groupId))?.role).toBe("editor")
    expect(await roleOf(t, organization.id, alice)).toBe("editor")
    expect(await roleOf(t, organization.id, bob)).toBe("member")
    expect(await roleOf(t, organization.id, owner.id)).toBe("owner")

    const cleared = await admin(owner, "group-role", { organizationId: organization.id, groupId, role: "" })
    expect(cleared.body.group.role).toBeNull()
    expect(await roleOf(t, organization.id, alice)).toBe("member")

    const listed = await listScimGroups(t.config, { organizationId: organization.id })
    expect(listed).toEqual([expect.objectContaining({ id: groupId, role: null })])
    const helper = await setScimGroupRole(t.config, { organizationId: organization.id, groupId, role: "admin" })
    expect(helper.role).toBe("admin")
    expect(await roleOf(t, organization.id, alice)).toBe("admin")
  })

  it("never owner, only the organization's roles, only its own groups, only for admins", async () => {
    const t = buildApp()
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const alice = await provisioned(t, organization.id, "alice")
    const groupId = await groupOf(t, organization.id, "Everyone", [alice])
    const other = await organizationOf(owner, "Other")
    const foreignGroup = await groupOf(t, other.id, "Theirs", [])
    const member = await person(t, "member")
    await t.adapter.addMember!({ organizationId: organization.id, userId: member.id, role: "member", createdAt: new Date() })

    const refusals: Array<[Json, string]> = [
      [{ organizationId: organization.id, groupId, role: "owner" }, "InvalidRequest"],
      [{ organizationId: organization.id, groupId, role: "wizard" }, "UnknownRole"],
      [{ organizationId: organization.id, groupId: foreignGroup, role: "editor" }, "InvalidRequest"],
      [{ organizationId: other.id, groupId, role: "editor" }, "InvalidRequest"],
    ]
    for (const [fields, type] of refusals) {
      const answer = await admin(owner, "group-role", fields)
      expect([JSON.stringify(fields), answer.body.error?.type]).toEqual([JSON.stringify(fields), type])
    }
    const denied = await admin(member, "group-role", { organizationId: organization.id, groupId, role: "editor" })
    expect(denied.body.error?.type).toBe("PermissionDenied")
    expect((await t.adapter.getScimGroup!(organization.id, groupId))?.role).toBeNull()
    expect((await t.adapter.getScimGroup!(other.id, foreignGroup))?.role).toBeNull()
    expect(await roleOf(t, organization.id, alice)).toBe("member")
  })
})
