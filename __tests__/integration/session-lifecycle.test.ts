/**
 * The spec's "States and transitions" rows for the cookie strategy, one test (or small group) per row.
 */
import { jest } from "@jest/globals"
import type { JwtCallbackParams } from "../../lib/types.js"
import { csrfToken, findCookie, isCleared, makeApp, request, signInAs, testConfig } from "../helpers/app.js"
import {
  ALICE_TOKEN,
  ORIGIN,
  SESSION_COOKIE,
  agentFor,
  cookieHeader,
  csrfPair,
  localPath,
  mintSession,
  openSession,
  sessionCookies,
  sessionValue,
  signedIn,
  spyLogger,
} from "./support.js"

const DAY = 24 * 60 * 60

afterEach(() => jest.restoreAllMocks())

describe("no session -> sign-in completes -> session active", () => {
  test("sets the session cookie, runs jwt with trigger signIn and fires the signIn event", async () => {
    const jwt = jest.fn(({ token }: JwtCallbackParams) => token)
    const signIn = jest.fn<(message: unknown) => void>()
    const agent = agentFor(makeApp(testConfig({ callbacks: { jwt }, events: { signIn } })))
    const response = await signedIn(agent, "alice", { callbackUrl: "/home" })
    expect(response.headers.location).toBe(`${ORIGIN}/home`)
    const cookie = findCookie(response, SESSION_COOKIE)
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/" })
    expect(await openSession(cookie?.value)).toMatchObject(ALICE_TOKEN)
    expect(jwt).toHaveBeenCalledWith(expect.objectContaining({ trigger: "signIn" }))
    expect(signIn).toHaveBeenCalledTimes(1)
    expect((await agent.get("/auth/session")).body.user.email).toBe("alice@example.com")
  })
})

describe("sign-in starts a fresh session and rotates the CSRF token", () => {
  test("a session cookie the browser brought is never reused", async () => {
    const planted = await mintSession({ ...ALICE_TOKEN, jti: "attacker-chosen" })
    const app = makeApp(testConfig())
    const csrf = await csrfPair(app)
    const response = await request(app)
      .post("/auth/callback/credentials")
      .set("Host", "app.test")
      .set("Cookie", `${csrf.cookie}; ${SESSION_COOKIE}=${planted}`)
      .type("form")
      .send({ csrfToken: csrf.token, username: "alice", password: "correct-horse" })
      .expect(302)
    const fresh = await openSession(sessionValue(response))
    expect(fresh?.sub).toBe("user-alice")
    expect(fresh?.jti).not.toBe("attacker-chosen")
    // The new session has an id of its own (issue #14: `sid` identifies the session, in place of `jti`).
    expect(fresh?.sid).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]{24}$/))
  })

  test("the CSRF token obtained before sign-in no longer passes afterwards", async () => {
    const agent = agentFor(makeApp(testConfig()))
    const before = await csrfToken(agent)
    const response = await signedIn(agent)
    expect(findCookie(response, "authjs.csrf-token")?.value).not.toMatch(new RegExp(`^${before}\\|`))
    const stale = await agent.post("/auth/signout").type("form").send({ csrfToken: before })
    expect(stale.status).toBe(302)
    expect(localPath(stale.headers.location)).toMatch(/^\/auth\/signin\?error=MissingCSRF/)
    expect((await agent.get("/auth/session")).body.user.name).toBe("Alice")
    expect(await csrfToken(agent)).not.toBe(before)
  })
})

describe("no session -> sign-in attempt refused by the signIn callback -> no session", () => {
  test("signIn returning false redirects to /auth/error?error=AccessDenied without a session cookie", async () => {
    const agent = agentFor(makeApp(testConfig({ callbacks: { signIn: () => false } })))
    const response = await signInAs(agent, "alice")
    expect(response.status).toBe(302)
    expect(localPath(response.headers.location)).toBe("/auth/error?error=AccessDenied")
    expect(sessionCookies(response).filter((cookie) => cookie.value !== "")).toEqual([])
    expect((await agent.get("/auth/session")).text).toBe("null")
  })

  test("signIn throwing becomes AccessDenied carrying the original message", async () => {
    const logger = spyLogger()
    const config = testConfig({
      logger,
      callbacks: {
        signIn: () => {
          throw new Error("banned user")
        },
      },
    })
    const agent = agentFor(makeApp(config))
    const response = await signInAs(agent, "alice")
    expect(localPath(response.headers.location)).toBe("/auth/error?error=AccessDenied")
    expect(sessionCookies(response).filter((cookie) => cookie.value !== "")).toEqual([])
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: "AccessDenied", message: "banned user" }))
  })

  test("signIn returning a string redirects there and starts no session", async () => {
    const agent = agentFor(makeApp(testConfig({ callbacks: { signIn: () => "/welcome" } })))
    const response = await signInAs(agent, "alice")
    expect(response.status).toBe(302)
    expect(response.headers.location).toBe(`${ORIGIN}/welcome`)
    // Spec, States and transitions: "signIn callback returns a string | no session".
    expect(sessionCookies(response).filter((cookie) => cookie.value !== "")).toEqual([])
    expect((await agent.get("/auth/session")).text).toBe("null")
  })

  test("a string from signIn on another origin goes through the redirect rules (to the origin)", async () => {
    const agent = agentFor(makeApp(testConfig({ callbacks: { signIn: () => "https://evil.example/x" } })))
    const response = await signInAs(agent, "alice")
    expect(response.headers.location).toBe(`${ORIGIN}/`)
  })
})

describe("session active -> accessed before expires -> extended at most once per updateAge", () => {
  test("with updateAge 0 every read sets a fresh cookie", async () => {
    const agent = agentFor(makeApp(testConfig({ session: { updateAge: 0 } })))
    await signedIn(agent)
    for (let i = 0; i < 2; i++) {
      const response = await agent.get("/auth/session").expect(200)
      expect(sessionValue(response)).toBeDefined()
    }
  })

  test("with the default updateAge a read right after sign-in sets no cookie", async () => {
    const agent = agentFor(makeApp(testConfig()))
    await signedIn(agent)
    const response = await agent.get("/auth/session").expect(200)
    expect(response.body.user.name).toBe("Alice")
    expect(sessionCookies(response)).toEqual([])
  })

  test("a token written more than updateAge ago is re-sealed with a later expiry, once", async () => {
    const app = makeApp(testConfig())
    const twoDaysAgo = Date.now() - 2 * DAY * 1000
    const old = await mintSession(ALICE_TOKEN, { issuedAt: twoDaysAgo })
    const oldPayload = await openSession(old)
    const first = await request(app).get("/auth/session").set("Host", "app.test").set("Cookie", cookieHeader({ [SESSION_COOKIE]: old })).expect(200)
    const fresh = sessionValue(first)
    expect(fresh).toBeDefined()
    const payload = await openSession(fresh)
    expect(payload?.iat).toBeGreaterThan(oldPayload!.iat!)
    expect(payload?.exp).toBeGreaterThan(oldPayload!.exp!)
    expect(payload?.jti).toBe(oldPayload?.jti)
    expect(Date.parse(first.body.expires) / 1000).toBe(payload?.exp)
    const second = await request(app).get("/auth/session").set("Host", "app.test").set("Cookie", cookieHeader({ [SESSION_COOKIE]: fresh! })).expect(200)
    expect(sessionCookies(second)).toEqual([])
  })

  test("a token written less than updateAge ago keeps its expiry", async () => {
    const old = await mintSession(ALICE_TOKEN, { issuedAt: Date.now() - 3600 * 1000 })
    const oldPayload = await openSession(old)
    const response = await request(makeApp(testConfig()))
      .get("/auth/session")
      .set("Host", "app.test")
      .set("Cookie", cookieHeader({ [SESSION_COOKIE]: old }))
      .expect(200)
    expect(sessionCookies(response)).toEqual([])
    expect(Date.parse(response.body.expires) / 1000).toBe(oldPayload?.exp)
  })

  test("an absolute maxAge (a Date) never moves, whatever the activity, and ends the session then", async () => {
    const end = new Date(Math.floor(Date.now() / 1000 + 10 * DAY) * 1000)
    const app = makeApp(testConfig({ session: { maxAge: end, updateAge: 0 } }))
    const signIn = await signedIn(agentFor(app))
    const cookie = findCookie(signIn, SESSION_COOKIE)!
    expect(cookie.expires?.getTime()).toBe(end.getTime())
    const read = (at: number) => {
      jest.spyOn(Date, "now").mockReturnValue(at)
      return request(app).get("/auth/session").set("Host", "app.test").set("Cookie", cookieHeader({ [SESSION_COOKIE]: cookie.value ?? "" }))
    }
    const later = await read(Date.now() + 2 * DAY * 1000)
    expect(later.status).toBe(200)
    expect(later.body.expires).toBe(end.toISOString())
    expect(sessionCookies(later)).toEqual([])
    const after = await read(end.getTime() + 60 * 1000)
    expect(after.text).toBe("null")
    expect(isCleared(findCookie(after, SESSION_COOKIE))).toBe(true)
  })
})

describe("session active -> session POST (update) -> session active", () => {
  test("jwt runs with trigger update and the client data as session", async () => {
    const jwt = jest.fn(({ token, trigger, session }: JwtCallbackParams) => (trigger === "update" ? { ...token, theme: (session as { theme: string }).theme } : token))
    const agent = agentFor(makeApp(testConfig({ callbacks: { jwt } })))
    await signedIn(agent)
    const response = await agent.post("/auth/session").send({ csrfToken: await csrfToken(agent), data: { theme: "dark" } }).expect(200)
    expect(jwt).toHaveBeenLastCalledWith(expect.objectContaining({ trigger: "update", session: { theme: "dark" } }))
    expect(response.body.user.name).toBe("Alice")
    expect((await openSession(sessionValue(response)))?.theme).toBe("dark")
  })
})

describe("session active -> sign-out POST -> ended", () => {
  test("the cookie is deleted and the signOut event fires", async () => {
    const signOut = jest.fn<(message: unknown) => void>()
    const agent = agentFor(makeApp(testConfig({ events: { signOut } })))
    await signedIn(agent)
    const response = await agent.post("/auth/signout").type("form").send({ csrfToken: await csrfToken(agent) }).expect(302)
    expect(response.headers.location).toBe(`${ORIGIN}/`)
    expect(isCleared(findCookie(response, SESSION_COOKIE))).toBe(true)
    expect(signOut).toHaveBeenCalledTimes(1)
    expect((await agent.get("/auth/session")).text).toBe("null")
  })
})
