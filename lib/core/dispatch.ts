/**
 * The action table: which handler answers which method on which action, whether it needs a
 * provider, and whether it is a state-changing POST that must pass the CSRF check. Every error
 * a handler throws becomes exactly one outcome here (see error-outcome.ts).
 */
import { AuthError, InvalidProvider, MethodNotAllowed, UnknownAction } from "../errors.js"
import type { AuthAction, ResponseInternal } from "../types.js"
import type { Provider } from "../providers/types.js"
import { callback } from "../actions/callback/index.js"
import { csrf } from "../actions/csrf.js"
import { diagnostics } from "../actions/diagnostics.js"
import { watchDiagnostics } from "../actions/diagnostics-watch.js"
import { errorPage } from "../actions/error.js"
import { providers } from "../actions/providers.js"
import { getSessionAction, updateSessionAction } from "../actions/session.js"
import { signinPage, signinStart } from "../actions/signin/index.js"
import { signOut, signoutPage } from "../actions/signout.js"
import { verifyRequestPage } from "../actions/verify-request.js"
import { webauthnOptions } from "../actions/webauthn-options.js"
import { noticePage } from "../actions/notice.js"
import type { ResolvedConfig } from "./config/resolved.js"
import type { AuditEvents, Route, RouteMethod, Routes } from "./capability.js"
import { CAPABILITIES } from "../capabilities.js"
import { createContext } from "./context.js"
import { assertCsrf } from "./csrf.js"
import { toErrorOutcome } from "./error-outcome.js"
import type { InternalRequest } from "./request.js"
import { setEventHooks } from "./events.js"
import { withRequestScope } from "./request-tracking.js"
import { traceAction, type ActionTrace } from "../telemetry/action.js"

const CORE_ROUTES: Record<string, Routes> = {
  csrf: { GET: { handler: csrf, api: true, head: true } },
  diagnostics: { GET: { handler: diagnostics, head: true } },
  providers: { GET: { handler: providers, api: true, head: true } },
  session: {
    GET: { handler: getSessionAction, api: true, head: true },
    POST: { handler: updateSessionAction, csrf: true, api: true },
  },
  signin: {
    GET: { handler: signinPage, provider: "optional", head: true },
    POST: { handler: signinStart, provider: "required", csrf: true },
  },
  signout: {
    GET: { handler: signoutPage, head: true },
    POST: { handler: signOut, csrf: true },
  },
  error: { GET: { handler: errorPage, head: true } },
  "verify-request": { GET: { handler: verifyRequestPage, head: true } },
  callback: {
    GET: { handler: callback, provider: "required" },
    // OAuth form_post callbacks come from the provider's site and are protected by `state`. The
    // email POSTs (the link's confirm button, a typed code) are checked: see actions/callback/email.ts.
    POST: { handler: callback, provider: "required", csrf: (p) => p.type === "credentials" || p.type === "webauthn" || p.type === "email" },
  },
  "webauthn-options": { GET: { handler: webauthnOptions, provider: "required", api: true } },
  notice: { GET: { handler: noticePage, head: true } },
}

/** The spec's routes and every capability's (lib/capabilities.ts), one table; an action name is taken once. */
const ROUTES = Object.create(null) as Record<AuthAction, Routes>
for (const [owner, routes] of [["the core", CORE_ROUTES] as const, ...CAPABILITIES.map((capability) => [capability.name, capability.routes ?? {}] as const)]) {
  for (const [action, methods] of Object.entries(routes)) {
    if (action in ROUTES) throw new Error(`The action "${action}" of ${owner} is taken already`)
    ROUTES[action as AuthAction] = methods
  }
}

/**
 * The capabilities that listen to what actions throw and to events (`onActionError`, `onEvent`),
 * listed once at start-up so a request asks no other, and what each event is recorded as in the
 * audit trail (`auditEvents`; an event is described once). events.ts gets them from here: it cannot
 * import the capability list itself, as capabilities' actions fire events.
 */
const ACTION_ERROR_HOOKS = CAPABILITIES.flatMap((capability) => (capability.onActionError ? [capability.onActionError] : []))
const AUDIT_EVENTS: AuditEvents = Object.create(null) as AuditEvents
for (const capability of CAPABILITIES) {
  for (const name of Object.keys(capability.auditEvents ?? {})) {
    if (name in AUDIT_EVENTS) throw new Error(`The audit record of the event "${name}" is described twice (again by ${capability.name})`)
  }
  Object.assign(AUDIT_EVENTS, capability.auditEvents)
}
setEventHooks(
  CAPABILITIES.flatMap((capability) => (capability.onEvent ? [capability.onEvent] : [])),
  AUDIT_EVENTS,
)

/** Every method each action answers (HEAD aside): the list the assurance table test checks against. */
const METHODS: readonly RouteMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"]

export function routeList(): Array<{ method: RouteMethod; action: AuthAction }> {
  return (Object.keys(ROUTES) as AuthAction[]).flatMap((action) => METHODS.filter((method) => ROUTES[action][method]).map((method) => ({ method, action })))
}

function allowed(routes: Routes): string {
  const methods: string[] = []
  if (routes.GET) methods.push(routes.GET.head ? "GET, HEAD" : "GET")
  for (const method of METHODS.slice(1)) if (routes[method]) methods.push(method)
  return methods.join(", ")
}

function findRoute(request: InternalRequest): Route {
  const routes = ROUTES[request.action]
  const method = request.method === "HEAD" ? "GET" : request.method
  const route = (METHODS as readonly string[]).includes(method) ? routes[method as RouteMethod] : undefined
  if (!route || (request.method === "HEAD" && !route.head)) {
    throw new MethodNotAllowed(`${request.action} does not accept ${request.method}`, { allow: allowed(routes) })
  }
  return route
}

function findProvider(config: ResolvedConfig, request: InternalRequest, route: Route): Provider | undefined {
  if (!route.provider) return undefined
  const provider = request.providerId === undefined ? undefined : config.providers.byId.get(request.providerId)
  if (provider) return provider
  if (request.providerId === undefined && route.provider === "optional") return undefined
  throw new InvalidProvider(request.providerId === undefined ? `${request.action} needs a provider id` : "No provider has that id")
}

export interface DispatchOptions {
  /** `raw` integrations: throw AuthErrors to the caller instead of answering them. */
  throwErrors?: boolean
}

export function dispatch(request: InternalRequest, config: ResolvedConfig, options?: DispatchOptions): Promise<ResponseInternal> {
  const telemetry = config.telemetry
  // One span per action (lib/telemetry/action.ts); `trace` learns the provider and the error.
  // Its request id and scope (request-tracking.ts), then one span per action (lib/telemetry/action.ts).
  return withRequestScope(request, config, () => (telemetry ? traceAction(telemetry, request, (trace) => run(request, config, options, trace)) : run(request, config, options)))
}

async function run(request: InternalRequest, config: ResolvedConfig, options?: DispatchOptions, trace?: ActionTrace): Promise<ResponseInternal> {
  const ctx = createContext(config, request)
  // What the diagnostics page would find, logged once per configuration (issue #26).
  watchDiagnostics(ctx)
  if (trace) trace.sessionCookie = ctx.cookies.sessionToken.name
  let response: ResponseInternal
  try {
    // Off (production by default): answered exactly like a path that is no action at all.
    if (request.action === "diagnostics" && !config.diagnostics) throw new UnknownAction("No action at diagnostics (off)")
    const route = findRoute(request)
    if (route.api) ctx.wantsJson = true
    const provider = findProvider(config, request, route)
    if (trace) trace.provider = provider
    if (request.readBody && request.body === undefined && !route.ownBody && (request.method === "POST" || request.method === "PUT" || request.method === "PATCH")) request.body = await request.readBody()
    const needsCsrf = typeof route.csrf === "function" ? route.csrf(provider as Provider) : route.csrf
    if (needsCsrf) assertCsrf(ctx)
    response = await route.handler(ctx, provider as Provider)
  } catch (error) {
    if (trace) trace.error = error
    for (const hook of ACTION_ERROR_HOOKS) hook(ctx, error)
    if (options?.throwErrors && error instanceof AuthError && !ctx.returnRedirect) throw error
    response = toErrorOutcome(error, ctx)
  }
  if (ctx.outCookies.length) response.cookies = [...(response.cookies ?? []), ...ctx.outCookies]
  if (ctx.returnRedirect && response.redirect) {
    response = { ...response, status: 200, body: { url: response.redirect }, redirect: undefined, headers: { ...response.headers, "Content-Type": "application/json; charset=utf-8" } }
  }
  return response
}
