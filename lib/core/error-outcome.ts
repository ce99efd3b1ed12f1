/**
 * Each error has exactly one outcome. Flow errors send a browser to the sign-in or error page
 * with `error=<value>` (the spec's values), or answer JSON to clients that asked for it. Protocol
 * errors (bad method, path, body) answer with their status and a JSON body. Types outside the
 * client-safe set are shown as `Configuration`; the real error always goes to the log.
 */
import { AuthError, type ErrorType } from "./errors.js"
import { CredentialsSignin, MethodNotAllowed, RateLimited } from "./named-errors.js"
import type { ResponseInternal } from "../types.js"
import { publicMessage } from "./error-messages.js"
import type { RequestContext } from "./context.js"
import { json, redirect } from "./response.js"
import { pageUrl } from "./pages-url.js"
import { attemptedIdentifier, signinPageResponse } from "../pages/signin-page.js"
import { answersNotFoundPage, notFoundPage } from "../pages/not-found.js"
import { CAPABILITIES } from "../capabilities.js"

interface FlowOutcome {
  page: "signIn" | "error" | "verifyRequest"
  /** The `error` query value; defaults to the type. */
  value?: string
  status: number
}

/** Client-safe flow errors. Anything not listed here (or in PROTOCOL) is shown as Configuration. */
const FLOW: Partial<Record<ErrorType, FlowOutcome>> = {
  CredentialsSignin: { page: "signIn", status: 401 },
  MissingCSRF: { page: "signIn", status: 403 },
  OAuthSignInError: { page: "signIn", value: "OAuthSignin", status: 400 },
  OAuthCallbackError: { page: "signIn", status: 400 },
  InvalidCheck: { page: "signIn", value: "OAuthCallbackError", status: 400 },
  OAuthProfileParseError: { page: "signIn", value: "OAuthCallbackError", status: 400 },
  OAuthAccountNotLinked: { page: "signIn", status: 400 },
  OAuthCreateAccount: { page: "signIn", status: 500 },
  AccountNotLinked: { page: "signIn", value: "OAuthAccountNotLinked", status: 400 },
  UnverifiedAccountExists: { page: "signIn", status: 409 },
  // With an email provider, a passkey for a new address waits for the address to be proved.
  EmailProofRequired: { page: "signIn", status: 400 },
  EmailSignInError: { page: "signIn", value: "EmailSignin", status: 400 },
  WebAuthnVerificationError: { page: "signIn", status: 400 },
  AccessDenied: { page: "error", status: 403 },
  Verification: { page: "error", status: 400 },
  // The database is unreachable: a temporary condition, said as such (never access granted).
  AdapterError: { page: "error", status: 503 },
  // The shared store is down and a single use cannot be checked across processes (passkeys).
  StoreUnavailable: { page: "error", status: 503 },
  // A stale sign-in for an action that needs a recent one (lib/session/assurance.ts).
  RecentSignInRequired: { page: "signIn", status: 403 },
  // A provider too slow, too long-winded or redirecting inwards (lib/outbound/): the sign-in ends here.
  ProviderTimeout: { page: "error", status: 504 },
  ProviderResponseTooLarge: { page: "error", status: 502 },
  ProviderRedirectRefused: { page: "error", status: 502 },
}

/** Seconds a client is asked to wait after an AdapterError before trying again. */
export const ADAPTER_RETRY_AFTER = 5

const CONFIGURATION: FlowOutcome = { page: "error", value: "Configuration", status: 500 }

/** Errors about the HTTP request itself: answered in place, never by a redirect. */
const PROTOCOL: Partial<Record<ErrorType, number>> = {
  InvalidRequest: 400,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  MethodNotAllowed: 405,
  UnknownAction: 404,
  InvalidProvider: 404,
  SessionRequired: 401,
  // Listing or revoking database sessions with an adapter that cannot (issue #14); start-up checks cover the rest.
  MissingAdapterMethods: 501,
}

// Each capability's outcomes (lib/capabilities.ts): in place (no page) or a flow page.
for (const capability of CAPABILITIES) {
  for (const [type, outcome] of Object.entries(capability.outcomes ?? {})) {
    if (outcome.page) FLOW[type as ErrorType] = { page: outcome.page, status: outcome.status, ...(outcome.value && { value: outcome.value }) }
    else PROTOCOL[type as ErrorType] = outcome.status
  }
}

/** The largest `code` put in a URL or shown on a page. */
const MAX_CODE_LENGTH = 64

export function errorType(error: unknown): ErrorType {
  return error instanceof AuthError ? error.type : "Configuration"
}

/** The status a JSON client gets for `error`, and the type it is shown as. */
export function publicError(error: unknown): { type: string; status: number; page?: FlowOutcome["page"] } {
  const type = errorType(error)
  const protocol = PROTOCOL[type]
  if (protocol) return { type, status: protocol }
  const flow = FLOW[type] ?? CONFIGURATION
  return { type: flow.value ?? type, status: flow.status, page: flow.page }
}

/** Refused for too many attempts: answered in place with 429 (the sign-in page, or JSON). */
function rateLimitedOutcome(error: RateLimited, ctx: RequestContext): ResponseInternal {
  const headers = { "Retry-After": String(error.retryAfter) }
  const body = { error: { type: error.type, message: publicMessage(error.type) } }
  if (ctx.wantsJson || ctx.returnRedirect) return json(body, 429, headers)
  if (ctx.config.pages.signIn) {
    return redirect(pageUrl(ctx, "signIn", new URLSearchParams({ error: error.type, ...(ctx.callbackUrl && { callbackUrl: ctx.callbackUrl }) })))
  }
  const page = signinPageResponse(ctx, ctx.callbackUrl ?? ctx.request.origin, error.type, 429)
  return { ...page, headers: { ...page.headers, ...headers } }
}

export function toErrorOutcome(error: unknown, ctx: RequestContext): ResponseInternal {
  // A rate limit logs itself once per window, not on every refused attempt.
  if (error instanceof RateLimited) return rateLimitedOutcome(error, ctx)
  // An error that expects to be thrown often by strangers (a bot's refused challenge) says so: logged at debug, not as a fault.
  if ((error as { quiet?: unknown } | null)?.quiet === true) ctx.config.logger.debug(`${(error as AuthError).type}: ${(error as Error).message}`)
  else ctx.config.logger.error(error instanceof Error ? error : new AuthError(String(error)))
  const shown = publicError(error)
  const body = { error: { type: shown.type, message: publicMessage(shown.type) } }
  // A browser that asked for no action (or one that is off) sees the themed 404 page (issue #26).
  if (!ctx.wantsJson && answersNotFoundPage(shown.type, ctx.request.header("accept"))) return notFoundPage(ctx, pageUrl(ctx, "signIn"))
  if (!shown.page) {
    const headers = error instanceof MethodNotAllowed && error.allow ? { Allow: error.allow } : undefined
    return json(body, shown.status, headers)
  }
  const params = new URLSearchParams({ error: shown.type })
  if (error instanceof CredentialsSignin || errorType(error) === "CredentialsSignin") {
    params.set("code", String((error as CredentialsSignin).code ?? "credentials").slice(0, MAX_CODE_LENGTH))
  }
  if (shown.page === "signIn" && ctx.callbackUrl) params.set("callbackUrl", ctx.callbackUrl)
  // What was typed as the identifier (never a password) comes back to the page (issue #26); not
  // for a POST without a valid CSRF token (it may come from another site).
  const typed = shown.page === "signIn" && shown.type !== "MissingCSRF" ? attemptedIdentifier(ctx) : undefined
  if (typed) params.set("login_hint", typed)
  const url = pageUrl(ctx, shown.page, params)
  if (ctx.returnRedirect) return json({ url, ...body })
  if (ctx.wantsJson) return json({ ...body, url }, shown.status, shown.status === 503 ? { "Retry-After": String(ADAPTER_RETRY_AFTER) } : undefined)
  return redirect(url)
}
