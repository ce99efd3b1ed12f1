/**
 * Shared fixtures for the black-box security suite (SECURITY-CATALOG.md §0).
 *
 * APP: AUTH_URL=http://app.test:3000/auth, trustHost false, requests sent with Host: app.test:3000.
 * APP-TLS: AUTH_URL=https://app.test:3443/auth (prefixed, Secure cookies; sent by hand).
 * Every request made through `call` is checked against NO-LEAK.
 */
import { connect } from "node:net"
import type { AddressInfo } from "node:net"
import type { Server } from "node:http"
import { beforeAll, afterAll, expect } from "@jest/globals"
import type { Express } from "express"
import type { AuthConfig } from "../../lib/types.js"
import { makeApp, testConfig, setCookies, isCleared, request, SECRET, OTHER_SECRET, USERS } from "../helpers/app.js"

export { SECRET, OTHER_SECRET, USERS, setCookies, isCleared, makeApp, testConfig }
export * from "./tokens.js"
export * from "./html.js"

export const HOST = "app.test:3000"
export const BASE = `http://${HOST}`
export const AUTH_URL = `${BASE}/auth`
export const TLS_HOST = "app.test:3443"
export const TLS_BASE = `https://${TLS_HOST}`
export const TLS_AUTH_URL = `${TLS_BASE}/auth`
export const SESSION = "authjs.session-token"
export const CSRF = "authjs.csrf-token"
export const TLS_SESSION = "__Secure-authjs.session-token"
export const TLS_CSRF = "__Host-authjs.csrf-token"
/** The sign-in page's "Last used" cookie (issue #26): the method's kind and provider id, set by a sign-in. */
export const LAST_USED = "gatehouse.last-used"
export const TLS_LAST_USED = "__Host-gatehouse.last-used"

/** Saves the named environment variables before the file's tests and restores them after. */
export function preserveEnv(...names: string[]): void {
  const saved: Record<string, string | undefined> = {}
  beforeAll(() => {
    for (const name of names) saved[name] = process.env[name]
  })
  afterAll(() => {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
  })
}

/** Sets AUTH_URL first (resolution reads it once per config object), then builds the config and app. */
export function buildApp(authUrl: string | undefined, overrides: Partial<AuthConfig> = {}): { app: Express; config: AuthConfig } {
  if (authUrl === undefined) delete process.env.AUTH_URL
  else process.env.AUTH_URL = authUrl
  const config = testConfig({ trustHost: false, ...overrides })
  return { app: makeApp(config), config }
}

export interface CallOptions {
  host?: string | null
  cookie?: string
  headers?: Record<string, string>
  accept?: string
  form?: Record<string, string | string[]> | string
  json?: unknown
  raw?: string | Buffer
  type?: string
}

export type Res = Awaited<ReturnType<ReturnType<typeof request>["get"]>>

/** One request with the fixture's Host header; the response is checked for NO-LEAK. */
export async function call(target: Express | Server, method: string, path: string, options: CallOptions = {}): Promise<Res> {
  const agent = request(target) as unknown as Record<string, (path: string) => ReturnType<ReturnType<typeof request>["get"]>>
  const make = agent[method.toLowerCase()]
  if (!make) throw new Error(`supertest has no method ${method}`)
  let test = make.call(agent, path)
  if (options.host !== null) test = test.set("Host", options.host ?? HOST)
  if (options.cookie !== undefined) test = test.set("Cookie", options.cookie)
  if (options.accept !== undefined) test = test.set("Accept", options.accept)
  for (const [name, value] of Object.entries(options.headers ?? {})) test = test.set(name, value)
  if (options.form !== undefined) {
    const body = typeof options.form === "string" ? options.form : formBody(options.form)
    test = test.set("Content-Type", options.type ?? "application/x-www-form-urlencoded").send(body)
  } else if (options.json !== undefined) {
    const body = typeof options.json === "string" ? options.json : JSON.stringify(options.json)
    test = test.set("Content-Type", options.type ?? "application/json").send(body)
  } else if (options.raw !== undefined) {
    if (options.type !== undefined) test = test.set("Content-Type", options.type)
    test = test.send(options.raw)
  }
  const res = await test
  assertNoLeak(res)
  return res
}

export function formBody(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(fields)) for (const item of Array.isArray(value) ? value : [value]) params.append(key, item)
  return params.toString()
}

/** NO-LEAK: no stack trace, no module path, no secret in the headers or body. */
export function assertNoLeak(res: { headers: Record<string, unknown>; text?: string }): void {
  const text = `${JSON.stringify(res.headers)}\n${res.text ?? ""}`
  expect(text).not.toMatch(/\bat [\w.<>$]+ \(.*:\d+:\d+\)|\bat (?:file:)?\/\S+:\d+:\d+|\.(?:ts|js|mjs|cjs):\d+:\d+/)
  expect(text).not.toMatch(/node_modules|TypeError|ReferenceError|RangeError|SyntaxError/)
  expect(text).not.toContain(process.cwd())
  expect(text).not.toMatch(/\.ts:\d+/)
  for (const secret of [SECRET, OTHER_SECRET]) expect(text).not.toContain(secret)
}

/** `name=value; ...` from pairs, in the order given (duplicates allowed). */
export function cookieHeader(pairs: Array<[string, string]> | Record<string, string>): string {
  const list = Array.isArray(pairs) ? pairs : Object.entries(pairs)
  return list.map(([name, value]) => `${name}=${value}`).join("; ")
}

/** The raw Set-Cookie lines of a response. */
export function setCookieLines(res: { headers: Record<string, unknown> }): string[] {
  const raw = res.headers["set-cookie"]
  return raw === undefined ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)]
}

/** The cookies a response sets (not the ones it clears), as name → value. */
export function setValues(res: { headers: Record<string, unknown> }): Map<string, string> {
  const out = new Map<string, string>()
  for (const cookie of setCookies(res)) if (!isCleared(cookie)) out.set(cookie.name, cookie.value ?? "")
  return out
}

/** A Cookie header with the session cookie (and chunks) a response set, in index order. */
export function sessionCookie(res: { headers: Record<string, unknown> }, name = SESSION): string {
  const set = setValues(res)
  const pairs = [...set].filter(([key]) => key === name || key.startsWith(`${name}.`))
  pairs.sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
  return cookieHeader(pairs)
}

export interface CsrfPair {
  token: string
  name: string
  value: string
  cookie: string
}

export async function csrfPair(app: Express | Server, host = HOST, cookie?: string): Promise<CsrfPair> {
  const res = await call(app, "GET", "/auth/csrf", { host, cookie })
  expect(res.status).toBe(200)
  const token = res.body.csrfToken as string
  const set = setCookies(res).find((c) => c.name.endsWith("authjs.csrf-token"))
  const name = set?.name ?? (host === TLS_HOST ? TLS_CSRF : CSRF)
  const value = set?.value ?? ""
  return { token, name, value, cookie: `${name}=${value}` }
}

export interface SignInOptions {
  username?: string
  password?: string
  host?: string
  callbackUrl?: string
  /** Extra cookies sent with the callback (e.g. a planted session). */
  cookie?: string
}

/** Credentials sign-in through the router; returns the response and the new session's Cookie header. */
export async function signIn(app: Express | Server, options: SignInOptions = {}): Promise<{ res: Res; session: string; csrf: CsrfPair }> {
  const host = options.host ?? HOST
  const username = options.username ?? "alice"
  const csrf = await csrfPair(app, host)
  const form: Record<string, string> = { csrfToken: csrf.token, username, password: options.password ?? USERS[username]?.password ?? "wrong" }
  if (options.callbackUrl !== undefined) form.callbackUrl = options.callbackUrl
  const cookie = [csrf.cookie, options.cookie].filter(Boolean).join("; ")
  const res = await call(app, "POST", "/auth/callback/credentials", { host, cookie, form })
  const name = host === TLS_HOST ? TLS_SESSION : SESSION
  return { res, session: sessionCookie(res, name), csrf }
}

/** The session the app sees for these cookies (null when signed out). */
export async function sessionOf(app: Express | Server, cookie: string, host = HOST): Promise<Record<string, unknown> | null> {
  const res = await call(app, "GET", "/auth/session", { host, cookie })
  expect(res.status).toBe(200)
  return res.body as Record<string, unknown> | null
}

export interface SignedOutResult {
  session: Res
  api: Res
  page: Res
}

/**
 * SIGNED-OUT: GET /auth/session → 200 null; GET /api/me → 401 JSON; GET /dashboard (HTML) → 302 to the
 * sign-in page; none of them sets a session cookie (clearing one is allowed).
 */
export async function assertSignedOut(app: Express | Server, cookie: string, options: { host?: string; sessionName?: string } = {}): Promise<SignedOutResult> {
  const host = options.host ?? HOST
  const base = host === TLS_HOST ? TLS_BASE : BASE
  const name = options.sessionName ?? (host === TLS_HOST ? TLS_SESSION : SESSION)
  const session = await call(app, "GET", "/auth/session", { host, cookie })
  expect(session.status).toBe(200)
  expect(session.text).toBe("null")
  const api = await call(app, "GET", "/api/me", { host, cookie, accept: "application/json" })
  expect(api.status).toBe(401)
  expect(api.body.error.type).toBe("SessionRequired")
  const page = await call(app, "GET", "/dashboard", { host, cookie, accept: "text/html" })
  expect(page.status).toBe(302)
  expect(page.headers.location).toBe(`${base}/auth/signin?callbackUrl=${encodeURIComponent(`${base}/dashboard`)}`)
  for (const res of [session, api, page]) {
    for (const set of setCookies(res)) if (set.name === name || set.name.startsWith(`${name}.`)) expect(isCleared(set)).toBe(true)
  }
  return { session, api, page }
}

/** The session cookie (and every chunk) this response clears. */
export function clearedNames(res: { headers: Record<string, unknown> }): string[] {
  return setCookies(res).filter(isCleared).map((c) => c.name).sort()
}

export async function assertAlive(app: Express | Server, host = HOST): Promise<void> {
  const res = await call(app, "GET", "/auth/providers", { host })
  expect(res.status).toBe(200)
}

/** MissingCSRF as a browser sees it. */
export function expectMissingCsrf(res: Res, base = BASE): void {
  expect(res.status).toBe(302)
  expect(res.headers.location).toBe(`${base}/auth/signin?error=MissingCSRF`)
  expect(setCookies(res).some((c) => c.name.includes("session-token") && !isCleared(c))).toBe(false)
}

/** SAME-ORIGIN(loc): where a browser would really go is on `base`'s origin, over http(s). */
export function expectSameOrigin(location: unknown, base = BASE): URL {
  expect(typeof location).toBe("string")
  // eslint-disable-next-line no-control-regex
  expect(location as string).not.toMatch(/[\u0000-\u001f]/)
  const url = new URL(location as string, base)
  expect(url.origin).toBe(new URL(base).origin)
  expect(["http:", "https:"]).toContain(url.protocol)
  return url
}

// ---- raw sockets (request targets and headers a client library would normalise) ---------------

export async function listen(app: Express, options: { maxHeaderSize?: number } = {}): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const { createServer } = await import("node:http")
  const server = createServer({ maxHeaderSize: options.maxHeaderSize }, app)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

export interface RawResponse {
  status: number
  head: string
  headers: Array<[string, string]>
  body: string
  text: string
}

/** Writes `raw` (a whole HTTP/1.1 request) to the port and reads until the server closes. */
export function rawHttp(port: number, raw: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    const chunks: Buffer[] = []
    socket.on("data", (chunk) => chunks.push(chunk))
    socket.on("error", (error) => (chunks.length ? undefined : reject(error)))
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1")
      const end = text.indexOf("\r\n\r\n")
      const head = end === -1 ? text : text.slice(0, end)
      const [statusLine = "", ...lines] = head.split("\r\n")
      const headers = lines.map((line) => {
        const colon = line.indexOf(":")
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as [string, string]
      })
      resolve({ status: Number(statusLine.split(" ")[1]), head, headers, body: end === -1 ? "" : text.slice(end + 4), text })
    })
    socket.setTimeout(5000, () => socket.destroy())
    socket.write(raw)
  })
}

export function rawHeader(res: RawResponse, name: string): string | undefined {
  return res.headers.find(([key]) => key === name)?.[1]
}
