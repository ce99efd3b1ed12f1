/**
 * The verify-request page's model: "check your email", and, in the browser that asked for a mail
 * with a code (its code cookie), a plain form to type the code in (posted to the provider's
 * callback with the CSRF token; no JavaScript needed).
 */
import type { RequestContext } from "../core/context.js"
import { ensureCsrfToken } from "../core/csrf.js"
import { queryParam } from "../core/request.js"
import type { Messages } from "../i18n/en.js"
import { DIGITS, codeSettings } from "../email-codes/code.js"
import { readPendingCode } from "../email-codes/pending.js"

/** The `error` values this page explains (a wrong code: the person types it again here). */
const ERRORS: Readonly<Record<string, keyof Messages>> = Object.freeze({ EmailCodeInvalid: "verify.error.EmailCodeInvalid" })

export interface CodeForm {
  action: string
  csrfToken: string
  length: number
  numeric: boolean
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
  return { home: ctx.request.origin, form, message: form ? t["verify.codeMessage"] : t["verify.message"], error: key && t[key] }
}
