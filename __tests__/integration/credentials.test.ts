/**
 * The credentials provider over HTTP: what authorize receives, and every way it can refuse.
 */
import { jest } from "@jest/globals"
import { CredentialsSignin } from "../../lib/errors.js"
import type { User } from "../../lib/types.js"
import { credentials, csrfToken, makeApp, testConfig } from "../helpers/app.js"
import { ORIGIN, agentFor, localPath, sessionCookies, sessionValue, spyLogger } from "./support.js"

type Authorize = (fields: Partial<Record<string, string>>, request: Request) => Promise<User | null>

function appWith(authorize: Authorize, extra: Parameters<typeof testConfig>[0] = {}) {
  return makeApp(testConfig({ providers: [credentials({ authorize })], ...extra }))
}

async function post(app: ReturnType<typeof makeApp>, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const agent = agentFor(app)
  const token = await csrfToken(agent)
  return agent.post("/auth/callback/credentials").set(headers).type("form").send({ csrfToken: token, ...fields })
}

function refusal(location: string | undefined) {
  const url = new URL(localPath(location), ORIGIN)
  return { path: url.pathname, error: url.searchParams.get("error"), code: url.searchParams.get("code") }
}

describe("refusals", () => {
  test("authorize returning null sends the browser to /auth/signin?error=CredentialsSignin&code=credentials", async () => {
    const response = await post(appWith(async () => null), { username: "alice", password: "nope" })
    expect(response.status).toBe(302)
    expect(refusal(response.headers.location)).toEqual({ path: "/auth/signin", error: "CredentialsSignin", code: "credentials" })
    expect(sessionCookies(response)).toEqual([])
  })

  test("CredentialsSignin thrown with options {code} puts that code in the URL", async () => {
    const response = await post(
      appWith(async () => {
        throw new CredentialsSignin("locked", { code: "account_locked" })
      }),
      { username: "alice", password: "x" },
    )
    expect(refusal(response.headers.location)).toEqual({ path: "/auth/signin", error: "CredentialsSignin", code: "account_locked" })
  })

  test("a CredentialsSignin subclass with a code field puts that code in the URL", async () => {
    class InvalidOtp extends CredentialsSignin {
      override code = "invalid_otp"
    }
    const response = await post(
      appWith(async () => {
        throw new InvalidOtp()
      }),
      { username: "alice", password: "x" },
    )
    expect(refusal(response.headers.location)).toEqual({ path: "/auth/signin", error: "CredentialsSignin", code: "invalid_otp" })
  })

  test("a plain Error is shown as error=Configuration and logged in full", async () => {
    const logger = spyLogger()
    const failure = new Error("database unreachable")
    const response = await post(
      appWith(
        async () => {
          throw failure
        },
        { logger },
      ),
      { username: "alice", password: "x" },
    )
    expect(localPath(response.headers.location)).toBe("/auth/error?error=Configuration")
    expect(response.headers.location).not.toContain("database")
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ cause: expect.objectContaining({ err: failure }) }))
  })

  test("Accept: application/json gets 401 {error: {type: CredentialsSignin}}", async () => {
    const response = await post(appWith(async () => null), { username: "alice", password: "nope" }, { Accept: "application/json" })
    expect(response.status).toBe(401)
    expect(response.headers["content-type"]).toMatch(/application\/json/)
    expect(response.body.error.type).toBe("CredentialsSignin")
    expect(response.headers.location).toBeUndefined()
  })
})

describe("what authorize receives", () => {
  test("only the posted string fields, exactly as sent, without the CSRF token", async () => {
    const authorize = jest.fn<Authorize>(async () => null)
    await post(appWith(authorize), { username: "  Alice ", password: "p@ss word", remember: "" })
    expect(authorize).toHaveBeenCalledTimes(1)
    expect(authorize.mock.calls[0]![0]).toEqual({ username: "  Alice ", password: "p@ss word", remember: "" })
  })

  test("a declared field sent as a JSON object is refused with 400 InvalidRequest", async () => {
    const authorize = jest.fn<Authorize>(async () => null)
    const agent = agentFor(appWith(authorize))
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/callback/credentials").send({ csrfToken: token, username: { $ne: "" }, password: "x" })
    expect(response.status).toBe(400)
    expect(response.body.error.type).toBe("InvalidRequest")
    expect(authorize).not.toHaveBeenCalled()
  })

  test("a declared field given twice in a form is refused with 400 InvalidRequest", async () => {
    const authorize = jest.fn<Authorize>(async () => null)
    const agent = agentFor(appWith(authorize))
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/callback/credentials").type("form").send(`csrfToken=${token}&username=alice&username=bob&password=x`)
    expect(response.status).toBe(400)
    expect(response.body.error.type).toBe("InvalidRequest")
    expect(authorize).not.toHaveBeenCalled()
  })

  test("with two parameters, a web Request carrying the request's headers", async () => {
    let received: Request | undefined
    const authorize = async (_fields: Partial<Record<string, string>>, request: Request) => {
      received = request
      return null
    }
    await post(appWith(authorize), { username: "alice", password: "x" }, { "X-Probe": "probe-value", "User-Agent": "integration-test" })
    expect(received).toBeInstanceOf(Request)
    expect(received!.method).toBe("POST")
    expect(received!.url).toBe(`${ORIGIN}/auth/callback/credentials`)
    expect(received!.headers.get("x-probe")).toBe("probe-value")
    expect(received!.headers.get("user-agent")).toBe("integration-test")
    expect(received!.headers.get("host")).toBe("app.test")
    expect(new URLSearchParams(await received!.text()).get("username")).toBe("alice")
  })
})

describe("successful sign-in", () => {
  test("a JSON body signs in", async () => {
    const agent = agentFor(makeApp(testConfig()))
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/callback/credentials").send({ csrfToken: token, username: "bob", password: "battery-staple" })
    expect(response.status).toBe(302)
    expect(sessionValue(response)).toBeDefined()
    expect((await agent.get("/auth/session")).body.user.name).toBe("Bob")
  })

  test("X-Auth-Return-Redirect: 1 gets 200 {url} instead of a redirect", async () => {
    const response = await post(makeApp(testConfig()), { username: "alice", password: "correct-horse", callbackUrl: "/after" }, { "X-Auth-Return-Redirect": "1" })
    expect(response.status).toBe(200)
    expect(response.headers.location).toBeUndefined()
    expect(response.body).toEqual({ url: `${ORIGIN}/after` })
    expect(sessionValue(response)).toBeDefined()
  })

  test("X-Auth-Return-Redirect: 1 on a refusal gets 200 with the sign-in page URL", async () => {
    const response = await post(makeApp(testConfig()), { username: "alice", password: "wrong" }, { "X-Auth-Return-Redirect": "1" })
    expect(response.status).toBe(200)
    expect(refusal(response.body.url)).toEqual({ path: "/auth/signin", error: "CredentialsSignin", code: "credentials" })
  })
})
