/**
 * Impersonation and bans with database sessions (issue #30), on memory, SQLite and PostgreSQL:
 * the impersonation's session row ends when the impersonation does (never extended), carries
 * `impersonatedBy` (kept in the shared store: a row whose facts are lost is refused, never shown
 * as the user's own session), and stopping deletes it and puts the admin's own session back;
 * signing out while impersonating ends both. A ban deletes the user's rows.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { buildAdminApp, engine, refusal, signIn, someone, storedUser, type AdminApp, type EngineName } from "./support.js"
import { csrfOf } from "../integration/organizations/support.js"

const REAL_TIMERS = ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"] as const

afterEach(() => {
  jest.useRealTimers()
})

describe.each<EngineName>(["memory", "sqlite", "postgres"])("database sessions on %s", (name) => {
  const store = engine(name, "admdb")
  let t: AdminApp
  beforeAll(async () => {
    await store.open()
    t = buildAdminApp(store.adapter(), { extra: { session: { strategy: "database" } }, admin: { impersonation: { maxAge: 600 } } })
  }, 60_000)
  afterAll(async () => {
    await store.close()
  })

  it("impersonates with a session row of its own that ends with the impersonation, and stops back to the admin's session", async () => {
    const admin = await someone(t, "root", { admin: true })
    const user = await storedUser(t.adapter, "customer")
    const before = await t.adapter.listSessionsByUserId!(admin.id)
    expect(before).toHaveLength(1)

    const started = await admin.admin("impersonate", { userId: user.id })
    expect(started.status).toBe(200)
    const me = (await admin.get("/me")).body.auth
    expect(me.user.email).toBe(user.email)
    expect(me.impersonatedBy).toMatchObject({ id: admin.id })
    const rows = await t.adapter.listSessionsByUserId!(user.id)
    expect(rows).toHaveLength(1)
    const ends = new Date(me.impersonatedBy.ends).getTime()
    expect(Math.abs(rows[0]!.expires.getTime() - ends)).toBeLessThan(2000)
    expect(ends).toBeLessThanOrEqual(Date.now() + 600_000)
    // The admin's own session is kept, not ended.
    expect(await t.adapter.listSessionsByUserId!(admin.id)).toHaveLength(1)

    const token = await csrfOf(admin.agent)
    const deleting = await admin.agent.post("/auth/account/delete").set("Accept", "application/json").send({ csrfToken: token })
    expect(deleting.body).toEqual(refusal("ImpersonationRestricted"))

    expect((await admin.admin("stop-impersonating")).body).toEqual({ stopped: true, userId: user.id })
    expect(await t.adapter.listSessionsByUserId!(user.id)).toHaveLength(0)
    expect((await admin.get("/me")).body.auth.user.email).toBe(admin.email)
  })

  it("an impersonation's session is not extended and reads as signed out once it ends", async () => {
    const admin = await someone(t, "root", { admin: true })
    const user = await storedUser(t.adapter, "later")
    await admin.admin("impersonate", { userId: user.id })
    jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: Date.now() + 601_000 })
    expect((await admin.get("/me")).body.auth).toBeNull()
    jest.useRealTimers()
    expect((await admin.admin("stop-impersonating")).status).toBe(200)
    expect((await admin.get("/me")).body.auth.user.email).toBe(admin.email)
  })

  it("signing out while impersonating ends the impersonation's session and the admin's own", async () => {
    const admin = await someone(t, "root", { admin: true })
    const user = await storedUser(t.adapter, "signout")
    await admin.admin("impersonate", { userId: user.id })
    const token = await csrfOf(admin.agent)
    const out = await admin.agent.post("/auth/signout").set("Accept", "application/json").send({ csrfToken: token })
    expect(out.status).toBeLessThan(400)
    expect(await t.adapter.listSessionsByUserId!(user.id)).toHaveLength(0)
    expect(await t.adapter.listSessionsByUserId!(admin.id)).toHaveLength(0)
    expect((await admin.get("/me")).body.auth).toBeNull()
  })

  it("a ban deletes the user's session rows and refuses the next sign-in", async () => {
    const admin = await someone(t, "root", { admin: true })
    const user = await storedUser(t.adapter, "banned")
    const victim = await signIn(t.app, user)
    expect(await t.adapter.listSessionsByUserId!(user.id)).toHaveLength(1)
    await admin.admin("ban", { userId: user.id })
    expect(await t.adapter.listSessionsByUserId!(user.id)).toHaveLength(0)
    expect((await victim.get("/private")).status).toBe(401)
    await expect(signIn(t.app, user)).rejects.toThrow(/UserBanned/)
  })
})
