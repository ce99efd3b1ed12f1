/**
 * The admin tools' server helpers (issue #30: `banUser`, `unbanUser`, `listUsers`, `createUser`,
 * `isAdmin`, `adminAction` from `gatehouse`), the option's checks at start-up, and the
 * impersonation's facts: no `jwt` or `session` callback can make a session look impersonated or
 * hide that it is; signing out while impersonating (cookie sessions) ends the admin's stashed
 * session too; a database impersonation whose facts are lost is refused.
 */
import { beforeAll, describe, expect, it } from "@jest/globals"
import express from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { adminAction, banUser, createUser, isAdmin, listUsers, unbanUser } from "../../lib/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { SECRET } from "../helpers/app.js"
import { adminClient, agentFor, buildAdminApp, clientOf, signIn, someone, storedUser, type AdminApp } from "./support.js"
import { credentialsProvider, csrfOf, PASSWORD } from "../integration/organizations/support.js"

describe("server helpers", () => {
  let t: AdminApp
  beforeAll(() => {
    t = buildAdminApp(MemoryAdapter())
    t.app.get("/is-admin", async (req, res) => {
      res.json({ admin: await isAdmin(req, t.config) })
    })
    t.app.post("/back-office/ban", express.json(), async (req, res) => {
      try {
        res.json(await adminAction(req, res, t.config, "ban", { userId: req.body.userId }))
      } catch (error) {
        res.status(418).json({ type: (error as { type?: string }).type })
      }
    })
  })

  it("banUser from server code ends the user's sessions and refuses sign-in; unbanUser lifts it", async () => {
    const user = await storedUser(t.adapter, "script")
    const session = await signIn(t.app, user)
    const ban = await banUser(t.config, user.id, { reason: "chargeback", expires: 3600 })
    expect(ban).toMatchObject({ userId: user.id, reason: "chargeback", bannedBy: null })
    expect((await session.get("/private")).status).toBe(401)
    await expect(signIn(t.app, user)).rejects.toThrow(/UserBanned/)
    expect(await unbanUser(t.config, user.id)).toBe(true)
    expect(await unbanUser(t.config, user.id)).toBe(false)
    await signIn(t.app, user)
    await expect(banUser(t.config, "nobody")).rejects.toMatchObject({ type: "UserNotFound" })
  })

  it("createUser and listUsers from server code", async () => {
    const email = `helper-${Math.random().toString(36).slice(2, 8)}@example.com`
    const created = await createUser(t.config, { email, name: "Helper Made" })
    const page = await listUsers(t.config, { search: email })
    expect(page.users.map((user) => user.id)).toEqual([created.id])
    await expect(createUser(t.config, { email })).rejects.toMatchObject({ type: "EmailInUse" })
  })

  it("isAdmin tells admins, and not while impersonating; adminAction runs an action as the signed-in admin", async () => {
    const admin = await someone(t, "root", { admin: true })
    const plain = await someone(t, "plain")
    expect((await admin.get("/is-admin")).body).toEqual({ admin: true })
    expect((await plain.get("/is-admin")).body).toEqual({ admin: false })
    expect((await agentFor(t.app).get("/is-admin")).body).toEqual({ admin: false })

    const target = await storedUser(t.adapter, "target")
    const done = await admin.agent.post("/back-office/ban").send({ userId: target.id })
    expect(done.body).toEqual({ banned: true, ban: { reason: null, expires: null } })
    const refused = await plain.agent.post("/back-office/ban").send({ userId: target.id })
    expect(refused.body).toEqual({ type: "AdminRequired" })

    const other = await storedUser(t.adapter, "viewed")
    await admin.admin("impersonate", { userId: other.id })
    expect((await admin.get("/is-admin")).body).toEqual({ admin: false })
  })
})

describe("the admin option at start-up", () => {
  const base = { secret: SECRET, providers: [credentialsProvider()], logLevel: "silent" } as const
  it.each([
    [{}, /a way to know its admins/],
    [{ role: "admin" }, /need admin.organization/],
    [{ organization: "staff" }, /needs admin.role or admin.permission/],
    [{ userIds: ["a"], pageSize: 0 }, /pageSize/],
    [{ userIds: ["a"], impersonation: { maxAge: 10 } }, /maxAge/],
    [{ userIds: "a" }, /userIds/],
  ])("refuses %j with InvalidOption", (admin, message) => {
    expect(() => resolveConfig({ ...base, adapter: MemoryAdapter(), admin } as unknown as AuthConfig)).toThrow(message)
  })
  it("refuses an adapter without the admin methods (MissingAdapterMethods) and no adapter (MissingAdapter)", () => {
    const { listUsers: _drop, ...partial } = MemoryAdapter()
    expect(() => resolveConfig({ ...base, adapter: partial, admin: { userIds: ["a"] } } as unknown as AuthConfig)).toThrow(expect.objectContaining({ type: "MissingAdapterMethods" }))
    expect(() => resolveConfig({ ...base, admin: { userIds: ["a"] } } as unknown as AuthConfig)).toThrow(expect.objectContaining({ type: "MissingAdapter" }))
  })
  it("with the option off, every admin path answers AdminUnavailable (404), signed in or not", async () => {
    const { buildApp } = await import("../integration/organizations/support.js")
    const off = buildApp(MemoryAdapter(), { organizations: false })
    const anonymous = agentFor(off.app)
    const list = await anonymous.get("/auth/admin").set("Accept", "application/json")
    expect([list.status, list.body.error?.type]).toEqual([404, "AdminUnavailable"])
    const token = await csrfOf(anonymous)
    const post = await anonymous.post("/auth/admin/ban").set("Accept", "application/json").send({ csrfToken: token, userId: "x" })
    expect([post.status, post.body.error?.type]).toEqual([404, "AdminUnavailable"])
  })
  it("the organization's role needs organizations on", () => {
    expect(() => resolveConfig({ ...base, adapter: MemoryAdapter(), admin: { organization: "staff", role: "admin" } } as unknown as AuthConfig)).toThrow(/organizations option/)
  })
})

describe("impersonation facts are Gatehouse's", () => {
  let t: AdminApp
  beforeAll(() => {
    t = buildAdminApp(MemoryAdapter(), {
      extra: {
        callbacks: {
          // A callback that tries to forge an impersonation, and one that tries to hide it.
          jwt: ({ token }: { token: Record<string, unknown> }) => ({ ...token, impersonatedBy: token.impersonatedBy ? undefined : { id: "forged", email: null, name: null }, impersonationEnds: 9_999_999_999 }),
          session: ({ session }: { session: Record<string, unknown> }) => ({ ...session, impersonatedBy: undefined }),
        },
      } as unknown as Partial<AuthConfig>,
    })
  })

  it("a jwt callback cannot make a session impersonated, nor a session callback hide an impersonation", async () => {
    const plain = await someone(t, "plain")
    expect((await plain.get("/me")).body.auth.impersonatedBy).toBeUndefined()
    const admin = await someone(t, "root", { admin: true })
    const user = await storedUser(t.adapter, "seen")
    expect((await admin.admin("impersonate", { userId: user.id })).status).toBe(200)
    const me = (await admin.get("/me")).body.auth
    expect(me.impersonatedBy).toMatchObject({ id: admin.id })
  })
})

describe("signing out while impersonating (cookie sessions)", () => {
  let t: AdminApp
  beforeAll(() => {
    t = buildAdminApp(MemoryAdapter())
  })
  it("ends the admin's stashed session too: a copy of the admin's cookie no longer works", async () => {
    const person = await storedUser(t.adapter, "root")
    t.adminIds.add(person.id)
    const agent = agentFor(t.app)
    const csrfToken = await csrfOf(agent)
    const signedIn = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken, username: person.username, password: PASSWORD })
    const lines = signedIn.headers["set-cookie"] as unknown as string[]
    const own = lines.map((line) => line.split(";")[0]!).find((pair) => pair.startsWith("authjs.session-token="))
    expect(own).toBeDefined()
    const admin = adminClient(clientOf(agent, person))
    // A second browser holding the admin's session cookie (as the stash does).
    const copy = agentFor(t.app)
    const before = await copy.get("/me").set("Cookie", own!)
    expect(before.body.auth.user.email).toBe(admin.email)

    const user = await storedUser(t.adapter, "seen")
    await admin.admin("impersonate", { userId: user.id })
    const signOutToken = await csrfOf(admin.agent)
    await admin.agent.post("/auth/signout").set("Accept", "application/json").send({ csrfToken: signOutToken })
    expect((await admin.get("/me")).body.auth).toBeNull()
    const after = await copy.get("/me").set("Cookie", own!)
    expect(after.body.auth).toBeNull()
  })
})

