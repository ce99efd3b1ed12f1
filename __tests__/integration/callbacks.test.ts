/**
 * The callbacks table of the README: redirect, jwt and session, as seen over HTTP.
 */
import { jest } from "@jest/globals"
import type { JWT, JwtCallbackParams, SessionCallbackParams } from "../../lib/types.js"
import { USERS, findCookie, isCleared, makeApp, signInAs, testConfig } from "../helpers/app.js"
import { ORIGIN, SESSION_COOKIE, agentFor, localPath, openSession, sessionCookies, sessionValue, signedIn, spyLogger } from "./support.js"

const { password: _password, ...ALICE } = USERS.alice!

describe("redirect callback", () => {
  test.each([
    ["/dashboard", "/dashboard"],
    ["/dashboard?tab=2#top", "/dashboard?tab=2"],
    [`${ORIGIN}/reports?y=2024`, "/reports?y=2024"],
    ["https://evil.example/steal", "/"],
    ["//evil.example/steal", "/"],
    ["javascript:alert(1)", "/"],
  ])("default: callbackUrl %s lands on %s of the site", async (callbackUrl, expected) => {
    const agent = agentFor(makeApp(testConfig()))
    const response = await signedIn(agent, "alice", { callbackUrl })
    expect(localPath(response.headers.location)).toBe(expected)
  })

  test("a custom redirect callback decides, and receives url and the site origin as baseUrl", async () => {
    const redirect = jest.fn(() => "https://partner.example/landing")
    const agent = agentFor(makeApp(testConfig({ callbacks: { redirect } })))
    const response = await signedIn(agent, "alice", { callbackUrl: "/dashboard" })
    expect(response.headers.location).toBe("https://partner.example/landing")
    expect(redirect).toHaveBeenCalledWith({ url: "/dashboard", baseUrl: ORIGIN })
  })

  test("a redirect callback returning javascript:alert(1) sends the user to the origin", async () => {
    const agent = agentFor(makeApp(testConfig({ callbacks: { redirect: () => "javascript:alert(1)" } })))
    const response = await signedIn(agent)
    expect(localPath(response.headers.location)).toBe("/")
  })

  test("a redirect callback that throws sends the user to the origin and is logged", async () => {
    const logger = spyLogger()
    const config = testConfig({
      logger,
      callbacks: {
        redirect: () => {
          throw new Error("redirect exploded")
        },
      },
    })
    const response = await signedIn(agentFor(makeApp(config)))
    expect(localPath(response.headers.location)).toBe("/")
    expect(logger.error).toHaveBeenCalled()
  })
})

describe("jwt callback", () => {
  test("at sign-in receives a token with only name, email, picture, sub and the sign-in facts (amr, authTime: issue #16), plus user and credentials account", async () => {
    const jwt = jest.fn(({ token }: JwtCallbackParams) => token)
    await signedIn(agentFor(makeApp(testConfig({ callbacks: { jwt } }))))
    expect(jwt).toHaveBeenCalledTimes(1)
    const params = jwt.mock.calls[0]![0]
    expect(params.trigger).toBe("signIn")
    expect(params.token).toEqual({ name: "Alice", email: "alice@example.com", picture: "https://img.example/alice.png", sub: "user-alice", amr: ["pwd"], authTime: expect.any(Number) })
    expect(Object.keys(params.token).sort()).toEqual(["amr", "authTime", "email", "name", "picture", "sub"])
    expect(params.user).toEqual(ALICE)
    expect(params.account).toEqual({ type: "credentials", provider: "credentials", providerAccountId: "user-alice" })
  })

  test("returning null at sign-in starts no session", async () => {
    const agent = agentFor(makeApp(testConfig({ callbacks: { jwt: ({ trigger, token }) => (trigger === "signIn" ? null : token) } })))
    const response = await signInAs(agent, "alice")
    expect(response.status).toBe(302)
    expect(sessionCookies(response).filter((cookie) => cookie.value !== "")).toEqual([])
    expect((await agent.get("/auth/session")).text).toBe("null")
  })

  test("changing the token on a read writes a new cookie with the change", async () => {
    const jwt = ({ token, trigger }: JwtCallbackParams): JWT => (trigger ? token : { ...token, reads: Number(token.reads ?? 0) + 1 })
    const agent = agentFor(makeApp(testConfig({ callbacks: { jwt } })))
    await signedIn(agent)
    const response = await agent.get("/auth/session").expect(200)
    expect((await openSession(sessionValue(response)))?.reads).toBe(1)
    const again = await agent.get("/auth/session").expect(200)
    expect((await openSession(sessionValue(again)))?.reads).toBe(2)
  })

  test("returning null on a read ends the session and clears the cookie", async () => {
    let end = false
    const agent = agentFor(makeApp(testConfig({ callbacks: { jwt: ({ token }) => (end ? null : token) } })))
    await signedIn(agent)
    end = true
    const response = await agent.get("/auth/session").expect(200)
    expect(response.text).toBe("null")
    expect(isCleared(findCookie(response, SESSION_COOKIE))).toBe(true)
  })

  test("returning the token unchanged on a read writes no cookie", async () => {
    const agent = agentFor(makeApp(testConfig({ callbacks: { jwt: ({ token }) => token } })))
    await signedIn(agent)
    const response = await agent.get("/auth/session").expect(200)
    expect(response.body.user.name).toBe("Alice")
    expect(sessionCookies(response)).toEqual([])
  })

  test("throwing on a read makes that request signed out (200 null), logged, never a 500", async () => {
    const logger = spyLogger()
    let fail = false
    const jwt = ({ token }: JwtCallbackParams) => {
      if (fail) throw new Error("jwt exploded")
      return token
    }
    const agent = agentFor(makeApp(testConfig({ logger, callbacks: { jwt } })))
    await signedIn(agent)
    fail = true
    const response = await agent.get("/auth/session").expect(200)
    expect(response.text).toBe("null")
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: "JWTSessionError" }))
  })
  test("throwing on a read makes requireAuth treat the request as signed out (401, not 500)", async () => {
    let fail = false
    const jwt = ({ token }: JwtCallbackParams) => {
      if (fail) throw new Error("jwt exploded")
      return token
    }
    const agent = agentFor(makeApp(testConfig({ callbacks: { jwt } })))
    await signedIn(agent)
    await agent.get("/api/me").expect(200)
    fail = true
    const response = await agent.get("/api/me").expect(401)
    expect(response.body.error.type).toBe("SessionRequired")
  })
})

describe("session callback", () => {
  test("by default exposes only name, email and image, whatever the token holds", async () => {
    const jwt = ({ token, trigger }: JwtCallbackParams) => (trigger === "signIn" ? { ...token, role: "admin", secretNote: "x" } : token)
    const agent = agentFor(makeApp(testConfig({ callbacks: { jwt } })))
    const signIn = await signedIn(agent)
    expect((await openSession(sessionValue(signIn)))?.role).toBe("admin")
    const response = await agent.get("/auth/session").expect(200)
    // Issue #16 adds how and when the user signed in (amr, authTime); nothing of the token's own claims.
    expect(Object.keys(response.body).sort()).toEqual(["amr", "authTime", "expires", "user"])
    expect(Object.keys(response.body.user).sort()).toEqual(["email", "image", "name"])
    expect(response.text).not.toContain("admin")
    expect(response.text).not.toContain("user-alice")
  })

  test("a custom session callback can add fields from the token", async () => {
    const session = jest.fn(({ session, token }: SessionCallbackParams) => ({ ...session, role: "admin", user: { ...session.user, id: token.sub } }))
    const agent = agentFor(makeApp(testConfig({ callbacks: { session } })))
    await signedIn(agent)
    const response = await agent.get("/auth/session").expect(200)
    expect(response.body).toMatchObject({ role: "admin", user: { id: "user-alice", name: "Alice" } })
    expect(session).toHaveBeenCalledWith(expect.objectContaining({ token: expect.objectContaining({ sub: "user-alice" }) }))
  })

  test("throwing on a read makes that request signed out (200 null), logged, never a 500", async () => {
    const logger = spyLogger()
    const session = () => {
      throw new Error("session exploded")
    }
    const agent = agentFor(makeApp(testConfig({ logger, callbacks: { session } })))
    await signedIn(agent)
    const response = await agent.get("/auth/session").expect(200)
    expect(response.text).toBe("null")
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: "SessionTokenError" }))
  })
})
