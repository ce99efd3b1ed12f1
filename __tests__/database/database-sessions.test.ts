/**
 * Credentials sign-in under the database strategy (README "Databases and adapters", "Sessions",
 * "Credentials sign-in", "Callbacks and events"), over HTTP, on the memory adapter and on the SQL
 * adapter with SQLite, PostgreSQL and MariaDB. Rows are checked through each engine's back door.
 */
import { randomBytes } from "node:crypto"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from "@jest/globals"
import type { AuthConfig, JwtCallbackParams, SessionCallbackParams } from "../../lib/types.js"
import type { AdapterAccount } from "../../lib/adapters.js"
import { decode } from "../../lib/jwt/index.js"
import { adapterMethods } from "../../lib/core/adapter.js"
import { CAPABILITIES } from "../../lib/capabilities.js"
import { SECRET, csrfToken, findCookie, isCleared, makeApp, signInAs, testConfig } from "../helpers/app.js"
import { ENGINE_NAMES, ORIGIN, SESSION, agentFor, engine, sessionValue, spyAdapter } from "./engines.js"

/** Every adapter method Gatehouse calls, the core's and the capabilities'. */
const ADAPTER_METHODS = adapterMethods(CAPABILITIES)

const DAY = 86_400_000
const ALICE = { name: "Alice", email: "alice@example.com", image: "https://img.example/alice.png" }
/** Cookie `Expires` has whole seconds. */
const seconds = (date: Date | number) => Math.floor(new Date(date).getTime() / 1000)
const WRITES = ["createUser", "updateUser", "deleteUser", "linkAccount", "unlinkAccount", "createSession", "updateSession", "deleteSession"] as const

describe.each(ENGINE_NAMES)("database sessions on %s", (name) => {
  const db = engine(name, "dbs")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())
  beforeEach(() => db.reset())
  afterEach(() => {
    jest.restoreAllMocks()
  })

  function setup(overrides: Partial<AuthConfig> = {}) {
    const adapter = spyAdapter(db.adapter())
    const events = {
      signIn: jest.fn<(message: unknown) => void>(),
      createUser: jest.fn<(message: unknown) => void>(),
      linkAccount: jest.fn<(message: unknown) => void>(),
      signOut: jest.fn<(message: unknown) => void>(),
    }
    const app = makeApp(testConfig({ adapter, events, ...overrides }))
    return { app, adapter, events, agent: agentFor(app) }
  }

  async function signedIn(agent: ReturnType<typeof agentFor>, username = "alice", callbackUrl = "/home") {
    const response = await signInAs(agent, username, { callbackUrl })
    expect(response.status).toBe(302)
    const token = sessionValue(response)
    expect(token).toEqual(expect.any(String))
    expect(token).not.toBe("")
    return { response, token: token as string }
  }

  it("a first sign-in stores the user, a credentials account and a session whose token alone is in the cookie", async () => {
    const { agent, events } = setup()
    const { response, token } = await signedIn(agent)
    expect(response.headers.location).toBe(`${ORIGIN}/home`)

    const rows = await db.sessions()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.sessionToken).toBe(token)
    expect(rows[0]!.userId).toBe("user-alice")
    expect(rows[0]!.id).not.toBe(token)
    if (name !== "memory") expect(rows[0]!.id).toEqual(expect.any(String))
    expect(seconds(findCookie(response, SESSION)!.expires!)).toBe(seconds(rows[0]!.expires))
    expect(await db.counts()).toEqual({ users: 1, accounts: 1, sessions: 1 })
    expect(await db.accounts()).toEqual([{ userId: "user-alice", provider: "credentials", providerAccountId: "user-alice", type: "credentials" }])

    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(events.createUser).toHaveBeenCalledWith({ user: expect.objectContaining({ id: "user-alice", email: ALICE.email }) })
    expect(events.linkAccount).toHaveBeenCalledTimes(1)
    expect(events.linkAccount).toHaveBeenCalledWith(expect.objectContaining({ account: expect.objectContaining({ provider: "credentials", userId: "user-alice" }) }))
    expect(events.signIn).toHaveBeenCalledTimes(1)
    expect(events.signIn).toHaveBeenCalledWith(expect.objectContaining({ user: expect.objectContaining({ id: "user-alice" }), isNewUser: true }))
  })

  it("a second sign-in reuses the stored user: isNewUser false, no createUser", async () => {
    const { app, events } = setup()
    await signedIn(agentFor(app))
    const { token } = await signedIn(agentFor(app))
    expect(events.signIn).toHaveBeenCalledTimes(2)
    expect(events.signIn.mock.calls[1]![0]).toMatchObject({ user: { id: "user-alice" }, isNewUser: false })
    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(events.linkAccount).toHaveBeenCalledTimes(1)
    expect(await db.counts()).toEqual({ users: 1, accounts: 1, sessions: 2 })
    expect((await db.session(token))?.userId).toBe("user-alice")
  })

  it("GET /auth/session and requireAuth: one getSessionAndUser per request (past the one-second cache), no updateSession when not due", async () => {
    const { agent, adapter } = setup()
    const { token } = await signedIn(agent)
    const row = await db.session(token)
    adapter.getSessionAndUser.mockClear()
    // Each request comes more than a second after the last: this process's cache no longer answers.
    let clock = Date.now()
    jest.spyOn(Date, "now").mockImplementation(() => clock)
    const later = () => (clock += 1001)

    const session = await agent.get("/auth/session").expect(200)
    // Issue #16: how and when the user signed in (amr, authTime) come with the session.
    expect(session.body).toEqual({ user: ALICE, expires: row!.expires.toISOString(), amr: ["pwd"], authTime: expect.any(Number) })
    expect(adapter.getSessionAndUser).toHaveBeenCalledTimes(1)
    expect(adapter.getSessionAndUser).toHaveBeenCalledWith(token)
    expect(findCookie(session, SESSION)).toBeUndefined()

    adapter.getSessionAndUser.mockClear()
    later()
    const page = await agent.get("/dashboard").set("Accept", "text/html").expect(200)
    expect(page.text).toContain("Dashboard of Alice")
    expect(adapter.getSessionAndUser).toHaveBeenCalledTimes(1)

    adapter.getSessionAndUser.mockClear()
    later()
    const api = await agent.get("/api/me").set("Accept", "application/json").expect(200)
    expect(api.body.user).toEqual(ALICE)
    expect(adapter.getSessionAndUser).toHaveBeenCalledTimes(1)
    expect(adapter.updateSession).not.toHaveBeenCalled()
    expect(findCookie(api, SESSION)).toBeUndefined()

    // Within the second, the same process answers from its cache (revocations drop entries at once).
    adapter.getSessionAndUser.mockClear()
    await agent.get("/api/me").set("Accept", "application/json").expect(200)
    expect(adapter.getSessionAndUser).not.toHaveBeenCalled()
  })

  it("with updateAge 0 every read moves the expiry: updateSession, the row and a new cookie", async () => {
    const { agent, adapter } = setup({ session: { maxAge: 3600, updateAge: 0 } })
    const t0 = Date.now()
    const now = jest.spyOn(Date, "now").mockReturnValue(t0)
    const { token } = await signedIn(agent)
    expect((await db.session(token))!.expires.getTime()).toBe(t0 + 3_600_000)

    for (const later of [t0 + 120_000, t0 + 240_000]) {
      now.mockReturnValue(later)
      adapter.updateSession.mockClear()
      const read = await agent.get("/auth/session").expect(200)
      expect(adapter.updateSession).toHaveBeenCalledTimes(1)
      // The adapter stores session facts: the last-seen time moves with the expiry.
      expect(adapter.updateSession).toHaveBeenCalledWith({ sessionToken: token, expires: new Date(later + 3_600_000), lastSeenAt: new Date(later) })
      const cookie = findCookie(read, SESSION)
      expect(cookie?.value).toBe(token)
      expect(seconds(cookie!.expires!)).toBe(seconds(later + 3_600_000))
      expect(read.body.expires).toBe(new Date(later + 3_600_000).toISOString())
      expect((await db.session(token))!.expires.getTime()).toBe(later + 3_600_000)
    }
  })

  it("with the default updateAge a read right after sign-in writes nothing; a read a day later moves the expiry", async () => {
    const { agent, adapter } = setup()
    const t0 = Date.now()
    const now = jest.spyOn(Date, "now").mockReturnValue(t0)
    const { token } = await signedIn(agent)

    now.mockReturnValue(t0 + 1000)
    const soon = await agent.get("/auth/session").expect(200)
    expect(soon.body.user).toEqual(ALICE)
    expect(adapter.updateSession).not.toHaveBeenCalled()
    expect(findCookie(soon, SESSION)).toBeUndefined()
    expect((await db.session(token))!.expires.getTime()).toBe(t0 + 30 * DAY)

    now.mockReturnValue(t0 + DAY + 1000)
    const later = await agent.get("/auth/session").expect(200)
    expect(adapter.updateSession).toHaveBeenCalledTimes(1)
    expect(seconds(findCookie(later, SESSION)!.expires!)).toBe(seconds(t0 + 31 * DAY + 1000))
    expect((await db.session(token))!.expires.getTime()).toBe(t0 + 31 * DAY + 1000)
  })

  it("a session whose row has expired reads as signed out: cookie cleared, row deleted", async () => {
    const { agent, adapter } = setup()
    const { token } = await signedIn(agent)
    await db.setExpires(token, new Date(Date.now() - 60_000))
    const read = await agent.get("/auth/session").expect(200)
    expect(read.body).toBeNull()
    expect(isCleared(findCookie(read, SESSION))).toBe(true)
    expect(adapter.deleteSession).toHaveBeenCalledWith(token)
    expect(await db.session(token)).toBeNull()
    expect((await db.counts()).sessions).toBe(0)
    await agent.get("/api/me").set("Accept", "application/json").expect(401)
  })

  it("POST /auth/session runs the session callback with user, newSession and trigger update", async () => {
    const session = jest.fn(({ session, newSession, trigger }: SessionCallbackParams) =>
      trigger === "update" ? { ...session, note: (newSession as { note?: string }).note } : session,
    )
    const { agent } = setup({ callbacks: { session } })
    await signedIn(agent)
    const csrf = await csrfToken(agent)
    const updated = await agent.post("/auth/session").send({ csrfToken: csrf, data: { note: "hello" } }).expect(200)
    expect(updated.body).toMatchObject({ user: ALICE, note: "hello" })
    expect(session).toHaveBeenCalledTimes(1)
    expect(session).toHaveBeenCalledWith(
      expect.objectContaining({ user: expect.objectContaining({ id: "user-alice", email: ALICE.email }), newSession: { note: "hello" }, trigger: "update" }),
    )
    const read = await agent.get("/auth/session").expect(200)
    expect(read.body.note).toBeUndefined()
    expect(session.mock.calls[1]![0].trigger).toBeUndefined()
    expect(session.mock.calls[1]![0].user).toMatchObject({ id: "user-alice" })
  })

  it("sign-out deletes the row and fires signOut with the deleted session", async () => {
    const { agent, events } = setup()
    const { token } = await signedIn(agent)
    const row = await db.session(token)
    const csrf = await csrfToken(agent)
    const out = await agent.post("/auth/signout").type("form").send({ csrfToken: csrf, callbackUrl: "/bye" }).expect(302)
    expect(out.headers.location).toBe(`${ORIGIN}/bye`)
    expect(isCleared(findCookie(out, SESSION))).toBe(true)
    expect(await db.session(token)).toBeNull()
    expect(events.signOut).toHaveBeenCalledTimes(1)
    const message = events.signOut.mock.calls[0]![0] as { session: { sessionToken: string; userId: string; expires: Date } }
    expect(message.session).toMatchObject({ sessionToken: token, userId: "user-alice" })
    expect(new Date(message.session.expires).getTime()).toBe(row!.expires.getTime())
    const again = await agentFor(makeApp(testConfig({ adapter: db.adapter() }))).get("/auth/session").set("Cookie", `${SESSION}=${token}`).expect(200)
    expect(again.body).toBeNull()
  })

  it("an absolute session.maxAge Date fixes the row's expires, and reads never move it", async () => {
    const end = new Date(seconds(Date.now() + 3 * DAY) * 1000)
    const { agent, adapter } = setup({ session: { maxAge: end, updateAge: 0 } })
    const { response, token } = await signedIn(agent)
    expect((await db.session(token))!.expires.getTime()).toBe(end.getTime())
    expect(findCookie(response, SESSION)!.expires!.getTime()).toBe(end.getTime())
    const read = await agent.get("/auth/session").expect(200)
    expect(read.body.expires).toBe(end.toISOString())
    expect(adapter.updateSession).not.toHaveBeenCalled()
    expect((await db.session(token))!.expires.getTime()).toBe(end.getTime())
  })

  it("pages.newUser receives a first sign-in, with its callbackUrl; later sign-ins go to callbackUrl", async () => {
    const { app } = setup({ pages: { newUser: "/welcome" } })
    const first = await signedIn(agentFor(app))
    const location = new URL(first.response.headers.location as string)
    expect(location.origin + location.pathname).toBe(`${ORIGIN}/welcome`)
    expect(location.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/home`)
    const second = await signedIn(agentFor(app))
    expect(second.response.headers.location).toBe(`${ORIGIN}/home`)
  })

  // README (since 1433deb): with an adapter, credentials users live in the database whatever the
  // strategy; the cookie strategy never writes a session row, and a returning user writes nothing.
  it("session.strategy cookie with an adapter: no session rows, the user stored once, a JWE cookie", async () => {
    const jwt = jest.fn(({ token }: JwtCallbackParams) => token)
    const { app, adapter, events } = setup({ session: { strategy: "cookie" }, callbacks: { jwt } })
    await signedIn(agentFor(app))
    expect(await db.counts()).toEqual({ users: 1, accounts: 1, sessions: 0 })
    expect(jwt).toHaveBeenCalledWith(expect.objectContaining({ trigger: "signUp" }))
    expect(events.createUser).toHaveBeenCalledTimes(1)

    for (const method of ADAPTER_METHODS) adapter[method]?.mockClear()
    const { token } = await signedIn(agentFor(app))
    expect(await db.counts()).toEqual({ users: 1, accounts: 1, sessions: 0 })
    for (const method of WRITES) expect([method, adapter[method]?.mock.calls.length ?? 0]).toEqual([method, 0])
    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(jwt).toHaveBeenLastCalledWith(expect.objectContaining({ trigger: "signIn" }))
    expect(await db.session(token)).toBeNull()
    const parts = token.split(".")
    expect(parts).toHaveLength(5)
    expect(JSON.parse(Buffer.from(parts[0]!, "base64url").toString("utf8"))).toMatchObject({ alg: "dir", enc: "A256CBC-HS512" })
    expect(await decode({ token, secret: SECRET, salt: SESSION })).toMatchObject({ sub: "user-alice", email: ALICE.email })
    expect((await agentFor(app).get("/auth/session").set("Cookie", `${SESSION}=${token}`).expect(200)).body.user).toEqual(ALICE)
    expect(await db.counts()).toEqual({ users: 1, accounts: 1, sessions: 0 })
  })

  it("session.strategy cookie with an adapter: the token's sub is the stored user linked to the credentials id", async () => {
    const stored = await db.adapter().createUser!({ id: "stored-alice", name: "Alice", email: ALICE.email, emailVerified: null, image: ALICE.image })
    // Gatehouse stores "credentials" accounts, outside Auth.js's AdapterAccountType.
    const link = { userId: stored.id, type: "credentials", provider: "credentials", providerAccountId: "user-alice" } as unknown as AdapterAccount
    await db.adapter().linkAccount!(link)
    const { app } = setup({ session: { strategy: "cookie" } })
    const { token } = await signedIn(agentFor(app))
    expect(await decode({ token, secret: SECRET, salt: SESSION })).toMatchObject({ sub: "stored-alice" })
    expect(await db.counts()).toEqual({ users: 1, accounts: 1, sessions: 0 })
  })

  it("a custom generateSessionToken makes the token in the cookie and the row", async () => {
    const made: string[] = []
    const generateSessionToken = jest.fn(() => {
      made.push(`custom_${made.length}_${randomBytes(24).toString("base64url")}`)
      return made[made.length - 1]!
    })
    const { agent } = setup({ session: { generateSessionToken } })
    const { token } = await signedIn(agent)
    expect(generateSessionToken).toHaveBeenCalledTimes(1)
    expect(token).toBe(made[0])
    expect((await db.session(token))?.userId).toBe("user-alice")
    expect((await agent.get("/auth/session").expect(200)).body.user).toEqual(ALICE)
  })
})
