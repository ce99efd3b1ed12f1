/**
 * Every admin request (issue #30), page or action: a signed-in user (`SessionRequired`), who is an
 * admin now (`AdminRequired`, decided on the stored state: access.ts), with a recent sign-in that
 * passed their second factor when they have one (`RecentSignInRequired`, lib/session/assurance.ts),
 * and not inside an impersonation (`ImpersonationRestricted`, checked there too).
 */
import type { RequestContext } from "../core/context.js"
import type { ResponseInternal } from "../types.js"
import { RecentSignInRequired, SessionRequired, type AuthError } from "../errors.js"
import { pageUrl } from "../core/pages-url.js"
import { redirect } from "../core/response.js"
import { assertRecentSignIn, requireHolder, type Holder } from "../session/assurance.js"
import { isAdminUser } from "./access.js"
import { AdminRequired, ImpersonationRestricted } from "./errors.js"

export type AdminHolder = Holder

export async function requireAdmin(ctx: RequestContext, what: string): Promise<AdminHolder> {
  const holder = await requireHolder(ctx, "session", what)
  if (holder.session.impersonatedBy) throw new ImpersonationRestricted(`${what} is refused while impersonating a user`)
  if (!(await isAdminUser(ctx.config, holder.user))) throw new AdminRequired(`${what} needs an admin`)
  await assertRecentSignIn(ctx.config, holder, what)
  return holder
}

/**
 * For the admin page: the admin, or the answer that sends a browser to sign in (again, for a stale
 * sign-in) and back to `back`. API calls (JSON) get the error itself.
 */
export async function adminOrSignIn(ctx: RequestContext, what: string, back: string): Promise<AdminHolder | ResponseInternal> {
  try {
    return await requireAdmin(ctx, what)
  } catch (error) {
    const refused = error instanceof SessionRequired || error instanceof RecentSignInRequired
    if (!refused || ctx.wantsJson) throw error
    const query = new URLSearchParams({ ...(error instanceof RecentSignInRequired && { error: (error as AuthError).type }), callbackUrl: back })
    return redirect(pageUrl(ctx, "signIn", query))
  }
}
