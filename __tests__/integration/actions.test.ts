/**
 * Every action of the router over HTTP, as a browser or a client library would call it.
 */
import { jest } from "@jest/globals"
import { skipCSRFCheck } from "../../lib/core/symbols.js"
import type { JwtCallbackParams, SessionCallbackParams } from "../../lib/types.js"
import { credentials, csrfToken, findCookie, isCleared, makeApp, testConfig } from "../helpers/app.js"
import { CSRF_COOKIE, ORIGIN, SESSION_COOKIE, agentFor, openSession, sessionCookies, sessionValue, setCookieLines, signedIn } from "./support.js"

describe("GET csrf", () => {
  test("returns a 64-hex token and sets the token|hash cookie", async () => {
    const agent = agentFor(makeApp(testConfig()))
    const response = await agent.get("/auth/csrf").expect(200).expect("Content-Type", /application\/json/)
    expect(Object.keys(response.body)).toEqual(["csrfToken"])
    expect(response.body.csrfToken).toMatch(/^[0-9a-f]{64}$/)
    const line = setCookieLines(response).find((l) => l.startsWith(`${CSRF_COOKIE}=`))
    expect(line).toMatch(new RegExp(`^${CSRF_COOKIE}=${response.body.csrfToken}%7C[0-9a-f]{64};`))
    expect(line).toMatch(/HttpOnly/i)
    expect(line).toMatch(/SameSite=Lax/i)
    expect(line).toMatch(/Path=\//)
  })

  test("returns the same token on a second call that carries the cookie", async () => {
    const agent = agentFor(makeApp(testConfig()))
    const first = await csrfToken(agent)
    const second = await agent.get("/auth/csrf").expect(200)
    expect(second.body.csrfToken).toBe(first)
    expect(findCookie(second, CSRF_COOKIE)).toBeUndefined()
  })

  test("answers 404 when CSRF protection is disabled with the skipCSRFCheck marker", async () => {
    const agent = agentFor(makeApp(testConfig({ skipCSRFCheck })))
    const response = await agent.get("/auth/csrf").expect(404)
    expect(response.body.error.type).toBe("UnknownAction")
    expect(findCookie(response, CSRF_COOKIE)).toBeUndefined()
  })
})

describe("GET providers", () => {
  test("lists {id, name, type, signinUrl, callbackUrl} only, in configuration order, with absolute URLs", async () => {
    const otp = credentials({ id: "otp", name: "One-time code", credentials: { code: { label: "Code" } } })
    const agent = agentFor(makeApp(testConfig({ providers: [credentials(), otp] })))
    const response = await agent.get("/auth/providers").expect(200).expect("Content-Type", /application\/json/)
    expect(response.body).toEqual([
      { id: "credentials", name: "Credentials", type: "credentials", signinUrl: `${ORIGIN}/auth/signin/credentials`, callbackUrl: `${ORIGIN}/auth/callback/credentials` },
      { id: "otp", name: "One-time code", type: "credentials", signinUrl: `${ORIGIN}/auth/signin/otp`, callbackUrl: `${ORIGIN}/auth/callback/otp` },
    ])
    for (const entry of response.body) expect(Object.keys(entry).sort()).toEqual(["callbackUrl", "id", "name", "signinUrl", "type"])
  })
})

describe("GET session", () => {
  test("is null when signed out", async () => {
    const response = await agentFor(makeApp(testConfig())).get("/auth/session").expect(200)
    expect(response.text).toBe("null")
  })

  test("returns only user.name/email/image, expires and how and when the user signed in (amr, authTime: issue #16)", async () => {
    const agent = agentFor(makeApp(testConfig()))
    await signedIn(agent)
    const response = await agent.get("/auth/session").expect(200)
    expect(Object.keys(response.body).sort()).toEqual(["amr", "authTime", "expires", "user"])
    expect(response.body.amr).toEqual(["pwd"])
    expect(response.body.user).toEqual({ name: "Alice", email: "alice@example.com", image: "https://img.example/alice.png" })
    expect(Object.keys(response.body.user).sort()).toEqual(["email", "image", "name"])
    expect(new Date(response.body.expires).toISOString()).toBe(response.body.expires)
  })
})

describe("POST session (update)", () => {
  function updateConfig() {
    const jwt = jest.fn(({ token, trigger, session }: JwtCallbackParams) =>
      trigger === "update" ? { ...token, nickname: (session as { nickname: string }).nickname } : token,
    )
    const session = jest.fn(({ session, token }: SessionCallbackParams) => ({ ...session, nickname: token.nickname }))
    return { jwt, session, config: testConfig({ callbacks: { jwt, session } }) }
  }

  test("runs jwt with trigger update and session with newSession, and returns the updated session", async () => {
    const { jwt, session, config } = updateConfig()
    const agent = agentFor(makeApp(config))
    await signedIn(agent)
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/session").send({ csrfToken: token, data: { nickname: "Al" } }).expect(200)
    expect(jwt).toHaveBeenCalledWith(expect.objectContaining({ trigger: "update", session: { nickname: "Al" } }))
    expect(session).toHaveBeenCalledWith(expect.objectContaining({ trigger: "update", newSession: { nickname: "Al" } }))
    expect(response.body).toMatchObject({ nickname: "Al", user: { name: "Alice" } })
    expect((await openSession(sessionValue(response)))?.nickname).toBe("Al")
    expect((await agent.get("/auth/session").expect(200)).body.nickname).toBe("Al")
  })

  test("without the CSRF token answers 403 MissingCSRF as JSON and changes nothing", async () => {
    const { jwt, config } = updateConfig()
    const agent = agentFor(makeApp(config))
    await signedIn(agent)
    const response = await agent.post("/auth/session").send({ data: { nickname: "Mallory" } }).expect(403)
    expect(response.headers["content-type"]).toMatch(/application\/json/)
    expect(response.body.error.type).toBe("MissingCSRF")
    expect(sessionCookies(response)).toEqual([])
    expect(jwt).not.toHaveBeenCalledWith(expect.objectContaining({ trigger: "update" }))
    const after = await agent.get("/auth/session").expect(200)
    expect(after.body.nickname).toBeUndefined()
  })
})

describe("sign-in and sign-out pages", () => {
  test("GET signin renders the credentials form", async () => {
    const response = await agentFor(makeApp(testConfig())).get("/auth/signin").expect(200).expect("Content-Type", /text\/html/)
    expect(response.text).toContain(`<form method="post" action="${ORIGIN}/auth/callback/credentials">`)
    expect(response.text).toMatch(/<input id="credentials-username" name="username" type="text"/)
    expect(response.text).toMatch(/<input id="credentials-password" name="password" type="password"/)
    expect(response.text).toMatch(/<input type="hidden" name="csrfToken" value="[0-9a-f]{64}">/)
  })

  test("POST signin/credentials sends the browser to the sign-in page", async () => {
    const agent = agentFor(makeApp(testConfig()))
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/signin/credentials").type("form").send({ csrfToken: token, callbackUrl: "/next" }).expect(302)
    const url = new URL(response.headers.location)
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/auth/signin`)
    expect(url.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/next`)
    expect(sessionCookies(response)).toEqual([])
  })

  test("GET signout shows a confirmation page and never signs out", async () => {
    const agent = agentFor(makeApp(testConfig()))
    await signedIn(agent)
    const response = await agent.get("/auth/signout").expect(200).expect("Content-Type", /text\/html/)
    expect(response.text).toContain(`<form method="post" action="${ORIGIN}/auth/signout">`)
    expect(sessionCookies(response)).toEqual([])
    expect((await agent.get("/auth/session")).body.user.name).toBe("Alice")
  })

  test("POST signout clears the session cookie, redirects to callbackUrl and fires signOut with the token", async () => {
    const signOut = jest.fn<(message: unknown) => void>()
    const agent = agentFor(makeApp(testConfig({ events: { signOut } })))
    await signedIn(agent)
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/signout").type("form").send({ csrfToken: token, callbackUrl: "/bye" }).expect(302)
    expect(response.headers.location).toBe(`${ORIGIN}/bye`)
    expect(isCleared(findCookie(response, SESSION_COOKIE))).toBe(true)
    expect(signOut).toHaveBeenCalledTimes(1)
    expect(signOut).toHaveBeenCalledWith({ token: expect.objectContaining({ sub: "user-alice", name: "Alice" }) })
    expect((await agent.get("/auth/session")).text).toBe("null")
  })

  test("POST signout clears every chunk of a chunked session", async () => {
    const agent = agentFor(makeApp(testConfig()))
    const token = await csrfToken(agent)
    const response = await agent
      .post("/auth/signout")
      .set("Cookie", `${SESSION_COOKIE}.0=aaa; ${SESSION_COOKIE}.1=bbb`)
      .type("form")
      .send({ csrfToken: token })
      .expect(302)
    expect(isCleared(findCookie(response, `${SESSION_COOKIE}.0`))).toBe(true)
    expect(isCleared(findCookie(response, `${SESSION_COOKIE}.1`))).toBe(true)
  })
})

describe("error and verify-request pages", () => {
  test.each([
    ["Configuration", 500],
    ["AccessDenied", 403],
    ["Verification", 403],
  ])("GET error?error=%s answers %i", async (error, status) => {
    const response = await agentFor(makeApp(testConfig())).get(`/auth/error?error=${error}`).expect(status)
    expect(response.headers["content-type"]).toMatch(/text\/html/)
  })

  test("GET error with an unknown value answers 200 with a generic message that does not echo it", async () => {
    const response = await agentFor(makeApp(testConfig())).get("/auth/error?error=Sneaky%3Cb%3Evalue").expect(200)
    expect(response.text).toContain("Something went wrong")
    expect(response.text).not.toContain("Sneaky")
  })

  test("GET verify-request renders the check-your-email page", async () => {
    const response = await agentFor(makeApp(testConfig())).get("/auth/verify-request").expect(200).expect("Content-Type", /text\/html/)
    expect(response.text).toContain("Check your email")
  })
})

describe("protocol errors", () => {
  test("GET callback/credentials answers 405 with Allow: POST", async () => {
    const response = await agentFor(makeApp(testConfig())).get("/auth/callback/credentials").expect(405)
    expect(response.headers.allow).toBe("POST")
    expect(response.body.error.type).toBe("MethodNotAllowed")
  })

  test("an unknown action answers 404 UnknownAction", async () => {
    const response = await agentFor(makeApp(testConfig())).get("/auth/nothing-here").expect(404)
    expect(response.body.error.type).toBe("UnknownAction")
  })

  test.each([
    ["get", "/auth/signin/nope"],
    ["post", "/auth/callback/nope"],
  ] as const)("%s %s answers 404 InvalidProvider", async (method, path) => {
    const response = await agentFor(makeApp(testConfig()))[method](path).expect(404)
    expect(response.body.error.type).toBe("InvalidProvider")
  })

  test.each([
    ["put", "/auth/session", "GET, HEAD, POST"],
    ["delete", "/auth/csrf", "GET, HEAD"],
    ["delete", "/auth/signout", "GET, HEAD, POST"],
  ] as const)("%s %s answers 405 with Allow: %s", async (method, path, allow) => {
    const response = await agentFor(makeApp(testConfig()))[method](path).expect(405)
    expect(response.headers.allow).toBe(allow)
    expect(response.body.error.type).toBe("MethodNotAllowed")
  })

  test.each(["/auth/signin", "/auth/signout", "/auth/verify-request", "/auth/providers", "/auth/session", "/auth/csrf"])(
    "HEAD %s answers 200",
    async (path) => {
      const response = await agentFor(makeApp(testConfig())).head(path)
      expect(response.status).toBe(200)
      expect(response.headers["cache-control"]).toBe("no-store")
      expect(response.text ?? "").toBe("")
    },
  )
})
