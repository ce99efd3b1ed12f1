/**
 * Harness for the OAuth/OIDC security suite (SECURITY-CATALOG.md §7): the honest IdP
 * (`oidc-provider`, helpers/idp.ts) with client `gh-test`, provider records, a browser cookie jar,
 * the steps of a sign-in as a browser performs them against APP (Host app.test:3000,
 * AUTH_URL=http://app.test:3000/auth), and the oracles the OAuth entries share.
 */
import { afterAll, beforeAll, expect, jest } from "@jest/globals"
import type { Express } from "express"
import type { Server } from "node:http"
import type { SetCookie } from "cookie"
import type { OAuthProviderConfig } from "../../../lib/providers/types.js"
import type { MemoryAdapterInstance } from "../../../adapters/memory/index.js"
import { startIdp, type IdpAccount, type TestIdp } from "../../helpers/idp.js"
import {
  AUTH_URL, HOST, SESSION, TLS_HOST, TLS_AUTH_URL, call, cookieHeader, expectSameOrigin, isCleared, setCookieLines, setCookies, type Res,
} from "../fixtures.js"

export const CLIENT_ID = "gh-test"
export const CLIENT_SECRET = "gh-test-secret-5d0c2b8e9f1a4c3b7e6d"
export const STATE = "authjs.state"
export const PKCE = "authjs.pkce.code_verifier"
export const NONCE = "authjs.nonce"
export const CALLBACK = "authjs.callback-url"
export const CHECKS = [STATE, PKCE, NONCE] as const

type Target = Express | Server

/** oidc-provider prints development warnings; keep the test output readable. */
export function quietIdp(): void {
  beforeAll(() => {
    jest.spyOn(console, "warn").mockImplementation(() => undefined)
    jest.spyOn(console, "info").mockImplementation(() => undefined)
  })
  afterAll(() => {
    jest.restoreAllMocks()
  })
}

/** The honest IdP with client gh-test, registered for `/callback/<id>` of every AUTH_URL given. */
export function startHonestIdp(ids: string[], options: { authUrls?: string[]; accounts?: Record<string, IdpAccount> } = {}): Promise<TestIdp> {
  const urls = options.authUrls ?? [AUTH_URL]
  return startIdp({
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: urls.flatMap((url) => ids.map((id) => `${url}/callback/${id}`)),
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    accounts: options.accounts,
  })
}

/** The catalog's `idp`: OIDC discovered from `issuer`, client gh-test, PKCE + state + nonce. */
export function oidcProvider(id: string, issuer: string, extra: Partial<OAuthProviderConfig> = {}): OAuthProviderConfig {
  return { id, name: `IdP ${id}`, type: "oidc", issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, checks: ["pkce", "state", "nonce"], ...extra }
}

/** A browser's cookies for the app, kept exactly as the server wrote them. */
export class Jar {
  readonly cookies = new Map<string, string>()

  constructor(entries: Iterable<[string, string]> = []) {
    for (const [name, value] of entries) this.cookies.set(name, value)
  }

  /** Applies a response's Set-Cookie lines (cleared cookies are dropped). */
  absorb<R extends Res>(res: R): R {
    const parsed = setCookies(res)
    setCookieLines(res).forEach((line, index) => {
      const cookie = parsed[index] as SetCookie
      if (isCleared(cookie)) this.cookies.delete(cookie.name)
      else this.cookies.set(cookie.name, rawValue(line))
    })
    return res
  }

  get(name: string): string | undefined {
    return this.cookies.get(name)
  }

  clone(): Jar {
    return new Jar(this.cookies)
  }

  /** The Cookie header, with some cookies replaced (a value) or removed (undefined). */
  header(changes: Record<string, string | undefined> = {}): string {
    const map = new Map(this.cookies)
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) map.delete(name)
      else map.set(name, value)
    }
    return cookieHeader([...map])
  }
}

/** The value of a Set-Cookie line as sent (not decoded). */
export function rawValue(line: string): string {
  const pair = line.split(";")[0] ?? ""
  return pair.slice(pair.indexOf("=") + 1)
}

export interface Started {
  res: Res
  jar: Jar
  /** The authorization URL the browser is sent to. */
  location: URL
}

export interface StartOptions {
  jar?: Jar
  host?: string
  /** Extra form fields (callbackUrl, authorizationParams, ...). */
  form?: Record<string, string>
  /** Query string on the sign-in POST URL. */
  query?: string
}

/** GET /auth/csrf then POST /auth/signin/<id>, as a browser; expects the 302 to the provider. */
export async function startFlow(app: Target, id: string, options: StartOptions = {}): Promise<Started> {
  const jar = options.jar ?? new Jar()
  const host = options.host ?? HOST
  const csrf = jar.absorb(await call(app, "GET", "/auth/csrf", { host, cookie: jar.header() }))
  const form = { csrfToken: csrf.body.csrfToken as string, ...options.form }
  const res = jar.absorb(await call(app, "POST", `/auth/signin/${id}${options.query ? `?${options.query}` : ""}`, { host, cookie: jar.header(), form }))
  expect(res.status).toBe(302)
  const location = new URL(String(res.headers.location))
  expect(location.pathname).not.toMatch(/^\/auth\/(signin|error)/)
  return { res, jar, location }
}

/** The browser at the honest IdP, logging in as `account`; returns the callback URL it comes back with. */
export function loginAt(idp: TestIdp, started: Started, id: string, account = "alice", authUrl = AUTH_URL): Promise<URL> {
  idp.nextLogin = account
  return idp.browse(started.location.href, `${authUrl}/callback/${id}`)
}

/** The path and query of a URL, to request on the app. */
export function local(url: URL | string): string {
  const parsed = typeof url === "string" ? new URL(url) : url
  return parsed.pathname + parsed.search
}

/** GET the callback with the given Cookie header (or the jar's cookies). */
export async function callback(app: Target, url: URL | string, cookie: string | Jar, options: { host?: string; accept?: string } = {}): Promise<Res> {
  return call(app, "GET", local(url), { host: options.host ?? HOST, cookie: typeof cookie === "string" ? cookie : cookie.header(), accept: options.accept })
}

/** A whole sign-in at the honest IdP: start, log in as `account`, callback. The jar keeps the session. */
export async function signInWithIdp(app: Target, idp: TestIdp, id: string, account: string, options: StartOptions = {}): Promise<{ started: Started; back: URL; res: Res; jar: Jar }> {
  const started = await startFlow(app, id, options)
  const back = await loginAt(idp, started, id, account, options.host === TLS_HOST ? TLS_AUTH_URL : AUTH_URL)
  const res = started.jar.absorb(await callback(app, back, started.jar, { host: options.host }))
  return { started, back, res, jar: started.jar }
}

/** A session cookie (or chunk) the response sets (not clears). */
export function setsSession(res: Res, name = SESSION): boolean {
  return setCookies(res).some((c) => (c.name === name || c.name.startsWith(`${name}.`)) && !isCleared(c))
}

/**
 * NAMED-4XX for an OAuth failure as a browser sees it: 302 to `/auth/signin?error=<type>` on the
 * app's origin, no session cookie set, any callbackUrl carried along on the app's origin too.
 */
export function expectOAuthError(res: Res, type = "OAuthCallbackError", base?: string): URL {
  expect(res.status).toBe(302)
  const url = expectSameOrigin(res.headers.location, base)
  expect(url.pathname).toBe("/auth/signin")
  expect(url.searchParams.get("error")).toBe(type)
  expect([...url.searchParams.keys()].every((key) => ["error", "callbackUrl"].includes(key))).toBe(true)
  const back = url.searchParams.get("callbackUrl")
  if (back !== null) expectSameOrigin(back, base)
  expect(setsSession(res)).toBe(false)
  expect(setsSession(res, `__Secure-${SESSION}`)).toBe(false)
  return url
}

/** The callback cleared every check cookie the browser had sent (same name, Path=/, expired). */
export function expectChecksCleared(res: Res, sent: Iterable<string>): void {
  const cleared = setCookies(res).filter(isCleared)
  for (const name of sent) {
    const cookie = cleared.find((c) => c.name === name)
    expect(cookie).toBeDefined()
    expect(cookie?.path).toBe("/")
    expect(cookie?.domain).toBeUndefined()
  }
}

/** The check cookies a jar holds. */
export function checkNames(jar: Jar, prefix = ""): string[] {
  return CHECKS.map((name) => `${prefix}${name}`).filter((name) => jar.get(name) !== undefined)
}

export interface Rows {
  users: number
  accounts: number
  sessions: number
}

export function rows(adapter: MemoryAdapterInstance): Rows {
  const { users, accounts, sessions } = adapter.store
  return { users: users.size, accounts: accounts.size, sessions: sessions.size }
}

/** Accounts of (provider, providerAccountId) and the user each belongs to. */
export function accountsOf(adapter: MemoryAdapterInstance, provider: string): Array<{ providerAccountId: string; userId: string }> {
  return [...adapter.store.accounts.values()].filter((a) => a.provider === provider).map((a) => ({ providerAccountId: a.providerAccountId, userId: a.userId }))
}

/** Requests an IdP path has received so far. */
export function hitsOf(server: { hits: Record<string, number> }, path: string): number {
  return server.hits[path] ?? 0
}
