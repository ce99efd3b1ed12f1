/**
 * Shared fixtures: a credentials provider with two users, an Express app with the router, the
 * session middleware and two protected routes (an HTML page and a JSON API), and small helpers
 * to read cookies and CSRF tokens the way a browser would.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import express, { type Express } from "express"
import request from "supertest"
import { parseSetCookie, type SetCookie } from "cookie"
import { authRouter, authSession, requireAuth } from "../../lib/index.js"
import Credentials from "../../lib/providers/credentials.js"
import type { AuthConfig, User } from "../../lib/types.js"
import type { CredentialsConfig } from "../../lib/providers/types.js"

export const SECRET = "test-secret-7c1f0b9e4a2d48e6a5b3c9d1e0f2a4b6"
export const OTHER_SECRET = "other-secret-91a0e4d2c7b64f3aa8e1d5c2b9f0e7a3"

export const USERS: Record<string, User & { password: string }> = {
  alice: { id: "user-alice", name: "Alice", email: "alice@example.com", image: "https://img.example/alice.png", password: "correct-horse" },
  bob: { id: "user-bob", name: "Bob", email: "bob@example.com", image: null, password: "battery-staple" },
}

/** alice / correct-horse and bob / battery-staple; anything else returns null. */
export function credentials(overrides: Partial<CredentialsConfig> = {}): CredentialsConfig {
  return Credentials({
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    async authorize(fields) {
      const user = fields.username ? USERS[fields.username] : undefined
      if (!user || user.password !== fields.password) return null
      const { password: _password, ...rest } = user
      return rest
    },
    ...overrides,
  })
}

/** A configuration for tests: the credentials provider, a fixed secret, quiet logs. */
export function testConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret: SECRET, providers: [credentials()], logLevel: "silent", ...overrides }
}

export interface AppOptions {
  /** Where the router is mounted (default /auth). */
  mount?: string
}

/** The usual app: router, authSession, GET /dashboard (HTML) and GET /api/me (JSON), both protected. */
export function makeApp(config: AuthConfig, options: AppOptions = {}): Express {
  const app = express()
  app.use(options.mount ?? "/auth", authRouter(config))
  app.use(authSession(config))
  app.get("/", (req, res) => {
    res.json({ auth: req.auth ?? null })
  })
  app.get("/dashboard", requireAuth(config), (req, res) => {
    res.type("html").send(`<h1>Dashboard of ${req.auth?.user?.name}</h1>`)
  })
  app.get("/api/me", requireAuth(config), (req, res) => {
    res.json(req.auth)
  })
  return app
}

export type Agent = ReturnType<typeof request.agent>

/** The Set-Cookie lines of a response, parsed. */
export function setCookies(response: { headers: Record<string, unknown> }): SetCookie[] {
  const raw = response.headers["set-cookie"]
  const lines = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)]
  return lines.map((line) => parseSetCookie(line))
}

export function findCookie(response: { headers: Record<string, unknown> }, name: string): SetCookie | undefined {
  return setCookies(response).find((cookie) => cookie.name === name)
}

/** True when the response deletes the cookie (empty value and an expiry in the past). */
export function isCleared(cookie: SetCookie | undefined): boolean {
  if (!cookie) return false
  return cookie.value === "" && (cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now()))
}

/** GET {base}/csrf with the agent (keeping the cookie) and return the token. */
export async function csrfToken(agent: Agent, base = "/auth"): Promise<string> {
  const response = await agent.get(`${base}/csrf`).expect(200)
  return response.body.csrfToken as string
}

/** Signs the agent in through the credentials callback and returns that response. */
export async function signInAs(agent: Agent, username: keyof typeof USERS | string, options: { base?: string; callbackUrl?: string; password?: string } = {}) {
  const base = options.base ?? "/auth"
  const token = await csrfToken(agent, base)
  const password = options.password ?? USERS[username]?.password ?? "wrong"
  const body: Record<string, string> = { csrfToken: token, username, password }
  if (options.callbackUrl !== undefined) body.callbackUrl = options.callbackUrl
  return agent.post(`${base}/callback/credentials`).type("form").send(body)
}

export { request }

/**
 * Starts `app` on a loopback port and waits until it listens. Use it when absolute URLs must stay
 * on one origin across requests: supertest given an app (or a server not yet listening) starts a
 * new server, on a new port, for every request.
 */
export async function serve(app: Express): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const server = app.listen(0, "127.0.0.1")
  await new Promise((listening) => server.once("listening", listening))
  const address = server.address() as AddressInfo
  return {
    server,
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}

/**
 * A loopback server listening before the app exists, for flows where the app's URL must be known
 * first (an IdP client registered with the app's redirect_uri). `attach(app)` puts the app behind it.
 */
export async function reserve(): Promise<{ server: Server; url: string; attach: (app: Express) => void; close: () => Promise<void> }> {
  let handler: Express | undefined
  const server = createServer((req, res) => {
    if (handler) handler(req, res)
    else {
      res.statusCode = 503
      res.end()
    }
  })
  server.listen(0, "127.0.0.1")
  await new Promise((listening) => server.once("listening", listening))
  const address = server.address() as AddressInfo
  return {
    server,
    url: `http://127.0.0.1:${address.port}`,
    attach: (app) => {
      handler = app
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}
