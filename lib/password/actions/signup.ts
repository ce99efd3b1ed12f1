/**
 * `GET signup` (the form) and `POST signup`. The answer ("check your email") is the same, in the
 * same time, whether the address is new or has an account: the password is checked and hashed
 * either way, and the rest happens after the answer. A new address gets a user (unconfirmed),
 * its hash and a verification link; an address with an account gets a mail saying someone tried
 * to register with it, with a link to choose a password (its owner, and only its owner, can).
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { json } from "../../core/response.js"
import { bodyString, queryParam } from "../../core/request.js"
import { enforceRateLimit } from "../../rate-limit/limiter.js"
import { requireHuman } from "../../bot-protection/check.js"
import { hashPassword } from "../hash.js"
import { issueLink } from "../links.js"
import { sendPasswordMail } from "../mail.js"
import { acceptNewPassword } from "../policy.js"
import type { PasswordProviderConfig } from "../options.js"
import { randomUUID } from "../../crypto/random.js"
import { afterAnswer, ensureLinked, field, passwordAdapter, passwordProvider, postedEmail, requiredField } from "./common.js"
import { SIGNUP_PAGE } from "../pages.js"
import { isShownOnPage, pageErrorStatus, passwordPage } from "./view.js"
import { linkUrl } from "./urls.js"

/** `sentTo`: the address just typed, shown back escaped in the same answer ("we sent a message to ..."). */
/** The address to fill in: `email` or `login_hint` of the link (an invitation's, the sign-in page's), when it looks like one. */
function knownAddress(ctx: RequestContext): string | undefined {
  const given = queryParam(ctx.request, "email") ?? queryParam(ctx.request, "login_hint")
  return given && given.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(given) ? given : undefined
}

function signupPage(ctx: RequestContext, provider: PasswordProviderConfig, callbackUrl: string, extra: { error?: unknown; sentTo?: string; status?: number; email?: string } = {}): ResponseInternal {
  const query = new URLSearchParams({ callbackUrl })
  return passwordPage(ctx, provider, {
    template: SIGNUP_PAGE,
    page: "signUp",
    error: extra.error,
    notice: extra.sentTo !== undefined ? "password.signup.sent" : undefined,
    noticeValues: extra.sentTo !== undefined ? { email: extra.sentTo } : undefined,
    status: extra.status,
    form: extra.sentTo !== undefined
      ? undefined
      : {
          action: `${ctx.baseUrl}/signup`,
          button: "password.signup.button",
          hint: true,
          hidden: { callbackUrl },
          fields: [
            { name: "email", type: "email", autocomplete: "email", required: true, value: extra.email },
            { name: "password", type: "password", autocomplete: "new-password", required: true },
            { name: "name", type: "text", autocomplete: "name", required: false },
          ],
        },
    links: [
      ...(extra.sentTo !== undefined ? [{ href: `${ctx.baseUrl}/signup?${query}`, text: "password.signup.another" as const }] : []),
      { href: `${ctx.baseUrl}/signin?${query}`, text: "password.signin.link" },
    ],
  })
}

export async function signupGet(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = passwordProvider(ctx)
  return signupPage(ctx, provider, await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl")), { email: knownAddress(ctx) })
}

export async function signupPost(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = passwordProvider(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx, bodyString(ctx.request, "callbackUrl"))
  const adapter = passwordAdapter(ctx)
  const settings = provider.password
  let sentTo: string
  try {
    await enforceRateLimit(ctx.config, "email", ctx.request.clientAddress, field(ctx, "email"))
    // Bot protection (issue #33): no account and no mail for a request that fails the challenge.
    await requireHuman(ctx, "signUp")
    const email = postedEmail(ctx)
    sentTo = email
    const password = await acceptNewPassword(ctx.config, settings, requiredField(ctx, "password"))
    const name = field(ctx, "name")?.slice(0, 200)
    const hash = await hashPassword(password, settings.hash)
    afterAnswer(ctx, async () => {
      const existing = await adapter.getUserByEmail(email)
      if (existing) {
        const { token, expires } = await issueLink(ctx.config, "reset", existing.id, settings.resetMaxAge)
        return sendPasswordMail(ctx, settings, "exists", email, linkUrl(ctx, "reset-password", existing.id, token, callbackUrl), expires)
      }
      const user = await adapter.createUser({ id: randomUUID(), email, emailVerified: null, name: name ?? null })
      await adapter.setPasswordHash(user.id, hash)
      if (!settings.requireVerifiedEmail) await ensureLinked(adapter, provider, user.id)
      const { token, expires } = await issueLink(ctx.config, "verify", user.id, settings.verificationMaxAge)
      await sendPasswordMail(ctx, settings, "verify", email, linkUrl(ctx, "verify-email", user.id, token, callbackUrl), expires)
    })
  } catch (error) {
    // A JSON client (gatehouse/client) gets the error as JSON, its `type` kept.
    if (ctx.wantsJson || !isShownOnPage(error)) throw error
    return signupPage(ctx, provider, callbackUrl, { error, status: pageErrorStatus(error) })
  }
  // The same answer for every address, as JSON for a JSON client.
  if (ctx.wantsJson) return json({ sent: true })
  return signupPage(ctx, provider, callbackUrl, { sentTo })
}
