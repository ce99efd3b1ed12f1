/**
 * The pending sign-in: after the first factor of an enrolled user, no session is issued. The
 * sign-in as it would have started (user, account, where to go next, how the user signed in) is
 * sealed into a cookie of its own for 10 minutes, so the app sees nobody signed in (`req.auth` is
 * null, `requireAuth` refuses) until `<base>/two-factor` accepts a second factor. The cookie is
 * sealed with a key derived from the app secret (it may hold provider tokens), and works once:
 * its id is claimed in the shared store when the sign-in completes.
 */
import type { Account, Cookie, CookieOption, Profile, User } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { decode, encode } from "../jwt/encode-decode.js"
import { randomHex } from "../crypto/random.js"
import { clearChunked, readChunked, writeChunked } from "../session/chunks.js"
import { TwoFactorExpired } from "./errors.js"
import { PENDING_SECONDS } from "./options.js"

export interface PendingSignIn {
  /** Single use: claimed when the sign-in completes. */
  id: string
  userId: string
  user: User
  account: Account
  profile?: Profile
  isNewUser?: boolean
  notice?: "AccountReclaimed"
  callbackUrl: string
  /** How the first factor was passed (RFC 8176 values: `pwd`, `oauth`, `email`, `hwk`). */
  amr: string[]
  /** Epoch ms after which the second factor is refused. */
  expiresAt: number
  /** A signed-in user passing the second factor again (step-up), not a new sign-in. */
  stepUp?: boolean
}

const SALT = "gatehouse.two-factor.pending"

/** The cookie: the session cookie's attributes, its own name (`authjs.two-factor`, with the same prefix). */
export function pendingCookie(ctx: RequestContext): CookieOption {
  const session = ctx.cookies.sessionToken
  return { name: session.name.replace(/session-token$/, "two-factor"), options: { ...session.options, maxAge: PENDING_SECONDS } }
}

export async function writePending(ctx: RequestContext, pending: Omit<PendingSignIn, "id" | "expiresAt">, now = Date.now()): Promise<void> {
  const record: PendingSignIn = { ...pending, id: randomHex(16), expiresAt: now + PENDING_SECONDS * 1000 }
  // The seal outlives the 10 minutes a little, so an expired sign-in is told apart from a forged one.
  const sealed = await encode({ token: { pending: record }, secret: [...ctx.config.secrets], salt: SALT, maxAge: 2 * PENDING_SECONDS })
  ctx.outCookies.push(...writeChunked(pendingCookie(ctx), sealed, ctx.request.cookies))
}

/** The request's pending sign-in, or null when there is none (or it does not open). Expiry is the caller's to check. */
export async function readPending(ctx: RequestContext): Promise<PendingSignIn | null> {
  const sealed = readChunked(ctx.request.cookies, pendingCookie(ctx).name)
  if (!sealed) return null
  const opened = await decode<{ pending?: PendingSignIn }>({ token: sealed, secret: [...ctx.config.secrets], salt: SALT }).catch(() => null)
  return opened?.pending ?? null
}

/** The pending sign-in, still within its 10 minutes; `TwoFactorExpired` otherwise. */
export async function currentPending(ctx: RequestContext, now = Date.now()): Promise<PendingSignIn> {
  const pending = await readPending(ctx)
  if (!pending || now > pending.expiresAt) {
    ctx.outCookies.push(...clearPending(ctx))
    throw new TwoFactorExpired(pending ? "The pending sign-in expired (10 minutes): sign in again" : "No pending sign-in: sign in first")
  }
  return pending
}

export function clearPending(ctx: RequestContext): Cookie[] {
  return clearChunked(pendingCookie(ctx), ctx.request.cookies)
}
