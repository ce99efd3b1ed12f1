/**
 * Shared pieces of the provider catalog tests: a fetch that answers OpenID discovery documents
 * locally (and records what it was asked), a sign-in start through a real Gatehouse app, and a
 * loopback "provider" server that records every request it receives.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { customFetch } from "../../lib/core/symbols.js"
import type { OAuthProviderConfig } from "../../lib/providers/types.js"
import type { AuthConfig } from "../../lib/types.js"
import { csrfToken, makeApp, request, serve, testConfig } from "../helpers/app.js"

export { customFetch }

/**
 * A catalog provider's record, whatever its profile type. Gatehouse's `Provider` type only takes
 * `OAuthProviderConfig<Profile>` (its `profile(profile: P)` parameter makes the type invariant in
 * P), so a factory's `OAuthProviderConfig<GitHubProfile>` must be widened to go into `providers`
 * (see lib-gaps.test.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CatalogProvider = OAuthProviderConfig<any>

/** `provider` as the core's `Provider` type (see CatalogProvider). */
export function asProvider(provider: CatalogProvider): OAuthProviderConfig {
  return provider as OAuthProviderConfig
}

export interface DiscoveryDocument {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
  userinfo_endpoint?: string
  jwks_uri: string
  [field: string]: unknown
}

export interface RecordingFetch {
  fetch: typeof fetch
  /** Every URL asked for, in order. */
  urls: string[]
}

function hrefOf(input: Parameters<typeof fetch>[0]): string {
  return input instanceof Request ? input.url : String(input)
}

/** A fetch answering the discovery documents in `documents` (by their exact URL) and 404 otherwise. */
export function discoveryFetch(documents: Record<string, DiscoveryDocument>): RecordingFetch {
  const urls: string[] = []
  const fetchImpl = (async (input: Parameters<typeof fetch>[0]) => {
    const href = hrefOf(input)
    urls.push(href)
    const document = documents[href]
    return document ? Response.json(document) : new Response("not found", { status: 404 })
  }) as typeof fetch
  return { fetch: fetchImpl, urls }
}

/** The discovery document of a standard OIDC provider at `issuer` (endpoints under `base`). */
export function oidcDocument(issuer: string, endpoints: Partial<DiscoveryDocument> = {}): DiscoveryDocument {
  const base = issuer.replace(/\/+$/, "")
  return {
    issuer,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    userinfo_endpoint: `${base}/userinfo`,
    jwks_uri: `${base}/jwks`,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    ...endpoints,
  }
}

/** The well-known URL of an OIDC issuer (`/.well-known/openid-configuration` after its path). */
export function wellKnownOf(issuer: string): string {
  const url = new URL(issuer)
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/.well-known/openid-configuration`
  return url.href
}

export interface SigninStart {
  status: number
  location: URL
  /** The origin supertest served the app on (the redirect_uri's origin). */
  origin: string
}

/** POSTs signin/<id> with a CSRF token through a Gatehouse app with `provider` and returns where it sends the browser. */
export async function startSignin(provider: CatalogProvider, config: Partial<AuthConfig> = {}): Promise<SigninStart> {
  const app = makeApp(testConfig({ providers: [asProvider(provider)], ...config }))
  const agent = request.agent(app)
  const token = await csrfToken(agent)
  const response = await agent.post(`/auth/signin/${provider.id}`).type("form").send({ csrfToken: token })
  if (response.status !== 302) throw new Error(`signin answered ${response.status}: ${response.text.slice(0, 300)}`)
  const location = new URL(response.headers.location as string)
  return { status: response.status, location, origin: new URL(location.searchParams.get("redirect_uri") ?? "http://invalid").origin }
}

export interface RecordedRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage["headers"]
  body: string
}

export type Route = (request: RecordedRequest, res: ServerResponse) => void

export interface LocalProvider {
  url: string
  requests: RecordedRequest[]
  /** Requests to `path`, in order. */
  at(path: string): RecordedRequest[]
  routes: Record<string, Route>
  close(): Promise<void>
}

/** A loopback HTTP server answering `routes` by path (404 otherwise) and recording every request. */
export async function localProvider(routes: Record<string, Route>): Promise<LocalProvider> {
  const requests: RecordedRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1")
      const recorded: RecordedRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      }
      requests.push(recorded)
      const route = provider.routes[url.pathname]
      if (route) route(recorded, res)
      else {
        res.statusCode = 404
        res.end("not found")
      }
    })
  })
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const { port } = server.address() as AddressInfo
  const provider: LocalProvider = {
    url: `http://127.0.0.1:${port}`,
    requests,
    at: (path) => requests.filter((entry) => entry.path === path),
    routes,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      }),
  }
  return provider
}

export function sendJson(res: ServerResponse, body: unknown, status = 200): void {
  res.statusCode = status
  res.setHeader("content-type", "application/json; charset=utf-8")
  res.end(JSON.stringify(body))
}

/** An authorization endpoint that sends the browser back to redirect_uri with `code` and the same `state`. */
export function authorizeRoute(code: string): Route {
  return (recorded, res) => {
    const back = new URL(recorded.query.get("redirect_uri") ?? "http://invalid/")
    back.searchParams.set("code", code)
    const state = recorded.query.get("state")
    if (state !== null) back.searchParams.set("state", state)
    res.statusCode = 302
    res.setHeader("location", back.href)
    res.end()
  }
}

/** A fetch sending every request for `hosts` to `local` instead (same path and query), others to the global fetch. */
export function redirectingFetch(hosts: string[], local: string): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = new URL(hrefOf(input))
    if (hosts.includes(url.host)) {
      const target = new URL(`${url.pathname}${url.search}`, local)
      return fetch(target, init)
    }
    return fetch(input, init)
  }) as typeof fetch
}

/** Follows an authorization URL at the local server (same path and query) and returns where it sends the browser back. */
export async function authorizeAt(local: string, authorizationUrl: URL): Promise<URL> {
  const response = await fetch(new URL(`${authorizationUrl.pathname}${authorizationUrl.search}`, local), { redirect: "manual" })
  const location = response.headers.get("location")
  if (response.status !== 302 || !location) throw new Error(`The local authorization endpoint answered ${response.status}`)
  return new URL(location)
}

export interface FlowResult {
  /** The authorization URL Gatehouse sent the browser to. */
  authorization: URL
  /** Where the provider sent the browser back (the app's callback URL). */
  returned: URL
  /** The app's answer to the callback GET. */
  callback: { status: number; location: string | undefined }
  /** GET /auth/session afterwards. */
  session: { user?: { name?: string | null; email?: string | null; image?: string | null } } | null
  /** Everything Gatehouse logged as an error. */
  errors: Error[]
}

/**
 * A whole sign-in through a Gatehouse app on a loopback port: the sign-in POST, the authorization
 * URL followed at `local` (same path and query, whatever host the URL names), the callback GET.
 */
export async function signInThrough(provider: CatalogProvider, local: string, config: Partial<AuthConfig> = {}): Promise<FlowResult> {
  const errors: Error[] = []
  const app = makeApp(testConfig({ providers: [asProvider(provider)], logger: { error: (error: Error) => errors.push(error) }, ...config }))
  const site = await serve(app)
  try {
    const agent = request.agent(site.url)
    const token = await csrfToken(agent)
    const start = await agent.post(`/auth/signin/${provider.id}`).type("form").send({ csrfToken: token, callbackUrl: `${site.url}/dashboard` })
    if (start.status !== 302) throw new Error(`signin answered ${start.status}: ${start.text.slice(0, 300)}`)
    const authorization = new URL(start.headers.location as string)
    const returned = await authorizeAt(local, authorization)
    const callback = await agent.get(`${returned.pathname}${returned.search}`)
    const session = await agent.get("/auth/session").expect(200)
    return {
      authorization,
      returned,
      callback: { status: callback.status, location: callback.headers.location as string | undefined },
      session: session.body as FlowResult["session"],
      errors,
    }
  } finally {
    await site.close()
  }
}

/** The declared keys of an interface, without its index signature (`extends Record<string, unknown>`). */
export type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] }

/** The declared optional keys of T (index signature excluded). */
export type OptionalKeys<T> = { [K in KnownKeys<T>]-?: object extends Pick<T, K> ? K : never }[KnownKeys<T>]

/** The declared required keys of T (index signature excluded). */
export type RequiredKeys<T> = Exclude<KnownKeys<T>, OptionalKeys<T>>
