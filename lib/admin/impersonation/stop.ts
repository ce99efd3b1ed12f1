/**
 * Stopping an impersonation (issue #30): the user's session it started ends (on every process),
 * and the admin's own session, stashed in this browser, is put back as it was. Also after the
 * impersonation ran out (the user's session reads as signed out then, the admin's is still kept).
 * `NotImpersonating` when this browser keeps no admin session.
 */
import type { RequestContext } from "../../core/context.js"
import { rotateCsrfToken } from "../../core/csrf.js"
import { endSignedOutSession } from "../../devices/sign-out.js"
import { openSessionToken } from "../../session/cookie-strategy.js"
import { deleteDatabaseSession, IMPERSONATION_PREFIX, sessionTokenOf } from "../../session/database-strategy.js"
import { writeChunked } from "../../session/chunks.js"
import { NotImpersonating } from "../errors.js"
import { clearStash, readStash } from "./stash.js"

/** Ends the impersonation in this browser; returns the admin's user id. */
export async function stopImpersonation(ctx: RequestContext): Promise<{ adminId: string; userId: string | null }> {
  const { config } = ctx
  const stashed = readStash(ctx)
  if (!stashed) throw new NotImpersonating("This browser is not impersonating anyone")
  const jar = ctx.request.cookies
  let userId: string | null = null
  if (config.session.strategy === "database") {
    // Only the impersonation's own session is ended here (never a session the browser holds otherwise).
    if (sessionTokenOf(jar, ctx.cookies)?.startsWith(IMPERSONATION_PREFIX)) userId = (await deleteDatabaseSession(config, jar, ctx.cookies))?.userId ?? null
  } else {
    const token = await openSessionToken(config, jar, ctx.cookies)
    if (token?.impersonatedBy !== undefined) {
      userId = typeof token.sub === "string" ? token.sub : null
      await endSignedOutSession(config, token)
    }
  }
  ctx.outCookies.push(...writeChunked(ctx.cookies.sessionToken, stashed.value, jar, new Date(Date.now() + config.session.maxAge * 1000)))
  ctx.outCookies.push(...clearStash(ctx))
  rotateCsrfToken(ctx)
  return { adminId: stashed.adminId, userId }
}
