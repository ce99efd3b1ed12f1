/**
 * `GET reset-password?uid&token&callbackUrl`: the new-password form (opening it uses nothing);
 * `POST reset-password`: the new password is checked first (a weak one leaves the link usable),
 * then the link is used once. The hash is replaced, every other reset link of the user ends, the
 * address counts as confirmed (the link
 * came to it), every other session of the user ends (on every process), and the user is signed in.
 */
import { PasswordLinkInvalid } from "../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { bodyString, queryParam } from "../../core/request.js"
import { redirect } from "../../core/response.js"
import { enforceRateLimit } from "../../rate-limit/limiter.js"
import { hashPassword } from "../hash.js"
import { consumeLink, endLinks } from "../links.js"
import { acceptNewPassword } from "../policy.js"
import type { PasswordProviderConfig } from "../options.js"
import { endUserSessions } from "../../devices/revoke-user.js"
import { sendSecurityNotice } from "../../notices/send.js"
import { authorizeSignIn, completeSignIn } from "../../actions/callback/login.js"
import { ensureLinked, passwordAccount, passwordAdapter, passwordProvider, proveAddress, requiredField } from "./common.js"
import { RESET_PAGE } from "../pages.js"
import { isShownOnPage, pageErrorStatus, passwordPage } from "./view.js"
import { audit, reasonOf } from "../../audit/emit.js"

function resetPage(ctx: RequestContext, provider: PasswordProviderConfig, hidden: Record<string, string>, error?: unknown, status?: number): ResponseInternal {
  const linkDead = (error as { type?: string } | undefined)?.type === "PasswordLinkInvalid"
  return passwordPage(ctx, provider, {
    template: RESET_PAGE,
    page: "resetPassword",
    message: linkDead ? undefined : "password.reset.message",
    error,
    status,
    form: linkDead
      ? undefined
      : { action: `${ctx.baseUrl}/reset-password`, button: "password.reset.button", hint: true, hidden, fields: [{ name: "password", type: "password", autocomplete: "new-password", required: true }] },
    links: linkDead ? [{ href: `${ctx.baseUrl}/forgot-password`, text: "password.forgot.link" }] : [],
  })
}

export async function resetGet(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = passwordProvider(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl"))
  return resetPage(ctx, provider, { uid: queryParam(ctx.request, "uid") ?? "", token: queryParam(ctx.request, "token") ?? "", callbackUrl })
}

export async function resetPost(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = passwordProvider(ctx)
  const adapter = passwordAdapter(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx, bodyString(ctx.request, "callbackUrl"))
  const uid = bodyString(ctx.request, "uid") ?? ""
  const token = bodyString(ctx.request, "token") ?? ""
  let hash: string
  try {
    await enforceRateLimit(ctx.config, "emailCallback", ctx.request.clientAddress, uid || undefined)
    const password = await acceptNewPassword(ctx.config, provider.password, requiredField(ctx, "password"))
    if (!(await consumeLink(ctx.config, "reset", uid, token))) throw new PasswordLinkInvalid("The reset link was used already, expired or never existed")
    hash = await hashPassword(password, provider.password.hash)
  } catch (error) {
    audit(ctx.config, { type: "password.reset", outcome: "failure", reason: reasonOf(error), provider: provider.id })
    if (!isShownOnPage(error)) throw error
    return resetPage(ctx, provider, { uid, token, callbackUrl }, error, pageErrorStatus(error))
  }
  const found = await adapter.getUser(uid)
  if (!found) {
    audit(ctx.config, { type: "password.reset", outcome: "failure", reason: "PasswordLinkInvalid", provider: provider.id })
    return resetPage(ctx, provider, {}, new PasswordLinkInvalid("The user of this link is gone"), 400)
  }
  await adapter.setPasswordHash(found.id, hash)
  // The other reset links still out for the user end with this one.
  await endLinks(ctx.config, "reset", found.id)
  audit(ctx.config, { type: "password.reset", userId: found.id, provider: provider.id })
  const { user, reclaimed } = await proveAddress(ctx, adapter, provider, found)
  await ensureLinked(adapter, provider, user.id)
  // Whoever knew the old password is signed out everywhere; this browser gets a new session.
  await endUserSessions(ctx.config, user.id)
  sendSecurityNotice(ctx, user, "passwordReset")
  ctx.callbackUrl = callbackUrl
  const result = { user, account: passwordAccount(provider, user.id), ...(reclaimed && { notice: "AccountReclaimed" as const }) }
  const elsewhere = await authorizeSignIn(ctx, result)
  if (elsewhere) return redirect(elsewhere)
  return completeSignIn(ctx, result, callbackUrl)
}
