/**
 * The organization page's SCIM section (issue #29) and its forms: an owner sees the endpoint to
 * paste into the directory, the tokens (never the token itself), the create form and the
 * directory's groups with a role select; a plain member sees no such section. A new token made by
 * a form is shown once on a page of its own, never in a URL; revoking and a group's role go back
 * to the section with what was done, a refusal with its error.
 */
import { describe, expect, it } from "@jest/globals"
import { admin, buildApp, form, organizationOf, person, type Client } from "./admin-support.js"

async function page(client: Client, slug: string) {
  const response = await client.agent.get(`/auth/organization/${slug}`).set("Accept", "text/html")
  return { status: response.status, html: response.text }
}

describe("the organization page's SCIM section", () => {
  it("an owner sees the endpoint, the tokens without their secret, the create form and the groups' roles; a member sees none of it", async () => {
    const t = buildApp()
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const made = await admin(owner, "create-token", { organizationId: organization.id, name: "Okta production" })
    const now = new Date()
    await t.adapter.createScimGroup!({ id: "group-eng", organizationId: organization.id, displayName: "Engineering", externalId: null, members: [], role: "editor", createdAt: now, updatedAt: now })

    const seen = await page(owner, organization.slug)
    expect(seen.status).toBe(200)
    expect(seen.html).toContain('id="scim"')
    expect(seen.html).toContain('href="#scim"')
    expect(seen.html).toContain(`value="http://app.test/auth/scim/v2/${organization.id}"`)
    expect(seen.html).toContain("Okta production")
    expect(seen.html).not.toContain(made.body.token)
    expect(seen.html).toContain(`id="scim-token-${made.body.id}-revoke-confirm"`)
    expect(seen.html).toContain('action="http://app.test/auth/scim-admin/create-token"')
    const select = /<select id="scim-group-group-eng-role" name="role" class="field-choice">(.*?)<\/select>/s.exec(seen.html)?.[1] ?? ""
    expect(select).toContain('<option value="editor" selected>')
    expect(select).toContain('<option value="">')
    expect(select).not.toContain('value="owner"')

    const member = await person(t, "member")
    await t.adapter.addMember!({ organizationId: organization.id, userId: member.id, role: "member", createdAt: new Date() })
    const memberView = await page(member, organization.slug)
    expect(memberView.status).toBe(200)
    expect(memberView.html).not.toContain('id="scim"')
    expect(memberView.html).not.toContain("/scim/v2/")
  })

  it("a form's new token is shown once on its own page, never in a URL; revoke and a group's role come back to the section", async () => {
    const t = buildApp()
    const owner = await person(t, "owner")
    const organization = await organizationOf(owner)
    const back = `http://app.test/auth/organization/${organization.slug}`

    const made = await form(owner, "create-token", { organizationId: organization.id, name: "Entra" })
    expect(made.status).toBe(200)
    expect(made.location).toBe("")
    expect(made.headers["cache-control"]).toBe("no-store")
    const token = /id="scim-token-value"[^>]*value="(scim_[A-Za-z0-9_-]+)"/.exec(made.text)?.[1]
    expect(token).toBeDefined()
    expect(made.text).toContain(`value="http://app.test/auth/scim/v2/${organization.id}"`)
    expect(made.text).toContain(`href="${back}#scim"`)
    const [stored] = await t.adapter.listScimTokens!(organization.id)
    expect(stored?.name).toBe("Entra")
    expect((await page(owner, organization.slug)).html).not.toContain(token!)

    const revoked = await form(owner, "revoke-token", { organizationId: organization.id, tokenId: stored!.id, confirm: "yes" })
    expect(revoked).toMatchObject({ status: 302, location: `${back}?saved=scim-revoke-token#scim` })
    expect(await t.adapter.listScimTokens!(organization.id)).toEqual([])
    expect((await owner.agent.get(`/auth/organization/${organization.slug}?saved=scim-revoke-token`)).text).toContain("The token was revoked.")

    const refused = await form(owner, "revoke-token", { organizationId: organization.id, tokenId: "nope" })
    expect(refused).toMatchObject({ status: 302, location: `${back}?error=InvalidRequest#scim` })

    const now = new Date()
    await t.adapter.createScimGroup!({ id: "group-all", organizationId: organization.id, displayName: "Everyone", externalId: null, members: [], role: null, createdAt: now, updatedAt: now })
    const role = await form(owner, "group-role", { organizationId: organization.id, groupId: "group-all", role: "editor" })
    expect(role).toMatchObject({ status: 302, location: `${back}?saved=scim-group-role#scim` })
    expect((await t.adapter.getScimGroup!(organization.id, "group-all"))?.role).toBe("editor")
  })
})
