/**
 * Events: what each receives, and that a failing one is logged without changing the outcome.
 */
import { jest } from "@jest/globals"
import { USERS, csrfToken, findCookie, isCleared, makeApp, testConfig } from "../helpers/app.js"
import { ORIGIN, SESSION_COOKIE, agentFor, cookieHeader, openSession, sessionValue, signedIn, spyLogger } from "./support.js"

const { password: _password, ...ALICE } = USERS.alice!

describe("signIn event", () => {
  test("receives the user authorize returned and the credentials account", async () => {
    const signIn = jest.fn<(message: unknown) => void>()
    await signedIn(agentFor(makeApp(testConfig({ events: { signIn } }))))
    expect(signIn).toHaveBeenCalledTimes(1)
    expect(signIn).toHaveBeenCalledWith(
      expect.objectContaining({ user: ALICE, account: { type: "credentials", provider: "credentials", providerAccountId: "user-alice" } }),
    )
  })

  test("does not fire when the sign-in fails", async () => {
    const signIn = jest.fn<(message: unknown) => void>()
    const agent = agentFor(makeApp(testConfig({ events: { signIn } })))
    const token = await csrfToken(agent)
    await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username: "alice", password: "nope" }).expect(302)
    expect(signIn).not.toHaveBeenCalled()
  })
})

describe("signOut event", () => {
  test("receives {token} with the decoded session payload", async () => {
    const signOut = jest.fn<(message: unknown) => void>()
    const agent = agentFor(makeApp(testConfig({ events: { signOut } })))
    const signIn = await signedIn(agent)
    const payload = await openSession(sessionValue(signIn))
    await agent.post("/auth/signout").type("form").send({ csrfToken: await csrfToken(agent) }).expect(302)
    expect(signOut).toHaveBeenCalledWith({ token: payload })
  })

  test("receives {token: null} when the session cookie is garbage, and the cookie is cleared", async () => {
    const signOut = jest.fn<(message: unknown) => void>()
    const agent = agentFor(makeApp(testConfig({ events: { signOut } })))
    const token = await csrfToken(agent)
    const response = await agent
      .post("/auth/signout")
      .set("Cookie", cookieHeader({ [SESSION_COOKIE]: "not-a-jwe" }))
      .type("form")
      .send({ csrfToken: token })
      .expect(302)
    expect(signOut).toHaveBeenCalledWith({ token: null })
    expect(isCleared(findCookie(response, SESSION_COOKIE))).toBe(true)
  })
})

describe("session event", () => {
  test("fires on GET session with the session returned and the token", async () => {
    const session = jest.fn<(message: unknown) => void>()
    const agent = agentFor(makeApp(testConfig({ events: { session } })))
    await signedIn(agent)
    const response = await agent.get("/auth/session").expect(200)
    expect(session).toHaveBeenCalledWith({ session: response.body, token: expect.objectContaining({ sub: "user-alice" }) })
  })

  test("does not fire when signed out", async () => {
    const session = jest.fn<(message: unknown) => void>()
    await agentFor(makeApp(testConfig({ events: { session } }))).get("/auth/session").expect(200)
    expect(session).not.toHaveBeenCalled()
  })
})

describe("failing events are logged and never change the outcome", () => {
  test("a signIn event that throws synchronously", async () => {
    const logger = spyLogger()
    const failure = new Error("audit log down")
    const signIn = () => {
      throw failure
    }
    const agent = agentFor(makeApp(testConfig({ logger, events: { signIn } })))
    const response = await signedIn(agent, "alice", { callbackUrl: "/home" })
    expect(response.headers.location).toBe(`${ORIGIN}/home`)
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: "EventError", cause: expect.objectContaining({ err: failure }) }))
    expect((await agent.get("/auth/session")).body.user.name).toBe("Alice")
  })

  test("a signOut event whose promise rejects", async () => {
    const logger = spyLogger()
    const failure = new Error("audit log rejected")
    const signOut = () => Promise.reject(failure)
    const agent = agentFor(makeApp(testConfig({ logger, events: { signOut } })))
    await signedIn(agent)
    const response = await agent.post("/auth/signout").type("form").send({ csrfToken: await csrfToken(agent), callbackUrl: "/bye" })
    expect(response.status).toBe(302)
    expect(response.headers.location).toBe(`${ORIGIN}/bye`)
    expect(isCleared(findCookie(response, SESSION_COOKIE))).toBe(true)
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: "EventError", cause: expect.objectContaining({ err: failure }) }))
  })

  test("a session event whose promise rejects", async () => {
    const logger = spyLogger()
    const failure = new Error("metrics down")
    const agent = agentFor(makeApp(testConfig({ logger, events: { session: async () => Promise.reject(failure) } })))
    await signedIn(agent)
    const response = await agent.get("/auth/session").expect(200)
    expect(response.body.user.name).toBe("Alice")
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: "EventError", cause: expect.objectContaining({ err: failure }) }))
  })
})
