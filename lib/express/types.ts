/**
 * The request and response shapes the Express integration needs. Only Node's http types plus the
 * fields Express (or Connect) adds, so the middleware also runs in a plain Connect app; Express's
 * own `Request` is assignable to these.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Session } from "../types.js"

export interface GatehouseRequest extends IncomingMessage {
  auth?: Session | null
  body?: unknown
  cookies?: unknown
  /** Express: the path the router was mounted at. */
  baseUrl?: string
  /** Express/Connect: the URL before mount paths were stripped. */
  originalUrl?: string
  res?: ServerResponse
}

export interface GatehouseResponse extends ServerResponse {
  locals?: Record<string, unknown>
}

export type NextFunction = (error?: unknown) => void

export type Middleware = (req: GatehouseRequest, res: GatehouseResponse, next: NextFunction) => void

declare global {
  // Express's request and locals, augmented so `req.auth` and `res.locals.auth` are typed.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The session, set by `authSession` or `requireAuth`; null when signed out. */
      auth?: Session | null
    }
    interface Locals {
      auth?: Session | null
    }
  }
}
