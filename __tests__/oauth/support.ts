/**
 * Harness for the OAuth/OIDC suites (not a test file): a real `oidc-provider` IdP and a Gatehouse
 * app on two loopback ports, the IdP's client registered with the app's redirect_uri, and helpers
 * that drive a sign-in the way a browser would (start POST, the IdP's redirects, the callback).
 */
import { jest } from "@jest/globals"
import type { ClientMetadata, Configuration } from "oidc-provider"
import type { Express } from "express"
import { customFetch } from "../../lib/core/symbols.js"
import { decode } from "../../lib/jwt/index.js"
import { openToken } from "../../lib/jwt/codec.js"
import type { AuthError } from "../../lib/errors.js"
import type { OAuthProviderConfig } from "../../lib/providers/types.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET, csrfToken, makeApp, request, reserve, setCookies, testConfig, type Agent } from "../helpers/app.js"
import { startIdp, type IdpAccount, type TestIdp } from "../helpers/idp.js"

export const CLIENT_ID = "gatehouse-client"
export const CLIENT_SECRET = "client-secret-3f1e9a7b5c2d4e6f8a0b1c2d3e4f5a6b"
export const SESSION_COOKIE = "authjs.session-token"
export const CHECK_COOKIES = { pkce: "authjs.pkce.code_verifier", state: "authjs.state", nonce: "authjs.nonce" } as const

type ResponseLike = { headers: Record<string, unknown>; status: number }

export interface Site {
  url: string
  idp: TestIdp
  app: Express
  config: AuthConfig
  /** Everything Gatehouse logged through `logger.error`. */
  errors: jest.Mock<(error: Error) => void>
  /** A browser at the app (keeps cookies). */
  agent(): Agent
  /** `${url}/auth/callback/<id>` */
  callbackUrl(id?: string): string
  close(): Promise<void>
}

export interface SiteOptions {
  /** The IdP's clients; default one confidential client for provider "idp" (client_secret_basic). */
  clients?: (url: string) => ClientMetadata[]
  /** The providers, once the IdP's issuer is known; default `[oidc(issuer)]`. */
  providers?: (idp: TestIdp, url: string) => OAuthProviderConfig[]
  /** More Gatehouse options (adapter, callbacks, events, session...). */
  config?: (idp: TestIdp, url: string) => Partial<AuthConfig>
  accounts?: Record<string, IdpAccount>
  configuration?: Partial<Configuration>
  /** Runs after the IdP started and before the app is built (e.g. to set environment variables). */
  beforeApp?: (idp: TestIdp, url: string) => void
}

/** A confidential client of the IdP for the app's provider `id`. */
export function client(url: string, overrides: Partial<ClientMetadata> = {}, id = "idp"): ClientMetadata {
  return {
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    redirect_uris: [`${url}/auth/callback/${id}`],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "client_secret_basic",
    ...overrides,
  }
}

/** An OIDC provider discovered from the IdP's issuer. */
export function oidc(idp: TestIdp, overrides: Partial<OAuthProviderConfig> = {}): OAuthProviderConfig {
  return { id: "idp", name: "Test IdP", type: "oidc", issuer: idp.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...overrides }
}

/**
 * An OAuth 2.0 provider with the IdP's endpoints given explicitly (no discovery). The scope has
 * `openid` because oidc-provider's userinfo endpoint (`/me`) refuses access tokens without it
 * (403 insufficient_scope); tests that need a plain OAuth 2.0 token response drop the ID token
 * at the IdP (see oauth2-endpoints.test.ts).
 */
export function oauth2(idp: TestIdp, overrides: Partial<OAuthProviderConfig> = {}): OAuthProviderConfig {
  return {
    id: "idp",
    name: "Test OAuth",
    type: "oauth",
    authorization: { url: `${idp.issuer}/auth`, params: { scope: "openid email profile" } },
    token: `${idp.issuer}/token`,
    userinfo: `${idp.issuer}/me`,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    ...overrides,
  }
}

const open: Site[] = []

/** For a test file: quiets oidc-provider's development warnings and closes every site after each test. */
export function oauthSuite(): void {
  beforeAll(() => {
    jest.spyOn(console, "warn").mockImplementation(() => undefined)
    jest.spyOn(console, "info").mockImplementation(() => undefined)
  })
  afterEach(async () => {
    while (open.length) await open.pop()!.close()
  })
  afterAll(() => jest.restoreAllMocks())
}

export async function startSite(options: SiteOptions = {}): Promise<Site> {
  const reserved = await reserve()
  const idp = await startIdp({
    clients: options.clients ? options.clients(reserved.url) : [client(reserved.url)],
    accounts: options.accounts,
    configuration: options.configuration,
  })
  options.beforeApp?.(idp, reserved.url)
  const errors = jest.fn<(error: Error) => void>()
  const providers = options.providers ? options.providers(idp, reserved.url) : [oidc(idp)]
  const config = testConfig({ providers, logger: { error: errors }, ...options.config?.(idp, reserved.url) })
  const app = makeApp(config)
  reserved.attach(app)
  const site: Site = {
    url: reserved.url,
    idp,
    app,
    config,
    errors,
    agent: () => request.agent(reserved.url) as Agent,
    callbackUrl: (id = "idp") => `${reserved.url}/auth/callback/${id}`,
    close: async () => {
      await reserved.close()
      await idp.close()
    },
  }
  open.push(site)
  return site
}

/** POST /auth/signin/<id> with a fresh CSRF token (and any other fields). */
export async function startSignIn(agent: Agent, id = "idp", fields: Record<string, string> = {}) {
  const token = await csrfToken(agent)
  return agent.post(`/auth/signin/${id}`).type("form").send({ csrfToken: token, ...fields })
}

/** The authorization URL a start response redirects to. */
export function authorizationUrl(start: ResponseLike): URL {
  expect(start.status).toBe(302)
  return new URL(String(start.headers.location))
}

/** The browser at the IdP: logs in as `login` and comes back with the callback URL. */
export async function atIdp(site: Site, start: ResponseLike, login = "alice", id = "idp"): Promise<URL> {
  site.idp.nextLogin = login
  return site.idp.browse(authorizationUrl(start).href, site.callbackUrl(id))
}

/** The path and query to request on the app for a callback URL. */
export function local(url: URL): string {
  return url.pathname + url.search
}

/** A whole sign-in: start, the IdP, the callback; returns every step. */
export async function signInFlow(site: Site, agent: Agent, options: { id?: string; login?: string; fields?: Record<string, string> } = {}) {
  const id = options.id ?? "idp"
  const start = await startSignIn(agent, id, options.fields)
  const back = await atIdp(site, start, options.login ?? "alice", id)
  const callback = await agent.get(local(back))
  return { start, back, callback }
}

/** The cookies responses set, by name (later ones win; cleared ones removed). */
export function cookieJar(...responses: ResponseLike[]): Map<string, string> {
  const jar = new Map<string, string>()
  for (const response of responses) {
    for (const cookie of setCookies(response)) {
      if (cookie.value) jar.set(cookie.name, cookie.value)
      else jar.delete(cookie.name)
    }
  }
  return jar
}

/** A Cookie header from a jar. */
export function cookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
}

/** The callback request of a browser that holds exactly the cookies in `jar`. */
export function callbackWith(site: Site, back: URL, jar: Map<string, string>) {
  return request(site.url).get(local(back)).set("Cookie", cookieHeader(jar))
}

/** The value a response set for a cookie (undefined when not set or cleared). */
export function cookieValue(response: ResponseLike, name: string): string | undefined {
  const cookie = setCookies(response).find((entry) => entry.name === name)
  return cookie?.value ? cookie.value : undefined
}

/** Where a redirect goes, as a URL relative to the site. */
export function location(site: Site, response: ResponseLike): URL {
  return new URL(String(response.headers.location), site.url)
}

/** Expects a redirect to the built-in sign-in page with `error`. */
export function expectSignInError(site: Site, response: ResponseLike, error: string): void {
  expect(response.status).toBe(302)
  const url = location(site, response)
  expect(url.pathname).toBe("/auth/signin")
  expect(url.searchParams.get("error")).toBe(error)
}

/** The types of the errors Gatehouse logged. */
export function loggedTypes(site: Site): string[] {
  return site.errors.mock.calls.map(([error]) => (error as AuthError).type ?? error.name)
}

export interface SeenRequest {
  url: string
  method: string
  headers: Headers
  body: URLSearchParams
}

/** A fetch that records every request (URL, method, headers, form body) before passing it to the real fetch. */
export function recordingFetch() {
  const seen: SeenRequest[] = []
  const impl = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input)
    const body = typeof init?.body === "string" || init?.body instanceof URLSearchParams ? String(init.body) : ""
    seen.push({ url, method: init?.method ?? "GET", headers: new Headers(init?.headers), body: new URLSearchParams(body) })
    return fetch(input, init)
  }) as typeof fetch
  return { seen, impl, symbol: customFetch, paths: () => seen.map((entry) => new URL(entry.url).pathname) }
}

/** GET /auth/session as the agent. */
export async function sessionOf(agent: Agent) {
  return (await agent.get("/auth/session").expect(200)).body as { user?: { name?: string; email?: string; image?: string }; expires?: string } | null
}

/** The payload of a sealed check cookie: `{ value, provider }`. */
export function openCheck(sealed: string | undefined, cookieName: string): Record<string, unknown> | undefined {
  return sealed ? openToken(sealed, [SECRET], cookieName)?.payload : undefined
}

/** The claims of the session cookie a response set (cookie strategy). */
export async function sessionClaims(response: ResponseLike) {
  return decode({ token: cookieValue(response, SESSION_COOKIE), secret: SECRET, salt: SESSION_COOKIE })
}

/** The payload of a JWT, unverified. */
export function jwtPayload(jwt: unknown): Record<string, unknown> {
  return JSON.parse(Buffer.from(String(jwt).split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>
}
