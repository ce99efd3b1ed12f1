/**
 * `GET session`: the session, or `null`. `POST session`: an update; the client's `data` goes to
 * the `jwt` callback (trigger "update") and the `session` callback (`newSession`), and the
 * updated session is returned. Reading never fails loudly: a bad cookie is simply no session.
 */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { json } from "../core/response.js"
import { readSession } from "../session/read.js"

export async function getSessionAction(ctx: RequestContext): Promise<ResponseInternal> {
  const result = await readSession(ctx.config, ctx.request.cookies, ctx.cookies)
  ctx.outCookies.push(...result.cookies)
  return json(result.session)
}

export async function updateSessionAction(ctx: RequestContext): Promise<ResponseInternal> {
  const data = ctx.request.body?.data
  const result = await readSession(ctx.config, ctx.request.cookies, ctx.cookies, { data })
  ctx.outCookies.push(...result.cookies)
  return json(result.session)
}
