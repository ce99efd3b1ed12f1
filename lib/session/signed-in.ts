/**
 * Who is signed in, for every action (issue #24): the one answer, read exactly as
 * `authSession`/`requireAuth` read it (lib/session/read.ts: revocation, expiry, the absolute end,
 * the `jwt` and `session` callbacks). A revoked, signed-out, expired or tampered session, or a
 * sign-in still waiting for its second factor (its pending cookie is no session), is nobody.
 * With an adapter, the session's user must still exist.
 *
 * Read once per request (memoised on the request's context). The cookies the read would set (a
 * refreshed cookie, or clearing a dead one) are returned, not written: an action that ends in a
 * new session must not have them laid over its own; the actions that only show or manage the
 * session (the account page, the sessions actions) pass them on.
 */
import type { AdapterUser } from "../adapters.js"
import type { Cookie, Session } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { clientInfo } from "../devices/ids.js"
import type { SessionIdentity } from "./cookie-strategy.js"
import { readSession } from "./read.js"

export interface SignedIn {
  /** The session as the app sees it (after the `session` callback). */
  session: Session
  /** Whose session and which one: `userId` always set. */
  identity: SessionIdentity & { userId: string }
  /** The stored user; null only without an adapter that loads users. */
  user: AdapterUser | null
  /** Cookies the read would set (refresh, or clearing a dead session): the caller decides. */
  cookies: Cookie[]
}

export interface SignedOut {
  signedIn: null
  cookies: Cookie[]
}

const reads = new WeakMap<RequestContext, Promise<SignedIn | SignedOut>>()

async function read(ctx: RequestContext): Promise<SignedIn | SignedOut> {
  const client = () => clientInfo(ctx.request.header("user-agent"), ctx.request.clientAddress)
  const result = await readSession(ctx.config, ctx.request.cookies, ctx.cookies, undefined, client)
  const userId = result.identity?.userId
  if (!result.session || !result.identity || typeof userId !== "string") return { signedIn: null, cookies: result.cookies }
  const adapter = ctx.config.adapter
  const user = adapter?.getUser ? await adapter.getUser(userId) : null
  // The user is gone (deleted elsewhere): nobody is signed in.
  if (adapter?.getUser && !user) return { signedIn: null, cookies: result.cookies }
  return { session: result.session, identity: { ...result.identity, userId }, user, cookies: result.cookies }
}

/** The request's session read once: signed in, or signed out (with the cookies that read would set). */
export function readSignedIn(ctx: RequestContext): Promise<SignedIn | SignedOut> {
  let answer = reads.get(ctx)
  if (!answer) {
    answer = read(ctx)
    reads.set(ctx, answer)
  }
  return answer
}

export function isSignedIn(answer: SignedIn | SignedOut): answer is SignedIn {
  return !("signedIn" in answer)
}

/** Who is signed in on this request, or null. */
export async function signedIn(ctx: RequestContext): Promise<SignedIn | null> {
  const answer = await readSignedIn(ctx)
  return isSignedIn(answer) ? answer : null
}
