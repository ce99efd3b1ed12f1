/**
 * The pending enrolment (issue #24): a user the `twoFactor.required` policy picks who is not
 * enrolled gets no session after the first factor. The sign-in as it would have started is sealed
 * into a cookie of its own (`authjs.two-factor-setup`, same attributes as the session cookie) for
 * 10 minutes, so the app sees nobody signed in (`req.auth` is null, `requireAuth` refuses, every
 * action sees no session). Only `<base>/two-factor/setup` accepts it: a confirmed enrolment claims
 * it (once, across processes, in the shared store) and the real session starts there.
 */
import type { AdapterUser } from "../adapters.js"
import type { Cookie, CookieOption } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { decode, encode } from "../jwt/encode-decode.js"
import { randomHex } from "../crypto/random.js"
import { clearChunked, readChunked, writeChunked } from "../session/chunks.js"
import { TwoFactorExpired } from "./errors.js"
import { PENDING_SECONDS } from "./options.js"
import type { PendingSignIn } from "./pending.js"

const SALT = "gatehouse.two-factor.enrolment"

/** The cookie: the session cookie's attributes, its own name (`authjs.two-factor-setup`, with the same prefix). */
export function enrolmentCookie(ctx: RequestContext): CookieOption {
  const session = ctx.cookies.sessionToken
  const name = /session-token$/.test(session.name) ? session.name.replace(/session-token$/, "two-factor-setup") : `${session.name}.two-factor-setup`
  return { name, options: { ...session.options, maxAge: PENDING_SECONDS } }
}

/** Parks the sign-in until enrolment; the caller clears any session cookie the browser had. */
export async function writeEnrolment(ctx: RequestContext, pending: Omit<PendingSignIn, "id" | "expiresAt">, now = Date.now()): Promise<void> {
  const record: PendingSignIn = { ...pending, id: randomHex(16), expiresAt: now + PENDING_SECONDS * 1000 }
  // The seal outlives the 10 minutes a little, so an expired enrolment is told apart from none.
  const sealed = await encode({ token: { enrolment: record }, secret: [...ctx.config.secrets], salt: SALT, maxAge: 2 * PENDING_SECONDS })
  ctx.outCookies.push(...writeChunked(enrolmentCookie(ctx), sealed, ctx.request.cookies))
}

export function clearEnrolment(ctx: RequestContext): Cookie[] {
  return clearChunked(enrolmentCookie(ctx), ctx.request.cookies)
}

/**
 * The user whose sign-in waits for enrolment, and that sign-in; null when the request has none
 * (or it does not open, or its user is gone). `TwoFactorExpired` when it is older than 10 minutes
 * or its user enrolled meanwhile (then the second factor is due: sign in again).
 */
export async function enrollingUser(ctx: RequestContext, now = Date.now()): Promise<{ user: AdapterUser; enrolment: PendingSignIn } | null> {
  const sealed = readChunked(ctx.request.cookies, enrolmentCookie(ctx).name)
  if (!sealed) return null
  const opened = await decode<{ enrolment?: PendingSignIn }>({ token: sealed, secret: [...ctx.config.secrets], salt: SALT }).catch(() => null)
  const enrolment = opened?.enrolment
  if (enrolment && now > enrolment.expiresAt) {
    ctx.outCookies.push(...clearEnrolment(ctx))
    throw new TwoFactorExpired("The sign-in waiting for two-factor enrolment expired (10 minutes): sign in again")
  }
  const adapter = ctx.config.adapter
  const user = enrolment ? await adapter?.getUser?.(enrolment.userId) : null
  if (!enrolment || !user) {
    ctx.outCookies.push(...clearEnrolment(ctx))
    return null
  }
  if (await adapter?.getTwoFactor?.(user.id)) {
    ctx.outCookies.push(...clearEnrolment(ctx))
    throw new TwoFactorExpired("Two-factor sign-in is on for this user already: sign in again")
  }
  return { user, enrolment }
}

/**
 * Single use: the first confirmed enrolment claims the pending sign-in; any other gets
 * `TwoFactorExpired`. (The session that starts clears the cookie: lib/actions/callback/login.ts.)
 */
export async function claimEnrolment(ctx: RequestContext, enrolment: PendingSignIn): Promise<void> {
  if (!(await ctx.config.store.claim(`2fa:enrol:${enrolment.id}`, 2 * PENDING_SECONDS))) {
    ctx.outCookies.push(...clearEnrolment(ctx))
    throw new TwoFactorExpired("This sign-in waiting for enrolment was completed already")
  }
}
