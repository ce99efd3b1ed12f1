/** Per-request state, kept apart from the frozen configuration. */
import type { Cookie, CookiesOptions } from "../types.js"
import type { ResolvedConfig } from "./config/resolved.js"
import type { InternalRequest } from "./request.js"

export interface RequestContext {
  readonly config: ResolvedConfig
  readonly request: InternalRequest
  /** origin + basePath, with no trailing slash: `http://localhost:3000/auth`. */
  readonly baseUrl: string
  /** The cookie names and options for this request's scheme. */
  readonly cookies: CookiesOptions
  /** Cookies to add to whatever response this request ends with (success or error). */
  readonly outCookies: Cookie[]
  /** The client asked for JSON (Accept) or for redirects as JSON (X-Auth-Return-Redirect). */
  wantsJson: boolean
  readonly returnRedirect: boolean
  /** The callback URL, once the action has resolved it (error redirects carry it along). */
  callbackUrl?: string
}

export function cookieSet(config: ResolvedConfig, secure: boolean): CookiesOptions {
  return (config.useSecureCookies ?? secure) ? config.cookies.secure : config.cookies.plain
}

/** Accept asks for JSON rather than HTML. A browser navigation always accepts text/html. */
export function acceptsJsonOverHtml(accept: string | undefined): boolean {
  if (!accept) return false
  return accept.includes("application/json") && !accept.includes("text/html")
}

export function createContext(config: ResolvedConfig, request: InternalRequest): RequestContext {
  const returnRedirect = !request.serverAction && request.header("x-auth-return-redirect") === "1"
  return {
    config,
    request,
    baseUrl: `${request.origin}${request.basePath === "/" ? "" : request.basePath}`,
    cookies: cookieSet(config, request.secure),
    outCookies: [],
    wantsJson: returnRedirect || acceptsJsonOverHtml(request.header("accept")),
    returnRedirect,
  }
}
