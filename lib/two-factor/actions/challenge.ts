/**
 * `GET two-factor`: the second step of an enrolled user's sign-in (a 6-digit code, or a recovery
 * code). `POST two-factor` checks it: accepted, the real session starts (a new session id, `amr`
 * the first factor plus `otp` or `recovery`, `authTime` now) and the browser goes where the
 * sign-in was going; refused, the page says why (wrong, already used, too many tries). Without a
 * pending sign-in, or after its 10 minutes, both answer `TwoFactorExpired` (the sign-in page).
 */
import { AuthError, RateLimited } from "../../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import { pageUrl } from "../../core/pages-url.js"
import { json } from "../../core/response.js"
import { bodyString } from "../../core/request.js"
import { signinErrorText } from "../../pages/messages.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import { CHALLENGE_PAGE } from "../pages.js"
import { currentPending, type PendingSignIn } from "../pending.js"
import { verifySecondFactor } from "../verify.js"
import { completePending } from "../../actions/callback/login.js"
import { passkeyOption } from "./passkey.js"

/** Refusals the page explains in place (the person types again). */
const SHOWN_ON_PAGE = new Set(["TwoFactorCodeInvalid", "TwoFactorCodeReplayed", "RecoveryCodeUsed", "RateLimited"])

async function challengePage(ctx: RequestContext, pending: PendingSignIn, error?: AuthError): Promise<ResponseInternal> {
  const chosen = pageLocale(ctx)
  const model = {
    passkey: await passkeyOption(ctx, pending),
    callbackUrl: pending.callbackUrl,
    action: `${ctx.baseUrl}/two-factor`,
    csrfToken: ensureCsrfToken(ctx),
    signInUrl: pageUrl(ctx, "signIn", new URLSearchParams({ callbackUrl: pending.callbackUrl })),
    error: error ? signinErrorText(chosen.locale.messages, error.type) : undefined,
  }
  const status = error instanceof RateLimited ? 429 : error ? 400 : 200
  const page = pageResponse(ctx, CHALLENGE_PAGE, chosen.locale.messages["twoFactor.heading"], model, status, chosen)
  return error instanceof RateLimited ? { ...page, headers: { ...page.headers, "Retry-After": String(error.retryAfter) } } : page
}

/**
 * For a script (`Accept: application/json`, e.g. gatehouse/client): what the pending sign-in
 * accepts, `{ methods, expires }` (`totp` and `recovery` always, `passkey` when the page would
 * offer it), instead of the page. Changes nothing.
 */
async function pendingJson(ctx: RequestContext, pending: PendingSignIn): Promise<ResponseInternal> {
  const methods = ["totp", "recovery", ...((await passkeyOption(ctx, pending)) ? ["passkey"] : [])]
  return json({ methods, expires: new Date(pending.expiresAt).toISOString() }, 200, { "Cache-Control": "no-store" })
}

export async function twoFactorPage(ctx: RequestContext): Promise<ResponseInternal> {
  const pending = await currentPending(ctx)
  ctx.callbackUrl = pending.callbackUrl
  if (ctx.wantsJson) return pendingJson(ctx, pending)
  return challengePage(ctx, pending)
}

export async function twoFactorSubmit(ctx: RequestContext): Promise<ResponseInternal> {
  const pending = await currentPending(ctx)
  ctx.callbackUrl = pending.callbackUrl
  let method: Awaited<ReturnType<typeof verifySecondFactor>>
  try {
    method = await verifySecondFactor(ctx, pending.userId, bodyString(ctx.request, "code") ?? "")
  } catch (error) {
    if (!ctx.wantsJson && error instanceof AuthError && SHOWN_ON_PAGE.has(error.type)) return challengePage(ctx, pending, error)
    throw error
  }
  // The pending sign-in works once, on every process (a copied cookie cannot start a second session).
  return completePending(ctx, pending, method === "totp" ? "otp" : "recovery")
}
