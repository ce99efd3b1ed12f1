/** `GET csrf`: the raw token for the client to post back; its hashed pair lives in the cookie. */
import { UnknownAction } from "../errors.js"
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { ensureCsrfToken } from "../core/csrf.js"
import { json } from "../core/response.js"

export function csrf(ctx: RequestContext): ResponseInternal {
  // The spec: with CSRF protection disabled this action does not exist.
  if (ctx.config.skipCSRFCheck) throw new UnknownAction("CSRF protection is disabled (skipCSRFCheck), so there is no csrf action")
  return json({ csrfToken: ensureCsrfToken(ctx) })
}
