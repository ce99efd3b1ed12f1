/**
 * Reading the session from Express/Connect requests: `authSession` (middleware: `req.auth`,
 * `res.locals.auth`) and `getSession` (a function). Both go straight to the session reader, not
 * through the action pipeline, and write a cookie only when the session was refreshed or is bad.
 *
 * When the adapter fails during the read (database down), the AdapterError is logged once per
 * request and `authSession`/`getSession` give `null`: signed out for that request, so public pages
 * keep working and code that checks the session denies. `requireAuth` sees the failure itself
 * and answers 503 (see require-auth.ts); it never treats it as a session.
 */
import type { ServerResponse } from "node:http"
import type { AuthConfigInput, Session } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { cookieSet } from "../core/context.js"
import { setCookieLines } from "../core/set-cookie.js"
import { AdapterError } from "../errors.js"
import { readSession } from "../session/read.js"
import type { SessionIdentity } from "../session/cookie-strategy.js"
import { clientInfo } from "../devices/ids.js"
import { clientAddress } from "../rate-limit/client-address.js"
import { configSource, resolveFor } from "./config.js"
import { addState, cookiesOf, isSecureRequest, stateOf, type RequestState } from "./request.js"

export type { SessionRead } from "./request.js"
import { appendSetCookie } from "./respond.js"
import type { GatehouseRequest, GatehouseResponse, Middleware } from "./types.js"

/**
 * The request's session under `config`, read once per request and configuration: `requireAuth`
 * after `authSession` (or a second `getSession`) reuses the first read. An adapter failure is
 * logged here, remembered for the request like a result, and thrown (an AdapterError) to every
 * caller: `authSession`/`getSession` turn it into "signed out", `requireAuth` into a 503.
 *
 * Answers without a promise when the read did (a cookie session's common path), so the
 * middleware can go on in the same tick; `await` it otherwise.
 */
export function requestSession(req: GatehouseRequest, res: ServerResponse | undefined, config: ResolvedConfig): Session | null | Promise<Session | null> {
  const known = stateOf(req)
  const previous = known?.session
  if (previous?.config === config) {
    if (previous.failure) return Promise.reject(previous.failure)
    return previous.session
  }
  // The read is remembered whatever its outcome: the state is needed, made now (no second look).
  const state = known ?? addState(req)
  let read: ReturnType<typeof readSession>
  try {
    read = readSession(config, cookiesOf(req, state), cookieSet(config, isSecureRequest(req, config)), undefined, () => clientOf(req))
  } catch (error) {
    return Promise.reject(failed(state, config, error))
  }
  if (!(read instanceof Promise)) return settle(state, res, config, read)
  return read.then(
    (result) => settle(state, res, config, result),
    (error: unknown) => {
      throw failed(state, config, error)
    },
  )
}

function clientOf(req: GatehouseRequest) {
  return clientInfo(req.headers["user-agent"], clientAddress(req as Parameters<typeof clientAddress>[0]))
}

function settle(state: RequestState, res: ServerResponse | undefined, config: ResolvedConfig, result: Awaited<ReturnType<typeof readSession>>): Session | null {
  if (res && result.cookies.length) appendSetCookie(res, setCookieLines(result.cookies))
  state.session = { config, session: result.session, identity: result.identity }
  return result.session
}

/** An adapter failure is logged and remembered for the request; anything else goes on as it is. */
function failed(state: RequestState, config: ResolvedConfig, error: unknown): unknown {
  if (!(error instanceof AdapterError)) return error
  config.logger.error(error)
  state.session = { config, session: null, failure: error }
  return error
}

/** The request's session and its identity (read once per request, as `requestSession`); null when signed out. */
export async function requestIdentity(req: GatehouseRequest, res: ServerResponse | undefined, config: ResolvedConfig): Promise<SessionIdentity | null> {
  const session = await requestSession(req, res, config)
  const read = stateOf(req)?.session
  return session && read?.identity ? read.identity : null
}

/** The session, or null when the adapter failed (logged by `requestSession`); at once when the read was. */
function sessionOrSignedOut(req: GatehouseRequest, res: ServerResponse | undefined, config: ResolvedConfig): Session | null | Promise<Session | null> {
  const read = requestSession(req, res, config)
  if (!(read instanceof Promise)) return read
  return read.catch((error: unknown) => {
    if (error instanceof AdapterError) return null
    throw error
  })
}

function expose(req: GatehouseRequest, res: GatehouseResponse, session: Session | null): void {
  req.auth = session
  if (res.locals) res.locals.auth = session
  else res.locals = { auth: session }
}

/**
 * Middleware: sets `req.auth` and `res.locals.auth` to the session, or null when signed out (or
 * when the adapter failed: logged, and this request goes on signed out).
 */
export function authSession(config: AuthConfigInput): Middleware {
  const getConfig = configSource(config)
  const withSession = (req: GatehouseRequest, res: GatehouseResponse, next: (error?: unknown) => void, resolved: ResolvedConfig) => {
    const read = sessionOrSignedOut(req, res, resolved)
    if (read instanceof Promise) {
      read.then((session) => {
        expose(req, res, session)
        next()
      }, next)
      return
    }
    expose(req, res, read)
    next()
  }
  return function gatehouseSession(req, res, next) {
    let resolved: ReturnType<typeof getConfig>
    try {
      resolved = getConfig(req)
    } catch (error) {
      next(error)
      return
    }
    if (resolved instanceof Promise) resolved.then((config) => withSession(req, res, next, config), next)
    else withSession(req, res, next, resolved)
  }
}

/**
 * The session of `req`, or null (also when the adapter failed: logged). Refreshed cookies go on
 * `req.res` when Express provides it.
 */
export async function getSession(req: GatehouseRequest, config: AuthConfigInput): Promise<Session | null> {
  return sessionOrSignedOut(req, req.res, await resolveFor(req, config))
}

export { expose as exposeSession }
