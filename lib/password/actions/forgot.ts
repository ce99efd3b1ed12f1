/**
 * `GET forgot-password` (the form) and `POST forgot-password`: the same answer for every address,
 * in the same time (nothing is looked up before the answer); an address with an account gets a reset link
 * (single use, hashed at rest, `resetMaxAge`, default 1 h) after the answer is sent.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { json } from "../../core/response.js"
import { bodyString, queryParam } from "../../core/request.js"
import { enforceRateLimit } from "../../rate-limit/limiter.js"
import { requireHuman } from "../../bot-protection/check.js"
import { issueLink } from "../links.js"
import { sendPasswordMail } from "../mail.js"
import type { PasswordProviderConfig } from "../options.js"
import { afterAnswer, field, passwordAdapter, passwordProvider, postedEmail } from "./common.js"
import { FORGOT_PAGE } from "../pages.js"
import { isShownOnPage, pageErrorStatus, passwordPage } from "./view.js"
import { linkUrl } from "./urls.js"

function forgotPage(ctx: RequestContext, provider: PasswordProviderConfig, callbackUrl: string, extra: { error?: unknown; sent?: boolean; status?: number } = {}): ResponseInternal {
  return passwordPage(ctx, provider, {
    template: FORGOT_PAGE,
    page: "forgotPassword",
    message: extra.sent ? undefined : "password.forgot.message",
    notice: extra.sent ? "password.forgot.sent" : undefined,
    error: extra.error,
    status: extra.status,
    form: extra.sent
      ? undefined
      : { action: `${ctx.baseUrl}/forgot-password`, button: "password.forgot.button", hidden: { callbackUrl }, fields: [{ name: "email", type: "email", autocomplete: "email", required: true }] },
    links: [{ href: `${ctx.baseUrl}/signin?${new URLSearchParams({ callbackUrl })}`, text: "password.signin.link" }],
  })
}

export async function forgotGet(ctx: RequestContext): Promise<ResponseInternal> {
  return forgotPage(ctx, passwordProvider(ctx), await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl")))
}

export async function forgotPost(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = passwordProvider(ctx)
  const adapter = passwordAdapter(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx, bodyString(ctx.request, "callbackUrl"))
  try {
    await enforceRateLimit(ctx.config, "email", ctx.request.clientAddress, field(ctx, "email"))
    await requireHuman(ctx, "forgotPassword")
    const email = postedEmail(ctx)
    afterAnswer(ctx, async () => {
      const user = await adapter.getUserByEmail(email)
      if (!user) return
      const { token, expires } = await issueLink(ctx.config, "reset", user.id, provider.password.resetMaxAge)
      await sendPasswordMail(ctx, provider.password, "reset", email, linkUrl(ctx, "reset-password", user.id, token, callbackUrl), expires)
    })
  } catch (error) {
    // A JSON client (gatehouse/client) gets the error as JSON, its `type` kept.
    if (ctx.wantsJson || !isShownOnPage(error)) throw error
    return forgotPage(ctx, provider, callbackUrl, { error, status: pageErrorStatus(error) })
  }
  // The same answer for every address, as JSON for a JSON client.
  if (ctx.wantsJson) return json({ sent: true })
  return forgotPage(ctx, provider, callbackUrl, { sent: true })
}
