/**
 * `requireAuth(config, options?)`: lets a request through when `authorized({ request, auth })`
 * says so (default: signed in). Otherwise a page request (one that accepts HTML) is redirected to
 * the sign-in page with `callbackUrl` set to the page it asked for, and an API request gets 401
 * with a JSON error. A web `Response` returned by the callback is sent as it is. A callback that
 * throws denies access (and is logged).
 *
 * When the session cannot be read because the adapter failed (database down), access is never
 * granted and the callback is not asked: a JSON client gets 503 `AdapterError` with Retry-After,
 * a page request the error page with status 503 (or a redirect to the app's `pages.error` with
 * `error=AdapterError`).
 */
import { AdapterError, InvalidOption, SessionRequired } from "../errors.js"
import type { AuthConfigInput, AuthorizedCallbackParams, Awaitable, Session } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { pageUrl } from "../core/pages-url.js"
import { ADAPTER_RETRY_AFTER } from "../core/error-outcome.js"
import { json, redirect } from "../core/response.js"
import { siteOf } from "../core/site.js"
import { errorModel } from "../pages/error.js"
import { publicMessage } from "../core/error-messages.js"
import { pageResponse } from "../pages/page.js"
import { configSource } from "./config.js"
import { hintsOf, requestPathOf } from "./request.js"
import { writeResponse, writeWebResponse } from "./respond.js"
import { exposeSession, requestSession } from "./session.js"
import { ERROR_PAGE_STATUS } from "../core/error-messages.js"
import { checkRule, checkRuleAgainst, judge, type OrganizationRule, type PermissionRule, type Verdict } from "../organizations/guard.js"
import type { GatehouseRequest, GatehouseResponse, Middleware } from "./types.js"
import { apiKeyRule, callerOf, holdsScopes, keySession, keySettings, refuseKey, requestKey, withinLimit, type ApiKeyRule } from "../api-keys/guard.js"
import { ApiKeyRequired, InsufficientScope } from "../api-keys/errors.js"
import type { ApiKeyCaller } from "../api-keys/caller.js"
import type { ResolvedApiKeys } from "../api-keys/settings.js"
import { accessTokenRule, presentsBearer, refuseToken, requestAccessToken, tokenCaller, tokenSession, type AccessTokenOption } from "../identity-provider/guard.js"
import { AccessTokenInvalid } from "../identity-provider/errors.js"

export interface RequireAuthOptions {
  /** Decides for this route instead of `callbacks.authorized`. */
  authorized?: (params: AuthorizedCallbackParams) => Awaitable<boolean | Response | undefined | null>
  /**
   * Step-up (issue #16): the sign-in must be at most this many seconds old (`auth.authTime`).
   * An older one is sent to sign in again (with the second factor when enrolled) and back here;
   * an API request gets 403 `RecentSignInRequired`.
   */
  maxAge?: number
  /**
   * Organizations (issue #27): the active organization's role must grant this permission
   * (`"project:write"`), every one of a list, or the function must say yes. No active
   * organization: 403 `OrganizationRequired`; not granted: 403 `PermissionDenied` (a browser
   * gets the error page). Checked from the session, with no database round trip.
   */
  permission?: PermissionRule
  /** Organizations: the user's role in the active organization must be this one (or one of these). */
  role?: string | readonly string[]
  /**
   * API keys (issue #31): `true` takes a key (`Authorization: Bearer <key>`) as well as a session,
   * `"only"` takes only keys. A request that presents a key is judged by the key alone.
   */
  apiKey?: boolean | "only"
  /** API keys: the key must hold this scope (every one of a list). Sessions are not scoped. */
  scope?: string | readonly string[]
  /**
   * Identity provider (issue #32): take the access tokens the app's `oidcProvider` issued for its
   * APIs (`Authorization: Bearer <JWT>`), with `audience` (the resource) and `scope` to hold;
   * `only: true` takes nothing else; `resourceMetadata` is told to clients in `WWW-Authenticate`
   * (RFC 9728, what MCP clients follow).
   */
  accessToken?: AccessTokenOption
}

/** The session's sign-in is recent enough for `maxAge` (a session without `authTime` never is). */
function recentEnough(session: Session, maxAge: number, now = Date.now()): boolean {
  return typeof session.authTime === "number" && now - session.authTime * 1000 <= maxAge * 1000
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function"
}

function wantsHtml(req: GatehouseRequest): boolean {
  return (req.headers.accept ?? "").includes("text/html")
}

function deny(req: GatehouseRequest, res: GatehouseResponse, config: ResolvedConfig, reason?: "RecentSignInRequired"): void {
  if (!wantsHtml(req)) {
    const type = reason ?? "SessionRequired"
    // A stale sign-in (step-up) is 403, as RecentSignInRequired is everywhere; no session is 401.
    writeResponse(res, json({ error: { type, message: publicMessage(type) } }, reason ? 403 : 401))
    return
  }
  let origin: string
  try {
    origin = siteOf(config.authUrl, hintsOf(req)).origin
  } catch (error) {
    config.logger.error(error as Error)
    writeResponse(res, json({ error: { type: "InvalidRequest", message: publicMessage("InvalidRequest") } }, 400))
    return
  }
  const site = { config, request: { origin }, baseUrl: `${origin}${config.basePath === "/" ? "" : config.basePath}` }
  // Concatenated, not resolved: a path like `//evil.example/x` must stay a path on this origin.
  let callbackUrl: string
  try {
    callbackUrl = new URL(`${origin}${requestPathOf(req)}`).href
  } catch {
    callbackUrl = `${origin}/`
  }
  writeResponse(res, redirect(pageUrl(site, "signIn", new URLSearchParams({ callbackUrl, ...(reason && { error: reason }) }))))
}

/** The adapter failed while reading the session: 503, never the protected handler. */
function unavailable(req: GatehouseRequest, res: GatehouseResponse, config: ResolvedConfig): void {
  const retry = { "Retry-After": String(ADAPTER_RETRY_AFTER) }
  const type = AdapterError.type
  if (!wantsHtml(req)) {
    writeResponse(res, json({ error: { type, message: publicMessage(type) } }, 503, retry))
    return
  }
  let origin: string | undefined
  try {
    origin = siteOf(config.authUrl, hintsOf(req)).origin
  } catch {
    origin = undefined
  }
  const site = origin === undefined ? undefined : { config, request: { origin }, baseUrl: `${origin}${config.basePath === "/" ? "" : config.basePath}` }
  if (site && config.pages.error) {
    writeResponse(res, redirect(pageUrl(site, "error", new URLSearchParams({ error: type }))))
    return
  }
  const model = errorModel(type, { signIn: site ? pageUrl(site, "signIn") : config.basePath, home: origin ?? "/" })
  const header = (name: string) => {
    const value = req.headers[name]
    return Array.isArray(value) ? value.join(", ") : value
  }
  const page = pageResponse({ config, request: { header } }, "error", model.heading, model, model.status)
  writeResponse(res, { ...page, headers: { ...page.headers, ...retry } })
}

/** The organization rule refused: 403 with the named error (JSON), or the error page. */
function refuse(req: GatehouseRequest, res: GatehouseResponse, config: ResolvedConfig, type: Exclude<Verdict, "allowed">): void {
  if (!wantsHtml(req)) {
    writeResponse(res, json({ error: { type, message: publicMessage(type) } }, 403))
    return
  }
  let origin: string
  try {
    origin = siteOf(config.authUrl, hintsOf(req)).origin
  } catch {
    origin = ""
  }
  const site = { config, request: { origin }, baseUrl: `${origin}${config.basePath === "/" ? "" : config.basePath}` }
  if (origin && config.pages.error) {
    writeResponse(res, redirect(pageUrl(site, "error", new URLSearchParams({ error: type }))))
    return
  }
  const model = errorModel(type, { signIn: pageUrl(site, "signIn"), home: origin || "/" }, undefined, ERROR_PAGE_STATUS)
  const header = (name: string) => {
    const value = req.headers[name]
    return Array.isArray(value) ? value.join(", ") : value
  }
  writeResponse(res, pageResponse({ config, request: { header } }, "error", model.heading, model, 403))
}

export function requireAuth(config: AuthConfigInput, options?: RequireAuthOptions): Middleware {
  const getConfig = configSource(config)
  const maxAge = options?.maxAge
  if (maxAge !== undefined && !(typeof maxAge === "number" && Number.isFinite(maxAge) && maxAge >= 0)) {
    throw new InvalidOption(`requireAuth: maxAge must be a number of seconds ≥ 0 (got ${JSON.stringify(maxAge)})`)
  }

  const rule: OrganizationRule | undefined = options?.permission !== undefined || options?.role !== undefined ? { permission: options.permission, role: options.role } : undefined
  if (rule) checkRule(rule)
  /** Configurations the rule was checked against (declared permissions, organizations on). */
  const checked = new WeakSet<ResolvedConfig>()
  const keys = apiKeyRule(options?.apiKey, options?.scope)
  const tokens = accessTokenRule(options?.accessToken)

  // Each step answers at once when it can (a static configuration, a cookie session read from the
  // caches, the default `authorized`), so a signed-in request reaches the route in the same tick.
  function check(req: GatehouseRequest, res: GatehouseResponse): boolean | Promise<boolean> {
    const resolved = getConfig(req)
    if (resolved instanceof Promise) return resolved.then((config) => checkWith(req, res, config))
    return checkWith(req, res, resolved)
  }

  function checkWith(req: GatehouseRequest, res: GatehouseResponse, resolved: ResolvedConfig): boolean | Promise<boolean> {
    if (tokens) {
      if (!resolved.oidcProvider) throw new InvalidOption("requireAuth: accessToken needs the oidcProvider option")
      const token = requestAccessToken(req)
      if (token !== undefined) return tokenCaller(res, resolved, tokens, token).then((found) => (found === false ? false : afterRead(req, res, resolved, tokenSession(found))))
      // Another bearer token (an opaque one, garbage) is refused as RFC 6750 says, unless it is an API key the route takes.
      if (presentsBearer(req) && !(keys && requestKey(req, keySettings(resolved)) !== undefined)) return refuseToken(res, tokens, new AccessTokenInvalid("The bearer token is not an access token this provider issued for an API"))
      if (tokens.only) return refuseToken(res, tokens, "missing")
    }
    if (keys) {
      const settings = keySettings(resolved)
      const presented = requestKey(req, settings)
      if (presented !== undefined) return withKey(req, res, resolved, settings, presented)
      if (keys.mode === "only") return refuseKey(res, new ApiKeyRequired("This route takes an API key"))
    }
    const read = requestSession(req, res, resolved)
    if (!(read instanceof Promise)) return afterRead(req, res, resolved, read)
    return read.then(
      (session) => afterRead(req, res, resolved, session),
      (error: unknown) => {
        // Logged by requestSession. Failing open here would let anyone in while the database is down.
        if (!(error instanceof AdapterError)) throw error
        unavailable(req, res, resolved)
        return false
      },
    )
  }

  /** A request that presents an API key: the key alone decides (issue #31). */
  function withKey(req: GatehouseRequest, res: GatehouseResponse, resolved: ResolvedConfig, settings: ResolvedApiKeys, presented: string): boolean | Promise<boolean> {
    const caller = callerOf(res, resolved, settings, presented)
    if (caller === false) return false
    if (caller instanceof Promise) return caller.then((found) => (found === false ? false : afterKey(req, res, resolved, settings, found)))
    return afterKey(req, res, resolved, settings, caller)
  }

  function afterKey(req: GatehouseRequest, res: GatehouseResponse, resolved: ResolvedConfig, settings: ResolvedApiKeys, caller: ApiKeyCaller): boolean | Promise<boolean> {
    const session = keySession(caller)
    if (!holdsScopes(caller, keys as ApiKeyRule)) return refuseKey(res, new InsufficientScope(`The route needs the scope ${(keys as ApiKeyRule).scopes.join(" and ")}`))
    const within = withinLimit(res, resolved, settings, caller)
    if (within === true) return afterRead(req, res, resolved, session)
    if (within === false) return false
    return within.then((yes) => (yes ? afterRead(req, res, resolved, session) : false))
  }

  function afterRead(req: GatehouseRequest, res: GatehouseResponse, resolved: ResolvedConfig, session: Session | null): boolean | Promise<boolean> {
    exposeSession(req, res, session)
    // A key never passes step-up: it has no sign-in (authTime) to be recent.
    if (maxAge !== undefined && session && !recentEnough(session, maxAge)) {
      deny(req, res, resolved, "RecentSignInRequired")
      return false
    }
    if (rule) {
      if (!session) {
        deny(req, res, resolved)
        return false
      }
      if (!checked.has(resolved)) {
        checkRuleAgainst(rule, resolved.organizations)
        checked.add(resolved)
      }
      const verdict = judge(session, rule)
      if (verdict instanceof Promise) return verdict.then((answer) => (answer === "allowed" ? authorize(req, res, resolved, session) : (refuse(req, res, resolved, answer), false)))
      if (verdict !== "allowed") {
        refuse(req, res, resolved, verdict)
        return false
      }
    }
    return authorize(req, res, resolved, session)
  }

  function authorize(req: GatehouseRequest, res: GatehouseResponse, resolved: ResolvedConfig, session: Session | null): boolean | Promise<boolean> {
    const decide = options?.authorized ?? resolved.callbacks.authorized
    let verdict: ReturnType<typeof decide>
    try {
      verdict = decide({ request: req as AuthorizedCallbackParams["request"], auth: session })
    } catch (error) {
      return denied(req, res, resolved, error)
    }
    if (isThenable(verdict)) {
      return Promise.resolve(verdict).then(
        (value) => conclude(req, res, resolved, value),
        (error: unknown) => denied(req, res, resolved, error),
      )
    }
    return conclude(req, res, resolved, verdict)
  }

  // A function of the middleware, not a closure made per request: only a throwing callback needs it.
  function denied(req: GatehouseRequest, res: GatehouseResponse, resolved: ResolvedConfig, error: unknown): boolean | Promise<boolean> {
    resolved.logger.error(new SessionRequired("The authorized callback threw; access denied", { cause: { err: error } }))
    return conclude(req, res, resolved, false)
  }

  function conclude(req: GatehouseRequest, res: GatehouseResponse, resolved: ResolvedConfig, verdict: boolean | Response | undefined | null): boolean | Promise<boolean> {
    if (verdict instanceof Response) return writeWebResponse(res, verdict).then(() => false)
    if (verdict) return true
    deny(req, res, resolved)
    return false
  }

  return function gatehouseRequireAuth(req, res, next) {
    let allowed: boolean | Promise<boolean>
    try {
      allowed = check(req, res)
    } catch (error) {
      next(error)
      return
    }
    if (allowed === true) next()
    else if (allowed !== false) allowed.then((yes) => (yes ? next() : undefined), next)
  }
}
