/**
 * Reading the session from Express/Connect requests: `authSession` (middleware: `req.auth`,
 * `res.locals.auth`) and `getSession` (a function). Both go straight to the session reader, not
 * through the action pipeline, and write a cookie only when the session was refreshed or is bad.
 */
import type { ServerResponse } from "node:http"
import type { AuthConfigInput, Session } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolve.js"
import { cookieSet } from "../core/context.js"
import { setCookieLines } from "../core/set-cookie.js"
import { readSession } from "../session/read.js"
import { configSource, resolveFor } from "./config.js"
import { cookiesOf, isSecureRequest } from "./request.js"
import { appendSetCookie } from "./respond.js"
import type { GatehouseRequest, GatehouseResponse, Middleware } from "./types.js"

const READ = Symbol("gatehouse.session")

interface SessionRead {
  config: ResolvedConfig
  session: Session | null
}

/**
 * The request's session under `config`, read once per request and configuration: `requireAuth`
 * after `authSession` (or a second `getSession`) reuses the first read.
 */
export async function requestSession(req: GatehouseRequest, res: ServerResponse | undefined, config: ResolvedConfig): Promise<Session | null> {
  const previous = (req as unknown as Record<symbol, SessionRead | undefined>)[READ]
  if (previous?.config === config) return previous.session
  const result = await readSession(config, cookiesOf(req), cookieSet(config, isSecureRequest(req, config)))
  if (res && result.cookies.length) appendSetCookie(res, setCookieLines(result.cookies))
  ;(req as unknown as Record<symbol, SessionRead>)[READ] = { config, session: result.session }
  return result.session
}

function expose(req: GatehouseRequest, res: GatehouseResponse, session: Session | null): void {
  req.auth = session
  if (res.locals) res.locals.auth = session
  else res.locals = { auth: session }
}

/** Middleware: sets `req.auth` and `res.locals.auth` to the session, or null when signed out. */
export function authSession(config: AuthConfigInput): Middleware {
  const getConfig = configSource(config)
  return function gatehouseSession(req, res, next) {
    Promise.resolve(getConfig(req))
      .then((resolved) => requestSession(req, res, resolved))
      .then((session) => {
        expose(req, res, session)
        next()
      }, next)
  }
}

/** The session of `req`, or null. Refreshed cookies go on `req.res` when Express provides it. */
export async function getSession(req: GatehouseRequest, config: AuthConfigInput): Promise<Session | null> {
  return requestSession(req, req.res, await resolveFor(req, config))
}

export { expose as exposeSession }
