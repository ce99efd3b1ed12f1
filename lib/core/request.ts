/**
 * The internal request: what every action reads, built by the Express integration from `req`
 * and by `Auth()` from a web Request. Small on purpose, so the Express path never builds a web
 * Request (one is made on demand only for callbacks that ask for it).
 */
import type { AuthAction, AuthRequestLike } from "../types.js"
import type { CookieJar } from "../session/chunks.js"

export interface InternalRequest {
  /** Upper-case HTTP method. */
  method: string
  action: AuthAction
  providerId?: string
  /** The site's origin for this request: AUTH_URL's, or from trusted Host/X-Forwarded-* headers. */
  origin: string
  /** The base path links are written with (`/auth` by default). */
  basePath: string
  /** Served over HTTPS (decides cookie names and `Secure`). */
  secure: boolean
  query: URLSearchParams
  /** Parsed form or JSON body of a POST (read by `dispatch` once the route is known). */
  body: Record<string, unknown> | undefined
  /** Reads and parses the body; throws a named error for a body Gatehouse will not read. */
  readBody?: () => Promise<Record<string, unknown>>
  /**
   * Made by a server-side helper (`signIn`, `signOut`) on the app's own route: no CSRF token is
   * expected, though a cross-site POST is still refused.
   */
  serverAction?: boolean
  /**
   * With `serverAction`: the `authorizationParams` come from the app's own code (`signIn()`), not
   * from a form the browser posted (`signInAction`), so they may set the scope.
   */
  trustedParams?: boolean
  cookies: CookieJar
  /**
   * The client's address for rate limits (Express: `req.ip`, else the socket's peer), normalised;
   * undefined where the integration cannot know it (a bare web Request).
   */
  clientAddress?: string
  header(name: string): string | undefined
  /**
   * Whether the hop that sent the request may set X-Forwarded-* (Express: `trust proxy`; the
   * web-standard core: always, as Auth.js). Absent: never.
   */
  trustForwarded?: () => boolean
  /** This request's id (lib/core/request-id.ts): set by `dispatch` when the integration did not. */
  requestId?: string
  /** The request as the framework gave it, for callbacks that receive the request. */
  source: AuthRequestLike
  /** A web Request for this request, built on first call. */
  webRequest(): Request
}

/** A single-valued query parameter: absent, repeated or empty values read as undefined. */
export function queryParam(request: Pick<InternalRequest, "query">, name: string): string | undefined {
  const values = request.query.getAll(name)
  return values.length === 1 && values[0] ? values[0] : undefined
}

/** A body field that is a string; arrays, objects and numbers read as undefined. */
export function bodyString(request: Pick<InternalRequest, "body">, name: string): string | undefined {
  const body = request.body
  if (!body || !Object.prototype.hasOwnProperty.call(body, name)) return undefined
  const value = body[name]
  return typeof value === "string" ? value : undefined
}
