/**
 * `csrfToken(req, res, config)`: the CSRF token for the app's own form that posts to Gatehouse (a
 * sign-in page of its own, say), without a request to the `csrf` action. It is the request's token
 * when its CSRF cookie is valid; otherwise a new one, its cookie set on `res`, as `GET <base>/csrf`
 * does. Asked twice while answering one request, it gives the same token (and sets one cookie).
 */
import { UnknownAction } from "../errors.js"
import type { AuthConfigInput } from "../types.js"
import { createContext } from "../core/context.js"
import { ensureCsrfToken } from "../core/csrf.js"
import { setCookieLines } from "../core/set-cookie.js"
import { resolveFor } from "./config.js"
import { toInternalRequest } from "./request.js"
import { appendSetCookie } from "./respond.js"
import type { GatehouseRequest, GatehouseResponse } from "./types.js"

/** The token given for a request already (its new cookie is not on the request yet). */
const given = new WeakMap<GatehouseRequest, string>()

export async function csrfToken(req: GatehouseRequest, res: GatehouseResponse, config: AuthConfigInput): Promise<string> {
  const known = given.get(req)
  if (known) return known
  const resolved = await resolveFor(req, config)
  if (resolved.skipCSRFCheck) throw new UnknownAction("CSRF protection is disabled (skipCSRFCheck), so there is no CSRF token")
  const ctx = createContext(resolved, toInternalRequest(req, resolved, { action: "csrf", method: "GET", basePath: resolved.basePath, body: {}, serverAction: true }))
  const token = ensureCsrfToken(ctx)
  if (ctx.outCookies.length) appendSetCookie(res, setCookieLines(ctx.outCookies))
  given.set(req, token)
  return token
}
