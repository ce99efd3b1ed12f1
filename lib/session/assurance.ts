/**
 * How sure an action must be of who is asking (issue #24). Every action that reads the signed-in
 * user states one of:
 * - `session`: any live session (lib/session/signed-in.ts);
 * - `recent`: a live session whose sign-in is at most `session.recentSignIn` seconds old (default
 *   10 minutes) and, when the user has two-factor sign-in on, passed the second factor. Adding or
 *   removing a way in (passkey, provider link, password), two-factor changes, the email or
 *   password, and deleting the account need it. A refused `recent` is `RecentSignInRequired`:
 *   the person signs in again (with their second factor) and comes back; inside an admin's
 *   impersonation (issue #30) it is `ImpersonationRestricted`, whatever the sign-in.
 * Signed out (revoked, expired, pending two-factor): `SessionRequired`.
 */
import type { Adapter, AdapterUser } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { RequestContext } from "../core/context.js"
import { RecentSignInRequired, SessionRequired } from "../errors.js"
import { ImpersonationRestricted } from "../admin/errors.js"
import type { ResponseInternal } from "../types.js"
import { pageUrl } from "../core/pages-url.js"
import { redirect } from "../core/response.js"
import { listUserSessions } from "../devices/list.js"
import type { SessionIdentity } from "./cookie-strategy.js"
import { isSignedIn, readSignedIn, type SignedIn } from "./signed-in.js"

/** Requests whose read cookies are on the answer already. */
const reported = new WeakSet<RequestContext>()

export type Assurance = "session" | "recent"

/** A signed-in user with a stored record (actions that change the account need one). */
export type Holder = SignedIn & { user: AdapterUser }

/**
 * When the user last signed in (ms): the session's `authTime` (kept by refreshes, never moved by
 * adding a passkey or by a callback), else when the session started (sessions made before
 * `authTime` existed).
 */
async function signedInAt(config: ResolvedConfig, identity: SessionIdentity): Promise<number | undefined> {
  if (identity.authTime !== undefined) return identity.authTime * 1000
  if (identity.createdAt !== undefined) return identity.createdAt
  const current = (await listUserSessions(config, identity).catch(() => [])).find((session) => session.current)
  return current?.createdAt ? Date.parse(current.createdAt) : undefined
}

/** Two factors on record for this sign-in (RFC 8176 `amr`: the first factor, then `otp`, `recovery` or `hwk`). */
function passedSecondFactor(session: { amr?: string[] }): boolean {
  return Array.isArray(session.amr) && session.amr.length >= 2
}

/**
 * The user had two-factor sign-in on when this session signed in (`signedInAt`, ms): a second
 * factor switched on later, by this recent session itself, was not due at its sign-in.
 */
async function secondFactorDue(config: ResolvedConfig, userId: string, signedInAt: number): Promise<boolean> {
  const adapter = config.adapter as Adapter | undefined
  if (!config.twoFactor || !adapter?.getTwoFactor) return false
  const enrolled = await adapter.getTwoFactor(userId)
  if (!enrolled) return false
  const since = new Date(enrolled.enabledAt).getTime()
  // `authTime` is in whole seconds (and some databases store whole seconds): the same second counts
  // as after. A sign-in after the enrolment passed the second factor anyway (the two-factor gate).
  return since < signedInAt
}

/** `RecentSignInRequired` unless the sign-in behind `who` is recent (and passed two factors when the user has them). */
export async function assertRecentSignIn(config: ResolvedConfig, who: { identity: SessionIdentity; session: { amr?: string[]; impersonatedBy?: unknown } }, what: string, now = Date.now()): Promise<void> {
  // An admin seeing the app as the user (issue #30) changes none of what a recent sign-in guards.
  if (who.session.impersonatedBy) throw new ImpersonationRestricted(`${what} is refused while an admin impersonates the user`)
  const window = config.session.recentSignIn
  const at = await signedInAt(config, who.identity)
  if (at === undefined || now - at > window * 1000) {
    throw new RecentSignInRequired(`${what} needs a sign-in within the last ${Math.round(window / 60)} minutes`)
  }
  if (who.identity.userId && !passedSecondFactor(who.session) && (await secondFactorDue(config, who.identity.userId, at))) {
    throw new RecentSignInRequired(`${what} needs a sign-in that passed the second factor`)
  }
}

/**
 * The signed-in user, sure to `need`; `SessionRequired` or `RecentSignInRequired` otherwise. For
 * the start of an action: the read's cookies (a refresh, or clearing a dead session) go on the
 * answer, before any the action adds.
 */
export async function requireSignedIn(ctx: RequestContext, need: Assurance, what: string): Promise<SignedIn> {
  const answer = await readSignedIn(ctx)
  if (!reported.has(ctx)) {
    reported.add(ctx)
    ctx.outCookies.push(...answer.cookies)
  }
  if (!isSignedIn(answer)) throw new SessionRequired(`${what} needs a signed-in user`)
  const who = answer
  if (need === "recent") await assertRecentSignIn(ctx.config, who, what)
  return who
}

/** As requireSignedIn, for actions on the stored user (an adapter is there): `SessionRequired` when there is none. */
export async function requireHolder(ctx: RequestContext, need: Assurance, what: string): Promise<Holder> {
  const who = await requireSignedIn(ctx, need, what)
  if (!who.user) throw new SessionRequired(`${what} needs a stored user (an adapter)`)
  return who as Holder
}

/**
 * For pages and their forms: the holder, or the answer that sends the person to sign in first
 * (again, for `recent`) and back to `back`. API calls (JSON) get the error itself.
 */
export async function holderOrSignIn(ctx: RequestContext, need: Assurance, what: string, back: string): Promise<Holder | ResponseInternal> {
  try {
    return await requireHolder(ctx, need, what)
  } catch (error) {
    const refused = error instanceof SessionRequired || error instanceof RecentSignInRequired
    if (!refused || ctx.wantsJson) throw error
    const query = new URLSearchParams({ ...(error instanceof RecentSignInRequired && { error: error.type }), callbackUrl: back })
    return redirect(pageUrl(ctx, "signIn", query))
  }
}

export function isHolder(answer: Holder | ResponseInternal): answer is Holder {
  return "identity" in answer
}
