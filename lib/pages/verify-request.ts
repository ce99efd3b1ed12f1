/**
 * The verify-request page's model: "check your email", naming the address the mail went to (from
 * the sent-mail cookie, lib/providers/email/sent.ts; never from the URL), with "send again" (the
 * email provider's sign-in POST with the CSRF token, so its rate limits apply) and "use another
 * address" (the sign-in page, with the callback URL). In the browser that asked for a mail with a
 * code (its code cookie), also a plain form to type the code in (posted to the provider's callback
 * with the CSRF token; no JavaScript needed).
 */
import type { RequestContext } from "../core/context.js"
import { ensureCsrfToken } from "../core/csrf.js"
import { pageUrl } from "../core/pages-url.js"
import { queryParam } from "../core/request.js"
import type { Messages } from "../i18n/en.js"
import type { ChosenLocale } from "../i18n/index.js"
import { DIGITS, codeSettings } from "../email-codes/code.js"
import { readPendingCode } from "../email-codes/pending.js"
import { readSentEmail } from "../providers/email/sent.js"
import type { ChallengeModel } from "./signin-model.js"
import { splitAt } from "./texts.js"
import type { CspSources } from "./theme.js"

/** The `error` values this page explains (a wrong code: the person types it again here). */
const ERRORS: Readonly<Record<string, keyof Messages>> = Object.freeze({ EmailCodeInvalid: "verify.error.EmailCodeInvalid" })

export interface CodeForm {
  action: string
  csrfToken: string
  length: number
  numeric: boolean
}

/** "Send again": the hidden fields of the provider's sign-in POST. */
export interface ResendForm {
  action: string
  fields: { csrfToken: string; email: string; callbackUrl: string }
  /** The email sign-in request's challenge (bot protection, issue #33). */
  challenge?: ChallengeModel
}

function messageKey(code: boolean, named: boolean): keyof Messages {
  if (code) return named ? "verify.codeMessageTo" : "verify.codeMessage"
  return named ? "verify.messageTo" : "verify.message"
}

export function verifyRequestModel(ctx: RequestContext, t: Messages) {
  const pending = readPendingCode(ctx)
  const provider = pending && ctx.config.providers.byId.get(pending.provider)
  const settings = provider?.type === "email" ? codeSettings(provider) : undefined
  const form: CodeForm | undefined =
    pending && settings && pending.expires > Date.now()
      ? { action: `${ctx.baseUrl}/callback/${pending.provider}`, csrfToken: ensureCsrfToken(ctx), length: settings.length, numeric: settings.alphabet === DIGITS }
      : undefined
  const error = queryParam(ctx.request, "error")
  const key = form && error !== undefined && Object.prototype.hasOwnProperty.call(ERRORS, error) ? ERRORS[error] : undefined
  // Only an address sent by a provider this configuration still has.
  const found = readSentEmail(ctx)
  const sent = found && ctx.config.providers.byId.get(found.provider)?.type === "email" ? found : undefined
  const address = sent?.identifier ?? pending?.identifier
  const [before, after] = splitAt(t[messageKey(form !== undefined, address !== undefined)], "email")
  const resend: ResendForm | undefined = sent && {
    action: `${ctx.baseUrl}/signin/${sent.provider}`,
    fields: { csrfToken: ensureCsrfToken(ctx), email: sent.identifier, callbackUrl: sent.callbackUrl },
  }
  const callbackUrl = sent?.callbackUrl ?? pending?.callbackUrl
  return {
    home: ctx.request.origin,
    form,
    message: { before, after },
    address,
    resent: sent?.resent === true,
    resend,
    otherAddress: { href: pageUrl(ctx, "signIn", callbackUrl ? new URLSearchParams({ callbackUrl }) : undefined), text: address ? t["verify.otherAddress"] : t["link.signIn"] },
    error: key && t[key],
  }
}

/**
 * Bot protection (issue #33, the resolved `formChallenge`; the page names no capability): "send
 * again" is an email sign-in request, so it carries that door's challenge; the return is what the
 * page's policy must allow for it (none: the policy stays as it was).
 */
export function resendChallenge(ctx: RequestContext, model: ReturnType<typeof verifyRequestModel>, chosen: ChosenLocale): CspSources | undefined {
  if (!model.resend) return undefined
  const challenge = ctx.config.formChallenge?.({ door: "emailSignIn", baseUrl: ctx.baseUrl, tag: chosen.locale.tag, messages: chosen.locale.messages })
  if (!challenge) return undefined
  model.resend.challenge = challenge.model
  return challenge.csp
}
