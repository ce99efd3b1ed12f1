/**
 * Express/Connect `req` to the internal request. No web Request is built here; one is made only
 * if a callback asks for it (`webRequest()`).
 */
import type { TLSSocket } from "node:tls"
import type { AuthAction, Session } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { InternalRequest } from "../core/request.js"
import { requestScheme, siteOf, type SiteHints } from "../core/site.js"
import type { CookieJar } from "../session/chunks.js"
import { clientAddress } from "../rate-limit/client-address.js"
import { cookieHeaderKept, parseCookieHeader } from "./cookie-header.js"
import { readExpressBody } from "./body.js"
import type { GatehouseRequest } from "./types.js"
import type { AdapterError } from "../errors.js"
import type { SessionIdentity } from "../session/cookie-strategy.js"

/**
 * What Gatehouse remembers about one request, in one property. Express gives every request its
 * prototype (`Object.setPrototypeOf`), after which V8 makes each property added to that request a
 * map of its own (~1 µs a property, issue #36): so one property for all of it, added only when
 * something must be remembered.
 */
const STATE = Symbol("gatehouse.request")

/** The session read for a request under one configuration (lib/express/session.ts). */
export interface SessionRead {
  config: ResolvedConfig
  session: Session | null
  /** Whose session and which one (listing and revoking sessions). */
  identity?: SessionIdentity
  /** The adapter failed during the read (already logged). */
  failure?: AdapterError
}

export interface RequestState {
  /** The cookies, when asking again would not give the same jar for free. */
  cookies?: CookieJar
  /** The session read for this request (lib/express/session.ts). */
  session?: SessionRead
}

/** The request's state, if anything was remembered yet. */
export function stateOf(req: GatehouseRequest): RequestState | undefined {
  return (req as unknown as Record<symbol, RequestState | undefined>)[STATE]
}

/** Adds the state (the one property) to a request that has none yet: the caller looked, `stateOf` gave undefined. */
export function addState(req: GatehouseRequest): RequestState {
  const state: RequestState = {}
  ;(req as unknown as Record<symbol, RequestState>)[STATE] = state
  return state
}

/**
 * Cookies, parsed once per request (or taken from cookie-parser when it ran); read only. A jar the
 * cookie-header memo keeps is not stored on the request: asking again finds it with one lookup (the
 * header string keeps its hash), and nothing is added to `req`. `state`: the request's state when
 * the caller has it already (each look for a property `req` lacks walks Express's prototypes).
 */
export function cookiesOf(req: GatehouseRequest, state = stateOf(req)): CookieJar {
  if (state?.cookies) return state.cookies
  const fromParser = req.cookies
  if (fromParser && typeof fromParser === "object" && !Array.isArray(fromParser)) return ((state ?? addState(req)).cookies = fromParser as CookieJar)
  const header = req.headers.cookie ?? ""
  const jar = parseCookieHeader(header)
  if (cookieHeaderKept(header)) return jar
  return ((state ?? addState(req)).cookies = jar)
}

export function headerOf(req: GatehouseRequest): (name: string) => string | undefined {
  return (name) => {
    const value = req.headers[name]
    return Array.isArray(value) ? value[0] : value
  }
}

type TrustFn = (address: string, hop: number) => boolean

/**
 * Does the app trust the hop that sent `req` to speak for the client? Express's compiled
 * `trust proxy` setting, asked about the socket's peer exactly as `req.protocol` and `req.host`
 * ask it. Without an Express app (Connect, node:http) nothing is trusted: set AUTH_URL there.
 */
export function trustsForwarded(req: GatehouseRequest): boolean {
  const app = (req as { app?: { get?: (name: string) => unknown } }).app
  const trust = typeof app?.get === "function" ? app.get("trust proxy fn") : undefined
  const peer = req.socket?.remoteAddress
  return typeof trust === "function" && peer !== undefined && (trust as TrustFn)(peer, 0) === true
}

export function hintsOf(req: GatehouseRequest): SiteHints {
  return {
    protocol: (req.socket as TLSSocket | undefined)?.encrypted ? "https" : "http",
    header: headerOf(req),
    trustForwarded: () => trustsForwarded(req),
  }
}

/** Is this request's site served over HTTPS (for the cookie names)? Cheap: no host parsing. */
export function isSecureRequest(req: GatehouseRequest, config: ResolvedConfig): boolean {
  if (config.authUrl) return config.authUrl.protocol === "https:"
  // No forwarded scheme to weigh: the connection's own (the common case, without the hints object).
  if (req.headers["x-forwarded-proto"] === undefined) return (req.socket as TLSSocket | undefined)?.encrypted === true
  return requestScheme(config.authUrl, hintsOf(req)) === "https"
}

/** The URL as received, before any mount path was stripped. */
export function originalUrlOf(req: GatehouseRequest): string {
  return req.originalUrl ?? req.url ?? "/"
}

/**
 * The request target as a path on this site: an absolute-form target
 * (`GET http://host/x HTTP/1.1`) gives its path and query, its authority dropped; `*` or anything
 * else that is not a path gives `/`.
 */
export function requestPathOf(req: GatehouseRequest): string {
  const target = originalUrlOf(req)
  if (target.startsWith("/")) return target
  try {
    const url = new URL(target)
    return /^https?:$/.test(url.protocol) ? `${url.pathname}${url.search}` : "/"
  } catch {
    return "/"
  }
}

export function splitUrl(url: string): { path: string; search: string } {
  const mark = url.indexOf("?")
  return mark === -1 ? { path: url, search: "" } : { path: url.slice(0, mark), search: url.slice(mark + 1) }
}

function webRequestOf(req: GatehouseRequest, origin: string, body: () => Record<string, unknown> | undefined): () => Request {
  let built: Request | undefined
  return () => {
    if (built) return built
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name.startsWith(":")) continue
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
    }
    const method = req.method ?? "GET"
    const parsed = body()
    let payload: string | undefined
    if (method !== "GET" && method !== "HEAD" && parsed) {
      const json = (req.headers["content-type"] ?? "").includes("json")
      payload = json
        ? JSON.stringify(parsed)
        : new URLSearchParams(Object.entries(parsed).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((item) => [k, String(item)]))).toString()
      headers.delete("content-length")
    }
    built = new Request(new URL(originalUrlOf(req), origin), { method, headers, body: payload })
    return built
  }
}

export interface InternalRequestInput {
  action: AuthAction
  providerId?: string
  method?: string
  basePath: string
  body?: Record<string, unknown>
  serverAction?: boolean
  trustedParams?: boolean
}

export function toInternalRequest(req: GatehouseRequest, config: ResolvedConfig, input: InternalRequestInput): InternalRequest {
  const hints = hintsOf(req)
  const site = siteOf(config.authUrl, hints)
  const { search } = splitUrl(originalUrlOf(req))
  // Read when an action asks (rate limits, devices, audit), not for every request.
  let address: { value: string | undefined } | undefined
  const internal: InternalRequest = {
    method: (input.method ?? req.method ?? "GET").toUpperCase(),
    action: input.action,
    providerId: input.providerId,
    origin: site.origin,
    basePath: input.basePath,
    secure: site.secure,
    query: new URLSearchParams(search),
    body: input.body,
    readBody: input.body ? undefined : () => readExpressBody(req),
    cookies: cookiesOf(req),
    get clientAddress() {
      address ??= { value: clientAddress(req as Parameters<typeof clientAddress>[0]) }
      return address.value
    },
    header: hints.header,
    trustForwarded: hints.trustForwarded,
    source: req as InternalRequest["source"],
    webRequest: webRequestOf(req, site.origin, () => internal.body),
    serverAction: input.serverAction,
    trustedParams: input.trustedParams,
  }
  return internal
}
