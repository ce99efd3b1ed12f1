/**
 * Small helpers shared by the integration suites (not a test file: jest only runs *.test.ts).
 * Every agent sends `Host: app.test`, so the site's origin is fixed whatever port supertest picks.
 */
import { jest } from "@jest/globals"
import type { Express } from "express"
import { decode, encode } from "../../lib/jwt/index.js"
import type { JWT } from "../../lib/types.js"
import { SECRET, findCookie, request, setCookies, signInAs, type Agent } from "../helpers/app.js"

export const HOST = "app.test"
export const ORIGIN = `http://${HOST}`
export const SESSION_COOKIE = "authjs.session-token"
export const CSRF_COOKIE = "authjs.csrf-token"

type ResponseLike = { headers: Record<string, unknown> }

/** A cookie-keeping agent for `app` whose requests all carry `Host: app.test`. */
export function agentFor(app: Express): Agent {
  return request.agent(app).set("Host", HOST) as Agent
}

/** The raw `Set-Cookie` lines of a response. */
export function setCookieLines(response: ResponseLike): string[] {
  const raw = response.headers["set-cookie"]
  return raw === undefined ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)]
}

/** The Set-Cookie entries of the session cookie and its chunks. */
export function sessionCookies(response: ResponseLike, name = SESSION_COOKIE) {
  return setCookies(response).filter((cookie) => cookie.name === name || cookie.name.startsWith(`${name}.`))
}

/** The value of the (unchunked) session cookie a response set, if any. */
export function sessionValue(response: ResponseLike, name = SESSION_COOKIE): string | undefined {
  const cookie = findCookie(response, name)
  return cookie && cookie.value !== "" ? cookie.value : undefined
}

/** Opens a session token with the test secret (salt: the cookie name). */
export function openSession(token: string | undefined, secret: string | string[] = SECRET, salt = SESSION_COOKIE): Promise<JWT | null> {
  return decode<JWT>({ token, secret, salt })
}

/**
 * Seals a session token as Gatehouse would. `issuedAt` (ms since the epoch) pretends the token
 * was written then: `encode` reads the clock through Date.now, which is stubbed for the call only.
 */
export async function mintSession(
  token: JWT,
  options: { secret?: string; salt?: string; maxAge?: number; issuedAt?: number } = {},
): Promise<string> {
  const spy = options.issuedAt === undefined ? undefined : jest.spyOn(Date, "now").mockReturnValue(options.issuedAt)
  try {
    return await encode({ token, secret: options.secret ?? SECRET, salt: options.salt ?? SESSION_COOKIE, maxAge: options.maxAge })
  } finally {
    spy?.mockRestore()
  }
}

/** A `Cookie` request header value. */
export function cookieHeader(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ")
}

/** A logger whose three levels are jest mocks (a custom logger receives every message). */
export function spyLogger() {
  return {
    error: jest.fn<(error: Error) => void>(),
    warn: jest.fn<(code: string) => void>(),
    debug: jest.fn<(message: string, metadata?: unknown) => void>(),
  }
}

/** Alice's default token payload, as a sign-in would write it. */
export const ALICE_TOKEN: JWT = { name: "Alice", email: "alice@example.com", picture: "https://img.example/alice.png", sub: "user-alice" }

/** Path and query of an absolute URL on the test origin (fails the test if it is on another origin). */
export function localPath(location: string | undefined): string {
  expect(location).toBeDefined()
  const url = new URL(location as string)
  expect(url.origin).toBe(ORIGIN)
  return `${url.pathname}${url.search}`
}

/** Signs `agent` in through the credentials callback and checks that a session cookie was set. */
export async function signedIn(agent: Agent, username = "alice", options: Parameters<typeof signInAs>[2] = {}) {
  const response = await signInAs(agent, username, options)
  expect(response.status).toBe(302)
  expect(sessionCookies(response).some((cookie) => cookie.value !== "")).toBe(true)
  return response
}

/** A CSRF token and the `name=value` of its cookie, for requests built without an agent. */
export async function csrfPair(app: Express): Promise<{ token: string; cookie: string }> {
  const response = await request(app).get("/auth/csrf").set("Host", HOST).expect(200)
  const line = setCookieLines(response).find((l) => l.startsWith(`${CSRF_COOKIE}=`))
  expect(line).toBeDefined()
  return { token: response.body.csrfToken as string, cookie: line!.split(";")[0]! }
}
