/**
 * The admin tools' actions (issue #30) on memory, SQLite and PostgreSQL: finding users, their
 * view, creating and changing them, bans (sessions end, sign-in refused), ending sessions,
 * deleting, and impersonation (the session carries `impersonatedBy`, stopping returns to the
 * admin), each with its audit record; and the refusals: a non-admin, an admin without a recent
 * sign-in, a missing CSRF token, impersonating an admin, sensitive actions while impersonating, an
 * impersonation that ran out.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { agentFor, buildAdminApp, csrfOf, engine, refusal, signIn, someone, storedUser, type AdminApp, type EngineName } from "./support.js"

const REAL_TIMERS = ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"] as const

function later(ms: number): void {
  jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: Date.now() + ms })
}

afterEach(() => {
  jest.useRealTimers()
})

describe.each<EngineName>(["memory", "sqlite", "postgres"])("admin actions on %s", (name) => {
  const store = engine(name, "adm")
  let t: AdminApp
  beforeAll(async () => {
    await store.open()
    t = buildAdminApp(store.adapter())
  }, 60_000)
  afterAll(async () => {
    await store.close()
  })

  it("lists users in email order a page at a time, searches by email, name and id, and views one", async () => {
    const admin = await someone(t, "root", { admin: true })
    const marker = `mk${Math.random().toString(36).slice(2, 8)}`
    const made = []
    for (const label of ["c", "a", "b"]) made.push(await storedUser(t.adapter, `${marker}${label}`))
    const first = await admin.get(`/auth/admin?search=${marker.toUpperCase()}&limit=2`)
    expect(first.status).toBe(200)
    const emails = first.body.users.map((user: { email: string }) => user.email)
    expect(emails).toEqual([...made].map((user) => user.email).sort().slice(0, 2))
    expect(typeof first.body.next).toBe("string")
    const second = await admin.get(`/auth/admin?search=${marker}&limit=2&cursor=${encodeURIComponent(first.body.next)}`)
    expect(second.body.users.map((user: { email: string }) => user.email)).toEqual([[...made].map((user) => user.email).sort()[2]])
    expect(second.body.next).toBeNull()
    const byId = await admin.get(`/auth/admin?search=${encodeURIComponent(made[0]!.id)}`)
    expect(byId.body.users.map((user: { id: string }) => user.id)).toEqual([made[0]!.id])

    const view = await admin.get(`/auth/admin/${encodeURIComponent(made[0]!.id)}`)
    expect(view.status).toBe(200)
    expect(view.body.user).toMatchObject({ id: made[0]!.id, email: made[0]!.email, ban: null })
    expect(view.body).toMatchObject({ isAdmin: false, twoFactor: null, organizations: [] })
    expect(Array.isArray(view.body.sessions)).toBe(true)

    const missing = await admin.get("/auth/admin/no-such-user")
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual(refusal("UserNotFound"))
    const badCursor = await admin.get("/auth/admin?cursor=garbage")
    expect(badCursor.status).toBe(400)
  })

  it("creates a user and changes the name and address (a new address is unverified; a taken one is refused)", async () => {
    const admin = await someone(t, "root", { admin: true })
    const email = `${Math.random().toString(36).slice(2, 10)}@example.com`
    const created = await admin.admin("create-user", { email: email.toUpperCase(), name: "New Person", emailVerified: true })
    expect(created.status).toBe(200)
    expect(created.body.user).toMatchObject({ email, name: "New Person" })
    expect(created.body.user.emailVerified).not.toBeNull()
    const id = created.body.user.id as string
    expect((await t.adapter.getUser!(id))?.email).toBe(email)

    const again = await admin.admin("create-user", { email })
    expect(again.status).toBe(409)
    expect(again.body).toEqual(refusal("EmailInUse"))

    const moved = await admin.admin("update-user", { userId: id, name: "Renamed", email: `moved-${email}` })
    expect(moved.status).toBe(200)
    expect(moved.body.user).toMatchObject({ name: "Renamed", email: `moved-${email}`, emailVerified: null })
    const stored = await t.adapter.getUser!(id)
    expect(stored).toMatchObject({ name: "Renamed", email: `moved-${email}`, emailVerified: null })

    const other = await storedUser(t.adapter, "other")
    const taken = await admin.admin("update-user", { userId: id, email: other.email })
    expect(taken.status).toBe(409)
    expect((await t.adapter.getUser!(id))?.email).toBe(`moved-${email}`)
    const notAnAddress = await admin.admin("update-user", { userId: id, email: "not an address" })
    expect(notAnAddress.status).toBe(400)

    expect(t.adminEvents).toEqual(expect.arrayContaining([expect.objectContaining({ type: "admin.user_created", adminId: admin.id, userId: id }), expect.objectContaining({ type: "admin.user_updated", adminId: admin.id, userId: id, fields: expect.arrayContaining(["name", "email"]) })]))
  })

  it("bans a user: their sessions end at once, sign-in is refused with UserBanned, and unbanning lets them back", async () => {
    const admin = await someone(t, "root", { admin: true })
    const user = await storedUser(t.adapter, "target")
    const victim = await signIn(t.app, user)
    expect((await victim.get("/private")).status).toBe(200)

    const banned = await admin.admin("ban", { userId: user.id, reason: "spam" })
    expect(banned.status).toBe(200)
    expect(banned.body.ban).toEqual({ reason: "spam", expires: null })
    expect((await victim.get("/private")).status).toBe(401)
    await expect(signIn(t.app, user)).rejects.toThrow(/UserBanned/)
    const view = await admin.get(`/auth/admin/${encodeURIComponent(user.id)}`)
    expect(view.body.user.ban).toMatchObject({ reason: "spam", expires: null, bannedBy: admin.id })

    const record = t.auditRecords.find((entry) => entry.type === "admin.user_banned" && entry.userId === user.id)
    expect(record).toMatchObject({ adminId: admin.id, withReason: true })
    expect(JSON.stringify(record)).not.toContain("spam")

    const lifted = await admin.admin("unban", { userId: user.id })
    expect(lifted.body).toEqual({ unbanned: true })
    const back = await signIn(t.app, user)
    expect((await back.get("/private")).status).toBe(200)
  })

  it("a ban with an expiry ends by itself", async () => {
    const admin = await someone(t, "root", { admin: true })
    const user = await storedUser(t.adapter, "brief")
    const banned = await admin.admin("ban", { userId: user.id, expires: 3600 })
    expect(new Date(banned.body.ban.expires).getTime()).toBeGreaterThan(Date.now() + 3500_000)
    await expect(signIn(t.app, user)).rejects.toThrow(/UserBanned/)
    const past = await admin.admin("ban", { userId: user.id, expires: "2001-01-01T00:00:00Z" })
    expect(past.status).toBe(400)
    expect(past.body).toEqual(refusal("InvalidRequest"))
    later(3601_000)
    await signIn(t.app, user)
  })

  it("ends a user's sessions and deletes a user", async () => {
    const admin = await someone(t, "root", { admin: true })
    const user = await storedUser(t.adapter, "leaver")
    const session = await signIn(t.app, user)
    expect((await admin.admin("revoke-sessions", { userId: user.id })).status).toBe(200)
    expect((await session.get("/private")).status).toBe(401)
    await admin.admin("ban", { userId: user.id })
    expect((await admin.admin("delete-user", { userId: user.id })).body).toEqual({ deleted: true })
    expect(await t.adapter.getUser!(user.id)).toBeNull()
    expect(await t.adapter.getUserBan!(user.id)).toBeNull()
    expect((await admin.admin("delete-user", { userId: user.id })).status).toBe(404)
  })

  it("impersonates a user: the session carries impersonatedBy, sensitive actions are refused, stopping returns the admin's own session", async () => {
    const admin = await someone(t, "root", { admin: true })
    const user = await storedUser(t.adapter, "customer")
    const started = await admin.admin("impersonate", { userId: user.id })
    expect(started.status).toBe(200)
    const me = (await admin.get("/me")).body.auth
    expect(me.user.email).toBe(user.email)
    expect(me.impersonatedBy).toMatchObject({ id: admin.id, email: admin.email })
    expect(new Date(me.impersonatedBy.ends).getTime()).toBeGreaterThan(Date.now() + 3500_000)

    // Sensitive: deleting the account, admin actions.
    const token = await csrfOf(admin.agent)
    const deleting = await admin.agent.post("/auth/account/delete").set("Accept", "application/json").send({ csrfToken: token })
    expect(deleting.status).toBe(403)
    expect(deleting.body).toEqual(refusal("ImpersonationRestricted"))
    expect(await t.adapter.getUser!(user.id)).not.toBeNull()
    const nested = await admin.admin("impersonate", { userId: user.id })
    expect(nested.status).toBe(403)

    const stopped = await admin.admin("stop-impersonating")
    expect(stopped.body).toEqual({ stopped: true, userId: user.id })
    const mine = (await admin.get("/me")).body.auth
    expect(mine.user.email).toBe(admin.email)
    expect(mine.impersonatedBy).toBeUndefined()
    expect((await admin.admin("stop-impersonating")).body).toEqual(refusal("NotImpersonating"))
    expect(t.adminEvents).toEqual(expect.arrayContaining([expect.objectContaining({ type: "admin.impersonation_started", adminId: admin.id, userId: user.id }), expect.objectContaining({ type: "admin.impersonation_stopped", adminId: admin.id, userId: user.id })]))
  })

  it("an impersonation that ran out reads as signed out, and stopping still returns the admin", async () => {
    const admin = await someone(t, "root", { admin: true })
    const user = await storedUser(t.adapter, "expiring")
    await admin.admin("impersonate", { userId: user.id })
    later(3601_000)
    expect((await admin.get("/me")).body.auth).toBeNull()
    expect((await admin.get("/private")).status).toBe(401)
    jest.useRealTimers()
    const stopped = await admin.admin("stop-impersonating")
    expect(stopped.status).toBe(200)
    expect((await admin.get("/me")).body.auth.user.email).toBe(admin.email)
  })

  it("refuses a non-admin, a stale sign-in, a missing CSRF token, and impersonating an admin", async () => {
    const admin = await someone(t, "root", { admin: true })
    const other = await someone(t, "colleague", { admin: true })
    const plain = await someone(t, "plain")
    const target = await storedUser(t.adapter, "target")

    expect((await plain.get("/auth/admin")).body).toEqual(refusal("AdminRequired"))
    const refused = await plain.admin("ban", { userId: target.id })
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual(refusal("AdminRequired"))
    expect(await t.adapter.getUserBan!(target.id)).toBeNull()

    const noCsrf = await admin.admin("ban", { userId: target.id }, { csrf: false })
    expect(noCsrf.status).toBe(403)
    expect(await t.adapter.getUserBan!(target.id)).toBeNull()

    const self = await admin.admin("ban", { userId: admin.id })
    expect(self.status).toBe(400)
    expect(await t.adapter.getUserBan!(admin.id)).toBeNull()
    expect((await admin.admin("delete-user", { userId: admin.id })).status).toBe(400)
    expect(await t.adapter.getUser!(admin.id)).not.toBeNull()

    const denied = await admin.admin("impersonate", { userId: other.id })
    expect(denied.status).toBe(403)
    expect(denied.body).toEqual(refusal("ImpersonationDenied"))
    expect((await admin.get("/me")).body.auth.user.email).toBe(admin.email)

    later(11 * 60 * 1000)
    const stale = await admin.admin("ban", { userId: target.id })
    expect(stale.status).toBe(403)
    expect(stale.body).toEqual(refusal("RecentSignInRequired"))
    expect(await t.adapter.getUserBan!(target.id)).toBeNull()
    expect(t.auditRecords).toEqual(expect.arrayContaining([expect.objectContaining({ type: "admin.refused", reason: "AdminRequired" })]))
  })

  it("signed out: SessionRequired; the page sends a browser to sign in", async () => {
    const anonymous = agentFor(t.app)
    const api = await anonymous.get("/auth/admin").set("Accept", "application/json")
    expect(api.status).toBe(401)
    expect(api.body).toEqual(refusal("SessionRequired"))
    const page = await anonymous.get("/auth/admin").set("Accept", "text/html")
    expect(page.status).toBe(302)
    expect(page.headers.location).toContain("/auth/signin")
    expect(decodeURIComponent(String(page.headers.location))).toContain("callbackUrl=http://app.test/auth/admin")
  })
})
