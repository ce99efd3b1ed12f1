/** The identity of the request's session, for the sessions actions; `SessionRequired` when signed out. */
import type { RequestContext } from "../../core/context.js"
import { UnknownAction } from "../../errors.js"
import type { SessionIdentity } from "../../session/cookie-strategy.js"
import { requireSignedIn } from "../../session/assurance.js"

export async function signedInIdentity(ctx: RequestContext): Promise<SessionIdentity> {
  return (await requireSignedIn(ctx, "session", "The sessions actions")).identity
}

/** `sessions` answers at `sessions` (GET) and `sessions/revoke` (POST) only. */
export function assertSubPath(ctx: RequestContext, expected: string | undefined): void {
  if (ctx.request.providerId !== expected) throw new UnknownAction(`No action at sessions/${ctx.request.providerId ?? ""}`)
}
