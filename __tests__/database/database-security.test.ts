/**
 * The database halves of SECURITY-CATALOG.md: SESS-10 (guessed, lookalike, expired and orphaned
 * tokens), FIX-01 a/b/c (fresh token on every sign-in), FIX-02 (sign-out ends the session server
 * side), SESS-08 (a JWE is no database token and the reverse) and CSRF-01 target 4 (sign-out
 * without a CSRF token). On the memory adapter and the SQL adapter with SQLite, PostgreSQL, MariaDB.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from "@jest/globals"
import type { Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { csrfToken, findCookie, isCleared, makeApp, signInAs, testConfig } from "../helpers/app.js"
import { ENGINE_NAMES, ORIGIN, SESSION, agentFor, csrfPair, engine, get, post, sessionValue, spyAdapter } from "./engines.js"

/** SIGNED-OUT: /auth/session null (cookie cleared), /api/me 401, /dashboard to the sign-in page. */
async function expectSignedOut(app: Express, cookie: string): Promise<void> {
  const session = await get(app, "/auth/session", cookie)
  expect([session.status, session.body]).toEqual([200, null])
  expect(isCleared(findCookie(session, SESSION))).toBe(true)
  const api = await get(app, "/api/me", cookie)
  expect([api.status, api.body.error?.type]).toEqual([401, "SessionRequired"])
  const page = await get(app, "/dashboard", cookie, "text/html")
  expect(page.status).toBe(302)
  expect(page.headers.location).toMatch(new RegExp(`^${ORIGIN}/auth/signin\\?callbackUrl=`))
}

async function userOf(app: Express, token: string): Promise<string | undefined> {
  const session = await get(app, "/auth/session", `${SESSION}=${token}`).expect(200)
  return session.body?.user?.name
}

/** Bits of entropy a token can carry, from its shape (a UUIDv4 fixes 6 of its 128 bits). */
function entropyBits(token: string): number {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(token)) return 122
  if (/^[0-9a-f]+$/i.test(token)) return 4 * token.length
  if (/^[A-Za-z0-9_-]+$/.test(token)) return 6 * token.length
  return Math.log2(94) * token.length
}

/** Signs in through the credentials callback with an explicit Cookie header (no jar). */
async function signInWith(app: Express, username: string, extraCookie?: string) {
  const csrf = await csrfPair(app)
  const password = username === "alice" ? "correct-horse" : "battery-staple"
  return post(app, "/auth/callback/credentials", extraCookie ? `${csrf.cookie}; ${extraCookie}` : csrf.cookie)
    .type("form")
    .send({ csrfToken: csrf.token, username, password })
}

describe.each(ENGINE_NAMES)("database session security on %s", (name) => {
  const db = engine(name, "dsec")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())
  beforeEach(() => db.reset())
  afterEach(() => {
    jest.restoreAllMocks()
  })

  function setup(overrides: Partial<AuthConfig> = {}) {
    const adapter = spyAdapter(db.adapter())
    const logger = { error: jest.fn<(error: Error) => void>() }
    const signOut = jest.fn<(message: unknown) => void>()
    const app = makeApp(testConfig({ adapter, logger, events: { signOut }, ...overrides }))
    return { app, adapter, logger, signOut }
  }

  async function aliceToken(app: Express): Promise<string> {
    const response = await signInAs(agentFor(app), "alice")
    expect(response.status).toBe(302)
    return sessionValue(response) as string
  }

  const JUNK: Array<[string, string]> = [
    ["a random UUID", randomUUID()],
    ["64 random hex characters", randomBytes(32).toString("hex")],
    ["' OR '1'='1", "' OR '1'='1"],
    ["'OR'1'='1 (no spaces: reaches the query)", "'OR'1'='1"],
    ["%", "%"],
    ["_", "_"],
    ["\\", "\\"],
    ["\\\\", "\\\\"],
    ["NUL (%00)", "%00"],
    ["a NUL inside (a%00b)", "a%00b"],
    ["10 kB", "a".repeat(10_240)],
  ]

  it.each(JUNK)("SESS-10 a/c: %s reads as signed out, no 5xx, no new row, nothing logged", async (_label, value) => {
    const { app, logger, adapter } = setup()
    await aliceToken(app)
    const before = await db.counts()
    await expectSignedOut(app, `${SESSION}=${value}`)
    expect(await db.counts()).toEqual(before)
    expect(adapter.createSession).toHaveBeenCalledTimes(1)
    expect(logger.error).not.toHaveBeenCalled()
  })

  it("SESS-10 b/d: the row id, the user id, the token upper-cased or with a trailing space are no sessions", async () => {
    const { app, logger } = setup()
    const token = await aliceToken(app)
    expect(await userOf(app, token)).toBe("Alice")
    expect(token.toUpperCase()).not.toBe(token)
    const row = await db.session(token)
    const before = await db.counts()
    const lookalikes = [...(row?.id ? [row.id] : []), "user-alice", token.toUpperCase(), `${token}%20`, `${token.toUpperCase()}%20`]
    if (name !== "memory") expect(lookalikes).toHaveLength(5)
    for (const value of lookalikes) await expectSignedOut(app, `${SESSION}=${value}`)
    // The comparison itself is exact on every engine, not only the cookie filter in front of it.
    for (const value of [token.toUpperCase(), `${token} `, ` ${token}`]) expect(await db.adapter().getSessionAndUser!(value)).toBeNull()
    expect(await db.counts()).toEqual(before)
    expect(await userOf(app, token)).toBe("Alice")
    expect(logger.error).not.toHaveBeenCalled()
  })

  it("SESS-10 e: 200 sign-ins give 200 distinct long tokens, each its row's token, none a row id", async () => {
    const { app } = setup()
    const csrf = await csrfPair(app)
    const tokens: string[] = []
    for (let i = 0; i < 200; i++) {
      const response = await post(app, "/auth/callback/credentials", csrf.cookie)
        .type("form")
        .send({ csrfToken: csrf.token, username: i % 2 ? "bob" : "alice", password: i % 2 ? "battery-staple" : "correct-horse" })
      expect(response.status).toBe(302)
      tokens.push(sessionValue(response) as string)
    }
    expect(new Set(tokens).size).toBe(200)
    for (const token of tokens) expect(token.replace(/-/g, "").length).toBeGreaterThanOrEqual(32)
    const rows = await db.sessions()
    expect(rows).toHaveLength(200)
    expect(new Set(rows.map((row) => row.sessionToken))).toEqual(new Set(tokens))
    const ids = new Set(rows.map((row) => row.id))
    expect(tokens.filter((token) => ids.has(token))).toEqual([])
  })

  it("FIX-01 a: a planted token is replaced on sign-in and never stored", async () => {
    const { app, adapter } = setup()
    const planted = randomBytes(32).toString("hex")
    const response = await signInWith(app, "alice", `${SESSION}=${planted}`)
    expect(response.status).toBe(302)
    const token = sessionValue(response)
    expect(token).toEqual(expect.any(String))
    expect(token).not.toBe(planted)
    expect(await db.session(planted)).toBeNull()
    expect(adapter.createSession).not.toHaveBeenCalledWith(expect.objectContaining({ sessionToken: planted }))
    expect(await userOf(app, token!)).toBe("Alice")
  })

  it("FIX-01 c: re-authentication as the same user deletes the old row; the old cookie is signed out", async () => {
    const { app } = setup()
    const agent = agentFor(app)
    const first = sessionValue(await signInAs(agent, "alice")) as string
    const second = sessionValue(await signInAs(agent, "alice")) as string
    expect(second).toEqual(expect.any(String))
    expect(second).not.toBe(first)
    expect(await db.session(first)).toBeNull()
    expect((await db.session(second))?.userId).toBe("user-alice")
    expect((await db.counts()).sessions).toBe(1)
    await expectSignedOut(app, `${SESSION}=${first}`)
    expect(await userOf(app, second)).toBe("Alice")
  })

  it("FIX-01 b: alice signing in with bob's session cookie leaves bob's row mapping to bob only", async () => {
    const { app } = setup()
    const bob = sessionValue(await signInAs(agentFor(app), "bob")) as string
    const response = await signInWith(app, "alice", `${SESSION}=${bob}`)
    const alice = sessionValue(response) as string
    expect(alice).toEqual(expect.any(String))
    expect(alice).not.toBe(bob)
    expect((await db.session(bob))?.userId).toBe("user-bob")
    expect((await db.session(alice))?.userId).toBe("user-alice")
    expect(await userOf(app, bob)).toBe("Bob")
    expect(await userOf(app, alice)).toBe("Alice")
    const accounts = (await db.accounts()).map((a) => [a.providerAccountId, a.userId]).sort()
    expect(accounts).toEqual([["user-alice", "user-alice"], ["user-bob", "user-bob"]])
  })

  it("SESS-08: a JWE from a cookie-strategy app is no database session, and a database token is no JWE", async () => {
    const { app } = setup()
    const cookieApp = makeApp(testConfig())
    const jwe = sessionValue(await signInAs(agentFor(cookieApp), "alice")) as string
    expect(await userOf(cookieApp, jwe)).toBe("Alice")
    const token = await aliceToken(app)
    expect(await userOf(app, token)).toBe("Alice")
    const before = await db.counts()
    await expectSignedOut(app, `${SESSION}=${jwe}`)
    await expectSignedOut(cookieApp, `${SESSION}=${token}`)
    expect(await db.counts()).toEqual(before)
  })

  it("SESS-10 g: a session row whose user was deleted reads as signed out, not a 5xx", async () => {
    const { app, logger } = setup()
    const token = await aliceToken(app)
    await db.deleteUserRowOnly("user-alice")
    expect((await db.session(token))?.userId).toBe("user-alice")
    expect((await db.counts()).users).toBe(0)
    await expectSignedOut(app, `${SESSION}=${token}`)
    expect(logger.error).not.toHaveBeenCalled()
  })

  it("FIX-02: after sign-out a copy of the cookie is signed out and the row gone; signOut fired once", async () => {
    const { app, signOut } = setup()
    const agent = agentFor(app)
    const copy = sessionValue(await signInAs(agent, "alice")) as string
    const out = await agent.post("/auth/signout").type("form").send({ csrfToken: await csrfToken(agent) })
    expect(out.status).toBe(302)
    expect(await db.session(copy)).toBeNull()
    await expectSignedOut(app, `${SESSION}=${copy}`)
    expect(signOut).toHaveBeenCalledTimes(1)
    expect(signOut).toHaveBeenCalledWith({ session: expect.objectContaining({ sessionToken: copy, userId: "user-alice" }) })
  })

  it("FIX-02: sign-out with a bogus or a broken session cookie redirects, clears it, changes no row", async () => {
    const { app } = setup()
    await aliceToken(app)
    const before = await db.counts()
    for (const value of [randomUUID(), "%00", "x".repeat(600)]) {
      const csrf = await csrfPair(app)
      const out = await post(app, "/auth/signout", `${csrf.cookie}; ${SESSION}=${value}`)
        .type("form")
        .send({ csrfToken: csrf.token, callbackUrl: "/bye" })
      expect([out.status, out.headers.location]).toEqual([302, `${ORIGIN}/bye`])
      expect(isCleared(findCookie(out, SESSION))).toBe(true)
    }
    expect(await db.counts()).toEqual(before)
  })

  it("CSRF-01 (4): a sign-out without the CSRF token keeps the row and the session", async () => {
    const { app, signOut } = setup()
    const agent = agentFor(app)
    const token = sessionValue(await signInAs(agent, "alice")) as string
    await csrfToken(agent)
    const variants = [
      () => agent.post("/auth/signout").type("form").send({ callbackUrl: "/bye" }),
      () => post(app, "/auth/signout", `${SESSION}=${token}`).type("form").send({}),
      () =>
        agent
          .post("/auth/signout")
          .set({ Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate" })
          .type("form")
          .send({}),
    ]
    for (const send of variants) {
      const refused = await send()
      expect(refused.status).toBe(302)
      expect(refused.headers.location).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`)
      expect(findCookie(refused, SESSION)).toBeUndefined()
    }
    const json = await agent.post("/auth/signout").set("Accept", "application/json").send({})
    expect([json.status, json.body.error?.type]).toEqual([403, "MissingCSRF"])
    expect((await db.session(token))?.userId).toBe("user-alice")
    expect(await userOf(app, token)).toBe("Alice")
    expect(signOut).not.toHaveBeenCalled()
  })
})

describe("database session token quality (ASVS V7.2.3, engine-independent)", () => {
  it("the default generateSessionToken gives at least 128 bits of entropy", async () => {
    const app = makeApp(testConfig({ adapter: MemoryAdapter() }))
    for (let i = 0; i < 10; i++) {
      const token = sessionValue(await signInAs(agentFor(app), "alice")) as string
      expect(token).toEqual(expect.any(String))
      expect(entropyBits(token)).toBeGreaterThanOrEqual(128)
    }
  })
})
