/** The identity of the request's session, for the sessions actions; `SessionRequired` when signed out. */
import type { RequestContext } from "../../core/context.js"
import { SessionRequired, UnknownAction } from "../../errors.js"
import type { SessionIdentity } from "../../session/cookie-strategy.js"
import { readSession } from "../../session/read.js"
import { clientInfo } from "../../sessions/ids.js"

export async function signedInIdentity(ctx: RequestContext): Promise<SessionIdentity> {
  const client = () => clientInfo(ctx.request.header("user-agent"), ctx.request.clientAddress)
  const result = await readSession(ctx.config, ctx.request.cookies, ctx.cookies, undefined, client)
  ctx.outCookies.push(...result.cookies)
  if (!result.session || !result.identity) throw new SessionRequired("The sessions actions need a signed-in user")
  return result.identity
}

/** `sessions` answers at `sessions` (GET) and `sessions/revoke` (POST) only. */
export function assertSubPath(ctx: RequestContext, expected: string | undefined): void {
  if (ctx.request.providerId !== expected) throw new UnknownAction(`No action at sessions/${ctx.request.providerId ?? ""}`)
}
