/**
 * Starting an impersonation (issue #30): the admin's own session is stashed in this browser
 * (stash.ts), and a session of the user starts in its place, for at most
 * `admin.impersonation.maxAge`, carrying `impersonatedBy`. Its `amr` and `authTime` are the
 * admin's sign-in's (the only authentication behind it). The app's `jwt` callback runs as for a
 * sign-in (`trigger: "signIn"`, no account), so the session holds what the app puts in the user's
 * own; the `signIn` callback and event do not run (the user did not sign in). Refused: an
 * impersonation inside another, the admin themself, a banned user, and an admin unless
 * `impersonation.admins`.
 */
import type { AdapterUser } from "../../adapters.js"
import type { JWT } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { rotateCsrfToken } from "../../core/csrf.js"
import { nowSeconds } from "../../jwt/codec.js"
import { clientInfo, databaseSessionId } from "../../devices/ids.js"
import { recordCookieSession, withSessionId } from "../../devices/registry.js"
import { readChunked } from "../../session/chunks.js"
import { writeSessionCookies } from "../../session/cookie-strategy.js"
import { createDatabaseSession } from "../../session/database-strategy.js"
import { keepReservedFacts, TOKEN_FACTS } from "../../session/reserved-facts.js"
import { recordSessionAmr } from "../../two-factor/facts.js"
import { adminSettingsOf, isAdminUser } from "../access.js"
import { activeBan } from "../bans.js"
import { ImpersonationDenied, ImpersonationRestricted } from "../errors.js"
import type { AdminHolder } from "../guard.js"
import { impersonatedBy, recordImpersonation, type ImpersonatedBy, type Impersonator } from "./facts.js"
import { readStash, stashCookies } from "./stash.js"

export async function startImpersonation(ctx: RequestContext, admin: AdminHolder, target: AdapterUser): Promise<ImpersonatedBy> {
  const { config } = ctx
  const settings = adminSettingsOf(config).impersonation
  if (!settings) throw new ImpersonationDenied("Impersonation is off (admin.impersonation)")
  if (admin.session.impersonatedBy || readStash(ctx)) throw new ImpersonationRestricted("Stop the current impersonation first")
  if (target.id === admin.user.id) throw new ImpersonationDenied("An admin cannot impersonate themself")
  if (!settings.admins && (await isAdminUser(config, target))) throw new ImpersonationDenied("Admins cannot impersonate other admins (admin.impersonation.admins)")
  if (await activeBan(config, target.id)) throw new ImpersonationDenied("A banned user cannot be impersonated: lift the ban first")

  const ownValue = readChunked(ctx.request.cookies, ctx.cookies.sessionToken.name)
  if (!ownValue) throw new ImpersonationDenied("The admin's session is not in a cookie this router can keep")
  const by: Impersonator = { id: admin.user.id, email: admin.user.email ?? null, name: admin.user.name ?? null }
  const now = nowSeconds()
  const ends = now + settings.maxAge
  const amr = admin.session.amr ?? []
  const authTime = admin.session.authTime ?? now
  const client = clientInfo(ctx.request.header("user-agent"), ctx.request.clientAddress)

  if (config.session.strategy === "database") {
    const cookies = await createDatabaseSession(config, ctx.request.cookies, ctx.cookies, target.id, client, new Date(ends * 1000))
    ctx.outCookies.push(...cookies)
    const sessionToken = cookies.find((cookie) => cookie.name === ctx.cookies.sessionToken.name)?.value
    if (sessionToken) {
      const sid = databaseSessionId(sessionToken)
      await Promise.all([recordImpersonation(config, sid, { by, ends }, settings.maxAge), recordSessionAmr(config, sid, amr, settings.maxAge)])
    }
  } else {
    const facts = { amr, authTime, impersonatedBy: by, impersonationEnds: ends }
    const base: JWT = { name: target.name, email: target.email, picture: target.image, sub: target.id, ...facts }
    const returned = await config.callbacks.jwt({ token: base, user: target, account: null, trigger: "signIn" })
    if (!returned) throw new ImpersonationDenied("The jwt callback refused a session for this user")
    const token = withSessionId(keepReservedFacts(returned, facts, TOKEN_FACTS))
    const { cookies, expires } = await writeSessionCookies(config, ctx.request.cookies, ctx.cookies, token)
    ctx.outCookies.push(...cookies)
    await recordCookieSession(config, token, Math.min(expires, ends) * 1000, client)
  }
  ctx.outCookies.push(...stashCookies(ctx, config, { value: ownValue, adminId: admin.user.id }))
  rotateCsrfToken(ctx)
  return impersonatedBy(by, ends)
}
