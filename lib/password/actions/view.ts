/**
 * The password pages: one shared layout (../views/partials/password-page.ejs) in each page's
 * template (../pages.ts), in the request's language, or a redirect to the app's page from `pages.*`.
 */
import { AuthError } from "../../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import type { PageName } from "../../core/pages-url.js"
import { format, type MessageKey, type Messages } from "../../i18n/index.js"
import { customPageRedirect, pageLocale, pageResponse } from "../../pages/page.js"
import type { CapabilityPage } from "../../pages/capability-page.js"
import type { PasswordProviderConfig } from "../options.js"
import type { BotAction } from "../../bot-protection/settings.js"

export interface PasswordField {
  name: "email" | "password" | "newPassword" | "currentPassword" | "name"
  type: "email" | "password" | "text"
  autocomplete: string
  required: boolean
  /** Filled in (the address an invitation or the sign-in page already knows). */
  value?: string
}

export interface PasswordPageInput {
  template: CapabilityPage
  page: PageName
  message?: MessageKey
  /** A success text shown instead of the form (e.g. "check your email"). */
  notice?: MessageKey
  /** Values for the notice's placeholders (e.g. `{email}`: the address the mail went to). */
  noticeValues?: Readonly<Record<string, string>>
  error?: unknown
  form?: { action: string; button: MessageKey; fields: PasswordField[]; hidden: Record<string, string>; hint?: boolean }
  links?: Array<{ href: string; text: MessageKey }>
  status?: number
}

const FIELD_LABELS: Record<PasswordField["name"], MessageKey> = {
  email: "password.field.email",
  password: "password.field.password",
  newPassword: "password.field.newPassword",
  currentPassword: "password.field.currentPassword",
  name: "password.field.name",
}

const PAGE_ERRORS = new Set(["WeakPassword", "PasswordTooLong", "BreachedPassword", "PasswordLinkInvalid", "PasswordLinkSuperseded", "WrongCurrentPassword", "InvalidRequest"])

/** Errors a password page shows in place (the rest take their usual outcome). */
export function isShownOnPage(error: unknown): error is AuthError {
  return error instanceof AuthError && (error.type === "RateLimited" || BOT_ERRORS.has(error.type) || PAGE_ERRORS.has(error.type))
}

/** Bot protection's refusals (issue #33): shown in place with the sign-in page's texts. */
const BOT_ERRORS = new Set(["BotChallengeFailed", "BotCheckUnavailable"])

/** 429 for too many attempts, 503 when the bot check could not run, else 400. */
export const pageErrorStatus = (error: AuthError) => (error.type === "RateLimited" ? 429 : error.type === "BotCheckUnavailable" ? 503 : 400)

/** The page's text for an error thrown by a password action. */
export function errorText(t: Messages, error: unknown, provider: PasswordProviderConfig): string {
  const type = error instanceof AuthError ? error.type : "default"
  if (type === "RateLimited") return t["signin.error.RateLimited"]
  if (BOT_ERRORS.has(type)) return t[`signin.error.${type}` as MessageKey]
  if (PAGE_ERRORS.has(type)) return format(t[`password.error.${type}` as MessageKey], { min: String(provider.password.minLength) })
  return t["signin.error.default"]
}

/** The pages whose form is a door bot protection guards (issue #33): their forms carry its challenge. */
const GUARDED: Partial<Record<PageName, BotAction>> = { signUp: "signUp", forgotPassword: "forgotPassword" }

/** The built-in page (or the app's replacement, for a GET). */
export function passwordPage(ctx: RequestContext, provider: PasswordProviderConfig, input: PasswordPageInput): ResponseInternal {
  if (ctx.request.method !== "POST") {
    const custom = customPageRedirect(ctx, input.page)
    if (custom) return custom
  }
  const chosen = pageLocale(ctx)
  const t = chosen.locale.messages
  const door = input.form && GUARDED[input.page]
  const challenge = door ? ctx.config.formChallenge?.({ door, baseUrl: ctx.baseUrl, tag: chosen.locale.tag, messages: t }) : undefined
  const model = {
    heading: t[input.template.title],
    message: input.message && t[input.message],
    notice: input.notice && format(t[input.notice], input.noticeValues ?? {}),
    error: input.error === undefined ? undefined : errorText(t, input.error, provider),
    hint: input.form?.hint ? format(t["password.hint"], { min: String(provider.password.minLength) }) : undefined,
    form: input.form && {
      action: input.form.action,
      button: t[input.form.button],
      hidden: { csrfToken: ensureCsrfToken(ctx), ...input.form.hidden },
      fields: input.form.fields.map((f) => ({ ...f, id: `password-${f.name}`, label: t[FIELD_LABELS[f.name]] })),
      challenge: challenge?.model,
    },
    links: (input.links ?? []).map((link) => ({ href: link.href, text: t[link.text] })),
  }
  return pageResponse(ctx, input.template, model.heading, model, input.status ?? 200, chosen, challenge?.csp)
}
