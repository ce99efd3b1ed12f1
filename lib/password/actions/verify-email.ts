/**
 * `GET verify-email?uid&token&callbackUrl`: a page with one button (a mail scanner opening the
 * link changes nothing); `POST verify-email` uses the link once: the address is confirmed
 * (`emailVerified`), the password account linked, and the user signed in. A link whose user's
 * address was proved another way since it was sent links nothing (`PasswordLinkSuperseded`).
 */
import { PasswordLinkInvalid, PasswordLinkSuperseded } from "../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { bodyString, queryParam } from "../../core/request.js"
import { redirect } from "../../core/response.js"
import { enforceRateLimit } from "../../rate-limit/limiter.js"
import { consumeLink } from "../links.js"
import type { PasswordProviderConfig } from "../options.js"
import { authorizeSignIn, completeSignIn } from "../../actions/callback/login.js"
import { ensureLinked, passwordAccount, passwordAdapter, passwordProvider, proveAddress } from "./common.js"
import { VERIFY_PAGE } from "../pages.js"
import { isShownOnPage, pageErrorStatus, passwordPage } from "./view.js"

function verifyPage(ctx: RequestContext, provider: PasswordProviderConfig, hidden: Record<string, string>, error?: unknown, status?: number): ResponseInternal {
  return passwordPage(ctx, provider, {
    template: VERIFY_PAGE,
    page: "verifyEmail",
    message: error ? undefined : "password.verify.message",
    error,
    status,
    form: error ? undefined : { action: `${ctx.baseUrl}/verify-email`, button: "password.verify.button", hidden, fields: [] },
    links: error ? [{ href: `${ctx.baseUrl}/forgot-password`, text: "password.forgot.link" }] : [],
  })
}

export async function verifyEmailGet(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = passwordProvider(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl"))
  const hidden = { uid: queryParam(ctx.request, "uid") ?? "", token: queryParam(ctx.request, "token") ?? "", callbackUrl }
  return verifyPage(ctx, provider, hidden)
}

export async function verifyEmailPost(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = passwordProvider(ctx)
  const adapter = passwordAdapter(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx, bodyString(ctx.request, "callbackUrl"))
  const uid = bodyString(ctx.request, "uid") ?? ""
  try {
    await enforceRateLimit(ctx.config, "emailCallback", ctx.request.clientAddress)
    if (!(await consumeLink(ctx.config, "verify", uid, bodyString(ctx.request, "token") ?? ""))) throw new PasswordLinkInvalid("The verification link was used already, expired or never existed")
  } catch (error) {
    if (!isShownOnPage(error)) throw error
    return verifyPage(ctx, provider, {}, error, pageErrorStatus(error))
  }
  const found = await adapter.getUser(uid)
  if (!found) return verifyPage(ctx, provider, {}, new PasswordLinkInvalid("The user of this link is gone"), 400)
  // The link was sent when the user was new and unproven. Proven since, the address was proved
  // another way (a magic link, a provider, a reset link): the password typed at sign-up, by
  // whoever typed it, never joins that account.
  if (found.emailVerified) return verifyPage(ctx, provider, {}, new PasswordLinkSuperseded("The address was proved another way since this link was sent; its password is not linked"), 400)
  const { user, reclaimed } = await proveAddress(ctx, adapter, provider, found)
  await ensureLinked(adapter, provider, user.id)
  ctx.callbackUrl = callbackUrl
  const result = { user, account: passwordAccount(provider, user.id), isNewUser: true, ...(reclaimed && { notice: "AccountReclaimed" as const }) }
  const elsewhere = await authorizeSignIn(ctx, result)
  if (elsewhere) return redirect(elsewhere)
  return completeSignIn(ctx, result, callbackUrl)
}
