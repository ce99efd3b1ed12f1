/**
 * `GET change-password` and `POST change-password`: a signed-in user changes the password, giving
 * the current one. Then every reset link still out for the user ends, every session of the user
 * ends (on every process) and this browser gets a
 * new one; the page says it is done. Signed-out visitors are sent to sign in, and come back here.
 * (The account page embeds this form when it exists; this page stands alone meanwhile.)
 */
import { WrongCurrentPassword } from "../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { bodyString, queryParam } from "../../core/request.js"
import { enforceRateLimit } from "../../rate-limit/limiter.js"
import { hashPassword, verifyPassword } from "../hash.js"
import { endLinks } from "../links.js"
import { acceptNewPassword, normalizePassword, tooLong } from "../policy.js"
import type { PasswordProviderConfig } from "../options.js"
import { endUserSessions } from "../../devices/revoke-user.js"
import { sendSecurityNotice } from "../../notices/send.js"
import { completeSignIn } from "../../actions/callback/login.js"
import { holderOrSignIn, isHolder } from "../../session/assurance.js"
import { passwordAccount, passwordAdapter, passwordProvider, requiredField } from "./common.js"
import { CHANGE_PAGE } from "../pages.js"
import { isShownOnPage, pageErrorStatus, passwordPage } from "./view.js"
import { audit, reasonOf } from "../../audit/emit.js"

function changePage(ctx: RequestContext, provider: PasswordProviderConfig, callbackUrl: string, extra: { error?: unknown; done?: boolean; status?: number } = {}): ResponseInternal {
  return passwordPage(ctx, provider, {
    template: CHANGE_PAGE,
    page: "changePassword",
    notice: extra.done ? "password.change.done" : undefined,
    error: extra.error,
    status: extra.status,
    form: extra.done
      ? undefined
      : {
          action: `${ctx.baseUrl}/change-password`,
          button: "password.change.button",
          hint: true,
          hidden: { callbackUrl },
          fields: [
            { name: "currentPassword", type: "password", autocomplete: "current-password", required: true },
            { name: "newPassword", type: "password", autocomplete: "new-password", required: true },
          ],
        },
    links: extra.done ? [{ href: callbackUrl, text: "notice.continue" }] : [],
  })
}

export async function changeGet(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = passwordProvider(ctx)
  passwordAdapter(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl"))
  const back = `${ctx.baseUrl}/change-password?${new URLSearchParams({ callbackUrl })}`
  const holder = await holderOrSignIn(ctx, "recent", "Changing the password", back)
  if (!isHolder(holder)) return holder
  return changePage(ctx, provider, callbackUrl, { done: queryParam(ctx.request, "done") === "1" })
}

export async function changePost(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = passwordProvider(ctx)
  const adapter = passwordAdapter(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx, bodyString(ctx.request, "callbackUrl"))
  // Changing the password: a recent sign-in (issue #24), as well as the current password.
  const holder = await holderOrSignIn(ctx, "recent", "Changing the password", `${ctx.baseUrl}/change-password?${new URLSearchParams({ callbackUrl })}`)
  if (!isHolder(holder)) return holder
  const { user } = holder
  let hash: string
  try {
    await enforceRateLimit(ctx.config, "credentials", ctx.request.clientAddress, `user:${user.id}`)
    const current = requiredField(ctx, "currentPassword")
    const stored = await adapter.getPasswordHash(user.id)
    if (!stored || tooLong(current) || !(await verifyPassword(normalizePassword(current), stored))) throw new WrongCurrentPassword("The current password given is not right")
    hash = await hashPassword(await acceptNewPassword(ctx.config, provider.password, requiredField(ctx, "newPassword")), provider.password.hash)
  } catch (error) {
    audit(ctx.config, { type: "password.changed", outcome: "failure", reason: reasonOf(error), userId: user.id, provider: provider.id })
    if (!isShownOnPage(error)) throw error
    return changePage(ctx, provider, callbackUrl, { error, status: pageErrorStatus(error) })
  }
  await adapter.setPasswordHash(user.id, hash)
  // A reset link asked for earlier (by the user, or by whoever reads their mail) ends too.
  await endLinks(ctx.config, "reset", user.id)
  audit(ctx.config, { type: "password.changed", userId: user.id, provider: provider.id })
  await endUserSessions(ctx.config, user.id)
  sendSecurityNotice(ctx, user, "passwordChanged")
  const done = `${ctx.baseUrl}/change-password?${new URLSearchParams({ done: "1", callbackUrl })}`
  return completeSignIn(ctx, { user, account: passwordAccount(provider, user.id) }, done)
}
