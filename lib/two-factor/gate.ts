/**
 * Where every sign-in meets two-factor sign-in (called by `completeSignIn` after the `signIn`
 * callback accepted the first factor):
 * - an enrolled user gets no session yet: the sign-in is parked in the pending cookie (and any
 *   session cookie the browser had is cleared), and the browser goes to `<base>/two-factor`;
 * - a user the `required` policy picks who is not enrolled gets no session either (issue #24): the
 *   sign-in is parked in the enrolment cookie (lib/two-factor/enrolment.ts; any session cookie is
 *   cleared), and the browser goes to `<base>/two-factor/setup`, which alone accepts it and
 *   starts the session once a first code confirms the enrolment;
 * - everyone else signs in as before.
 */
import type { Adapter } from "../adapters.js"
import type { Account, ResponseInternal, User } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { redirect } from "../core/response.js"
import { clearChunked } from "../session/chunks.js"
import { readPending, writePending, type PendingSignIn } from "./pending.js"
import { writeEnrolment } from "./enrolment.js"

/** The first factor as an RFC 8176 `amr` value. */
export function firstFactorAmr(account: Account | undefined): string {
  switch (account?.type) {
    case "credentials":
      return "pwd"
    case "email":
      return "email"
    case "webauthn":
      return "hwk"
    default:
      return "oauth"
  }
}

export interface GateInput {
  user: User
  account: Account
  profile?: unknown
  isNewUser?: boolean
  notice?: "AccountReclaimed"
}

export type GateOutcome = { kind: "pending"; response: ResponseInternal } | { kind: "passkey"; pending: PendingSignIn } | { kind: "enrol"; response: ResponseInternal } | { kind: "none" }

export async function twoFactorGate(ctx: RequestContext, result: GateInput, callbackUrl: string, amr: string[]): Promise<GateOutcome> {
  const { twoFactor } = ctx.config
  const userId = result.user.id
  if (!twoFactor || !userId) return { kind: "none" }
  // A passkey of the user whose sign-in is pending is their second factor (not when the first was a passkey too).
  if (result.account.type === "webauthn") {
    const pending = await readPending(ctx)
    if (pending && pending.userId === userId && Date.now() <= pending.expiresAt && !pending.amr.includes("hwk")) return { kind: "passkey", pending }
  }
  const enrolled = await (ctx.config.adapter as Required<Pick<Adapter, "getTwoFactor">>).getTwoFactor(userId)
  if (!enrolled && !(await twoFactor.required(result.user))) return { kind: "none" }
  const parked = {
    userId,
    user: result.user,
    account: result.account,
    ...(result.profile !== undefined && { profile: result.profile as Record<string, unknown> }),
    ...(result.isNewUser !== undefined && { isNewUser: result.isNewUser }),
    ...(result.notice && { notice: result.notice }),
    callbackUrl,
    amr,
  }
  await (enrolled ? writePending : writeEnrolment)(ctx, parked)
  ctx.outCookies.push(...clearChunked(ctx.cookies.sessionToken, ctx.request.cookies))
  if (!enrolled) return { kind: "enrol", response: redirect(enrolmentUrl(ctx, callbackUrl)) }
  return { kind: "pending", response: redirect(`${ctx.baseUrl}/two-factor`) }
}

/** The enrolment page (its links lead on to where the sign-in was going). */
export function enrolmentUrl(ctx: RequestContext, callbackUrl: string): string {
  return `${ctx.baseUrl}/two-factor/setup?${new URLSearchParams({ callbackUrl })}`
}
