/**
 * The web-standard core: `Auth(request, config)` with web Request and Response objects.
 */
import { jest } from "@jest/globals"
import { Auth, raw } from "../../lib/core/index.js"
import { CredentialsSignin } from "../../lib/errors.js"
import type { AuthConfig, AuthRequestLike } from "../../lib/types.js"
import { testConfig } from "../helpers/app.js"
import { ORIGIN, SESSION_COOKIE, openSession } from "./support.js"

/** `name=value` pairs of a web Response's Set-Cookie lines, as a Cookie header would send them. */
function cookiesOf(response: Response): Record<string, string> {
  return Object.fromEntries(
    response.headers.getSetCookie().map((line) => {
      const pair = line.split(";")[0]!
      const eq = pair.indexOf("=")
      return [pair.slice(0, eq), pair.slice(eq + 1)]
    }),
  )
}

const header = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ")

async function csrf(config: AuthConfig) {
  const response = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
  const body = (await response.json()) as { csrfToken: string }
  return { token: body.csrfToken, cookies: cookiesOf(response) }
}

function signInRequest(token: string, cookies: Record<string, string>, password = "correct-horse") {
  return new Request(`${ORIGIN}/auth/callback/credentials`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: header(cookies) },
    body: new URLSearchParams({ csrfToken: token, username: "alice", password, callbackUrl: "/home" }),
  })
}

describe("Auth(request, config)", () => {
  test("GET /auth/session returns a web Response with JSON null when signed out", async () => {
    const response = await Auth(new Request(`${ORIGIN}/auth/session`), testConfig())
    expect(response).toBeInstanceOf(Response)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/application\/json/)
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(await response.json()).toBeNull()
  })

  test("signs in with a form body, then GET /auth/session returns the session", async () => {
    const config = testConfig()
    const { token, cookies } = await csrf(config)
    const response = await Auth(signInRequest(token, cookies), config)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/home`)
    const set = cookiesOf(response)
    expect(await openSession(set[SESSION_COOKIE])).toMatchObject({ sub: "user-alice", name: "Alice" })
    const session = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: header({ [SESSION_COOKIE]: set[SESSION_COOKIE]! }) } }), config)
    expect(((await session.json()) as { user: { name: string } }).user.name).toBe("Alice")
  })

  test("a wrong password redirects to the sign-in page with error=CredentialsSignin", async () => {
    const config = testConfig()
    const { token, cookies } = await csrf(config)
    const response = await Auth(signInRequest(token, cookies, "wrong"), config)
    expect(response.status).toBe(302)
    const url = new URL(response.headers.get("location")!)
    expect(url.pathname).toBe("/auth/signin")
    expect(url.searchParams.get("error")).toBe("CredentialsSignin")
    expect(url.searchParams.get("code")).toBe("credentials")
  })

  test.each([`${ORIGIN}/auth/nope`, `${ORIGIN}/elsewhere`])("an unknown path (%s) answers 404 JSON UnknownAction", async (url) => {
    const response = await Auth(new Request(url), testConfig())
    expect(response.status).toBe(404)
    expect(response.headers.get("content-type")).toMatch(/application\/json/)
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe("UnknownAction")
  })
})

describe("the raw marker", () => {
  test("returns the internal record {status, headers, cookies, redirect, body}", async () => {
    const config = testConfig({ raw }) as AuthConfig & { raw: typeof raw }
    const csrfRecord = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
    expect(csrfRecord).not.toBeInstanceOf(Response)
    expect(csrfRecord.status).toBe(200)
    expect(csrfRecord.headers).toMatchObject({ "Content-Type": expect.stringMatching(/application\/json/) })
    const token = (csrfRecord.body as { csrfToken: string }).csrfToken
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    const csrfCookie = csrfRecord.cookies?.find((cookie) => cookie.name === "authjs.csrf-token")
    expect(csrfCookie?.value).toMatch(new RegExp(`^${token}\\|[0-9a-f]{64}$`))

    const signIn = await Auth(signInRequest(token, { "authjs.csrf-token": encodeURIComponent(csrfCookie!.value) }), config)
    expect(signIn.status).toBe(302)
    expect(signIn.redirect).toBe(`${ORIGIN}/home`)
    const session = signIn.cookies?.find((cookie) => cookie.name === SESSION_COOKIE)
    expect(await openSession(session?.value)).toMatchObject({ sub: "user-alice" })
  })

  test("a CredentialsSignin is thrown to the caller instead of redirecting", async () => {
    const config = testConfig({ raw }) as AuthConfig & { raw: typeof raw }
    const first = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
    const token = (first.body as { csrfToken: string }).csrfToken
    const cookie = first.cookies!.find((c) => c.name === "authjs.csrf-token")!
    await expect(Auth(signInRequest(token, { "authjs.csrf-token": encodeURIComponent(cookie.value) }, "wrong"), config)).rejects.toBeInstanceOf(CredentialsSignin)
  })
})

describe("lazy configuration", () => {
  test("a sync function receives the Request", async () => {
    const config = testConfig()
    const lazy = jest.fn((_request?: AuthRequestLike) => config)
    const request = new Request(`${ORIGIN}/auth/providers`)
    const response = await Auth(request, lazy)
    expect(lazy).toHaveBeenCalledWith(request)
    expect(response.status).toBe(200)
    expect(((await response.json()) as Array<{ id: string }>).map((p) => p.id)).toEqual(["credentials"])
  })

  test("an async function receives the Request", async () => {
    const config = testConfig()
    const lazy = jest.fn(async (_request?: AuthRequestLike) => config)
    const request = new Request(`${ORIGIN}/auth/session`)
    const response = await Auth(request, lazy)
    expect(lazy).toHaveBeenCalledWith(request)
    expect(await response.json()).toBeNull()
  })
})
