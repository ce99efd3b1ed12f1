/**
 * Server-side `signIn` and `signOut`, for the app's own routes. They run the same actions as the
 * router, without a CSRF token (the app posted to its own route; a cross-site POST is still
 * refused), write the cookies on `res`, then redirect (default) or return the URL. Any failure
 * throws the `AuthError`: the app decides what to show.
 */
import { InvalidProvider } from "../errors.js"
import type { AuthConfigInput } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { createContext } from "../core/context.js"
import { assertSameSite } from "../core/csrf.js"
import { dispatch } from "../core/dispatch.js"
import { pageUrl } from "../core/pages-url.js"
import { runRedirectCallback } from "../core/callback-url.js"
import { setCookieLines } from "../core/set-cookie.js"
import { resolveFor } from "./config.js"
import { toInternalRequest } from "./request.js"
import { appendSetCookie, writeResponse } from "./respond.js"
import type { GatehouseRequest, GatehouseResponse } from "./types.js"

export type AuthorizationParams = string | Record<string, string> | URLSearchParams | Array<[string, string]>

export interface SignInOptions {
  /** Redirect the browser (default), or only return the URL. */
  redirect?: boolean
  /** Where to go after signing in: a path or a same-origin URL. Default: the page the user was on. */
  redirectTo?: string
  /** Credentials fields, or other provider options. */
  [field: string]: unknown
}

export interface SignOutOptions {
  redirect?: boolean
  redirectTo?: string
}

/** A plain object of fields from an options object, URLSearchParams or FormData. */
function fieldsOf(options: SignInOptions | URLSearchParams | FormData | undefined): Record<string, unknown> {
  if (!options) return {}
  if (options instanceof URLSearchParams || (typeof FormData !== "undefined" && options instanceof FormData)) {
    const fields: Record<string, unknown> = {}
    options.forEach((value, key) => {
      if (typeof value === "string") fields[key] = value
    })
    return fields
  }
  return { ...options }
}

/** The page the user was on: the Referer when it is on this site, else the site root. */
function currentPage(req: GatehouseRequest): string | undefined {
  const referer = req.headers.referer
  return typeof referer === "string" ? referer : undefined
}

function basePathOf(config: ResolvedConfig): string {
  return config.basePath
}

function finish(res: GatehouseResponse, url: string, shouldRedirect: boolean): string {
  if (shouldRedirect) writeResponse(res, { status: 302, redirect: url })
  return url
}

export function signIn(
  req: GatehouseRequest,
  res: GatehouseResponse,
  config: AuthConfigInput,
  provider?: string,
  options?: SignInOptions | URLSearchParams | FormData,
  authorizationParams?: AuthorizationParams,
): Promise<string> {
  return startSignIn(req, res, config, provider, options, authorizationParams, true)
}

/**
 * `signIn`, with where `authorizationParams` come from: the app's code (trusted: may set the
 * scope) or a form the browser posted (`signInAction`: may not).
 */
export async function startSignIn(
  req: GatehouseRequest,
  res: GatehouseResponse,
  config: AuthConfigInput,
  provider: string | undefined,
  options: SignInOptions | URLSearchParams | FormData | undefined,
  authorizationParams: AuthorizationParams | undefined,
  trustedParams: boolean,
): Promise<string> {
  const resolved = await resolveFor(req, config)
  const { redirect: shouldRedirect = true, redirectTo, ...fields } = fieldsOf(options)
  const target = typeof redirectTo === "string" ? redirectTo : currentPage(req)
  const basePath = basePathOf(resolved)
  if (!provider) {
    const request = toInternalRequest(req, resolved, { action: "signin", method: "GET", basePath, body: {}, serverAction: true })
    const ctx = createContext(resolved, request)
    const callbackUrl = await runRedirectCallback(ctx, target ?? request.origin)
    return finish(res, pageUrl(ctx, "signIn", new URLSearchParams({ callbackUrl })), shouldRedirect !== false)
  }
  const known = resolved.providers.byId.get(provider)
  if (!known) throw new InvalidProvider(`signIn: no provider has the id "${provider}"`)
  const action = known.type === "credentials" ? "callback" : "signin"
  const body: Record<string, unknown> = { ...fields }
  if (target !== undefined) body.callbackUrl = target
  if (authorizationParams !== undefined) body.authorizationParams = new URLSearchParams(authorizationParams as never).toString()
  const request = toInternalRequest(req, resolved, { action, providerId: provider, method: "POST", basePath, body, serverAction: true, trustedParams })
  assertSameSite(createContext(resolved, request))
  const response = await dispatch(request, resolved, { throwErrors: true })
  appendSetCookie(res, setCookieLines(response.cookies))
  return finish(res, response.redirect ?? request.origin, shouldRedirect !== false)
}

export async function signOut(req: GatehouseRequest, res: GatehouseResponse, config: AuthConfigInput, options?: SignOutOptions): Promise<string> {
  const resolved = await resolveFor(req, config)
  const target = options?.redirectTo ?? currentPage(req)
  const body: Record<string, unknown> = target === undefined ? {} : { callbackUrl: target }
  const request = toInternalRequest(req, resolved, { action: "signout", method: "POST", basePath: basePathOf(resolved), body, serverAction: true })
  const response = await dispatch(request, resolved, { throwErrors: true })
  appendSetCookie(res, setCookieLines(response.cookies))
  return finish(res, response.redirect ?? request.origin, options?.redirect !== false)
}
