/**
 * The end of every successful sign-in, whatever the provider: the `signIn` callback decides,
 * then the session starts (a fresh token: never the one the browser brought), the `signIn`
 * event fires, the CSRF token rotates, and the browser goes to the callback URL.
 */
import { AccessDenied, AuthError, SessionTokenError } from "../../errors.js"
import type { Account, JWT, Profile, ResponseInternal, User } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { rotateCsrfToken } from "../../core/csrf.js"
import { fireEvent } from "../../core/events.js"
import { redirect } from "../../core/response.js"
import { runRedirectCallback } from "../../core/callback-url.js"
import { writeSessionCookies } from "../../session/cookie-strategy.js"
import { clearChunked } from "../../session/chunks.js"
import { createDatabaseSession, sessionTokenOf } from "../../session/database-strategy.js"
import { clientInfo, databaseSessionId, type ClientInfo } from "../../devices/ids.js"
import { announce } from "../../devices/runtime.js"
import { recordCookieSession, withSessionId } from "../../devices/registry.js"
import { refreshStoredAccountTokens, withSignInTokens } from "../../tokens/sign-in.js"
import { recordProviderSession } from "../../federation/provider-sessions.js"
import { firstFactorAmr, twoFactorGate } from "../../two-factor/gate.js"
import { recordSessionAmr } from "../../two-factor/facts.js"
import { clearEnrolment } from "../../two-factor/enrolment.js"
import { keepReservedFacts, TOKEN_FACTS } from "../../session/reserved-facts.js"
import { claimPending, type SecondFactorAmr } from "../../two-factor/claim.js"
import type { PendingSignIn } from "../../two-factor/pending.js"
import { lastUsedCookie } from "../../pages/signin-last-used.js"
import { enforceSso } from "../../sso/enforce.js"
import { refuseBanned } from "../../admin/bans.js"

/** The client facts a new session records: user agent and address. */
function clientOf(ctx: RequestContext): ClientInfo {
  return clientInfo(ctx.request.header("user-agent"), ctx.request.clientAddress)
}

export interface SignInResult {
  user: User
  account: Account
  profile?: Profile
  isNewUser?: boolean
  /** Something the person must be told on the next page (the notice page, then callbackUrl). */
  notice?: "AccountReclaimed"
  /** Extra fields for the signIn callback (`credentials`, `email`). */
  extra?: { credentials?: Record<string, unknown>; email?: { verificationRequest?: boolean } }
}

/**
 * Runs the `signIn` callback. True continues; false throws AccessDenied; a string is a URL to
 * send the user to instead of signing in (returned: the caller redirects there and starts no
 * session); a throw becomes AccessDenied with the original message.
 */
export async function authorizeSignIn(ctx: RequestContext, result: SignInResult): Promise<string | undefined> {
  let verdict: boolean | string
  try {
    verdict = await ctx.config.callbacks.signIn({ user: result.user, account: result.account, profile: result.profile, ...result.extra })
  } catch (error) {
    if (error instanceof AuthError) throw error
    throw new AccessDenied((error as Error)?.message ?? String(error), { cause: { err: error } })
  }
  if (typeof verdict === "string") return runRedirectCallback(ctx, verdict)
  if (!verdict) throw new AccessDenied("The signIn callback refused this sign-in")
  return undefined
}

function defaultToken(user: User): JWT {
  const token: JWT = {}
  if (user.name !== undefined) token.name = user.name
  if (user.email !== undefined) token.email = user.email
  if (user.image !== undefined) token.picture = user.image
  if (user.id !== undefined && user.id !== null) token.sub = String(user.id)
  return token
}

/** Deletes the request's previous session when it belongs to the same user (re-authentication). */
async function endPreviousSession(ctx: RequestContext, userId: string): Promise<void> {
  const adapter = ctx.config.adapter
  const previous = sessionTokenOf(ctx.request.cookies, ctx.cookies)
  if (!adapter?.getSessionAndUser || !adapter.deleteSession || !previous) return
  const found = await adapter.getSessionAndUser(previous)
  if (found && found.user.id === userId) {
    await adapter.deleteSession(previous)
    await announce(ctx.config, { sid: databaseSessionId(previous) })
  }
}

/** The cookies of a new database session for the signed-in (stored) user. */
async function startDatabaseSession(ctx: RequestContext, user: User, account: Account | undefined, facts: SignInFacts): Promise<void> {
  const userId = user.id
  if (!userId) throw new SessionTokenError("A database session needs a stored user with an id")
  await endPreviousSession(ctx, userId)
  const cookies = await createDatabaseSession(ctx.config, ctx.request.cookies, ctx.cookies, userId, clientOf(ctx))
  ctx.outCookies.push(...cookies)
  // Back-channel logout finds this session by the provider's sid/sub (issue #17).
  const sessionToken = cookies.find((cookie) => cookie.name === ctx.cookies.sessionToken.name)?.value
  if (sessionToken) await recordSessionAmr(ctx.config, databaseSessionId(sessionToken), facts.amr, ctx.config.session.maxAge)
  if (account && sessionToken) await recordProviderSession(ctx.config, account, databaseSessionId(sessionToken), userId, Date.now() + ctx.config.session.maxAge * 1000)
}

/** How the user signed in (issue #16): RFC 8176 `amr` values and when (epoch seconds). */
export interface SignInFacts {
  amr: string[]
  authTime: number
}

/** Where a sign-in ends: the newUser page for a first sign-in (when configured), else callbackUrl. */
function destination(ctx: RequestContext, result: SignInResult, callbackUrl: string): string {
  if (result.notice) return `${ctx.baseUrl}/notice?${new URLSearchParams({ type: result.notice, callbackUrl })}`
  const newUser = ctx.config.pages.newUser
  if (!result.isNewUser || !newUser) return callbackUrl
  const url = new URL(newUser, ctx.request.origin)
  url.searchParams.set("callbackUrl", callbackUrl)
  return url.href
}

/**
 * Starts the session for a user the provider vouched for and the signIn callback accepted: a
 * session record (database strategy) or a sealed token after the `jwt` callback (cookie).
 */
export async function completeSignIn(ctx: RequestContext, result: SignInResult, callbackUrl: string, passed?: SignInFacts): Promise<ResponseInternal> {
  const { config } = ctx
  // Enterprise sign-in (issue #28): an address its organization keeps to its SSO signs in only there.
  if (!passed) await enforceSso(ctx, result)
  // A banned user (issue #30) is refused by every method, once it proved who they are.
  await refuseBanned(ctx, result.user.id)
  await refreshStoredAccountTokens(config, result.account, result.isNewUser, result.user.id)
  // An enrolled user passes the second factor first (issue #16); `passed` is that second step.
  const facts = passed ?? { amr: [firstFactorAmr(result.account)], authTime: Math.floor(Date.now() / 1000) }
  const gate = passed ? { kind: "none" as const } : await twoFactorGate(ctx, result, callbackUrl, facts.amr)
  if (gate.kind === "pending" || gate.kind === "enrol") return gate.response
  if (gate.kind === "passkey") return completePending(ctx, gate.pending, "hwk")
  return redirect(await startSession(ctx, result, callbackUrl, facts))
}

/**
 * Ends a pending sign-in once its second factor was accepted (a code on the two-factor page, or a
 * passkey of the same user): the pending id claimed once (lib/two-factor/claim.ts), then the real
 * session starts with the first factor's user and account, `amr` extended and `authTime` now.
 */
export async function completePending(ctx: RequestContext, pending: PendingSignIn, factor: SecondFactorAmr): Promise<ResponseInternal> {
  const facts = await claimPending(ctx, pending, factor)
  const { user, account, profile, isNewUser, notice } = pending
  return completeSignIn(ctx, { user, account, profile, isNewUser, notice }, pending.callbackUrl, facts)
}

/**
 * The session itself, once every factor due was passed (also the end of a pending enrolment,
 * lib/two-factor/actions/setup.ts): the record or sealed token, the `signIn` event, a new CSRF
 * token. Returns where the browser goes next.
 */
export async function startSession(ctx: RequestContext, result: SignInResult, callbackUrl: string, facts: SignInFacts): Promise<string> {
  const { config } = ctx
  if (config.session.strategy === "database") {
    await startDatabaseSession(ctx, result.user, result.account, facts)
  } else {
    await startCookieSession(ctx, result, facts)
  }
  // A sign-in that waited for enrolment in this browser is over (a no-op when there was none).
  ctx.outCookies.push(...clearEnrolment(ctx))
  // The sign-in page marks this way in as "Last used" in this browser (issue #26).
  const provider = config.providers.byId.get(result.account.provider)
  if (provider) ctx.outCookies.push(lastUsedCookie(ctx, provider.type, provider.id))
  await fireEvent(config, "signIn", { user: result.user, account: result.account, profile: result.profile, isNewUser: result.isNewUser })
  rotateCsrfToken(ctx)
  return destination(ctx, result, callbackUrl)
}

async function startCookieSession(ctx: RequestContext, result: SignInResult, facts: SignInFacts): Promise<void> {
  const { config } = ctx
  const trigger = result.isNewUser ? "signUp" : "signIn"
  const params = { token: { ...defaultToken(result.user), amr: facts.amr, authTime: facts.authTime }, user: result.user, account: result.account, profile: result.profile, trigger } as const
  // `isNewUser` is deprecated: reading it logs the warning once.
  Object.defineProperty(params, "isNewUser", {
    enumerable: true,
    get() {
      config.warnOnce("jwt-isnewuser-deprecated")
      return result.isNewUser ?? false
    },
  })
  const returned = await config.callbacks.jwt(params)
  const jar = ctx.request.cookies
  if (returned) {
    // A new session id, whatever cookie the browser brought or the callback returned, and how and
    // when the user signed in as Gatehouse saw it (issue #24: reserved, the callback sets none of
    // them); without an adapter, the provider's tokens ride in the cookie (getAccessToken, issue #17).
    const own = keepReservedFacts(returned, { amr: facts.amr, authTime: facts.authTime }, TOKEN_FACTS)
    const token = withSessionId(withSignInTokens(config, own, result.account))
    const { cookies, expires } = await writeSessionCookies(config, jar, ctx.cookies, token)
    ctx.outCookies.push(...cookies)
    await recordCookieSession(config, token, expires * 1000, clientOf(ctx))
    await recordProviderSession(config, result.account, token.sid as string | undefined, token.sub, expires * 1000)
  } else {
    ctx.outCookies.push(...clearChunked(ctx.cookies.sessionToken, jar))
  }
}
