/** The built-in sign-in page as a response: from `GET signin`, or in place of a refused attempt. */
import { domainToASCII } from "node:url"
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { ensureCsrfToken } from "../core/csrf.js"
import { bodyString, queryParam } from "../core/request.js"
import type { ChosenLocale } from "../i18n/index.js"
import { pageLocale, pageResponse } from "./page.js"
import { signinModel, type SigninModel } from "./signin.js"
import type { CspSources } from "./theme.js"
import { LOGIN_HINT, readIdentifier, identifierField, identifierKind, isIdentifierFirst } from "./signin-identifier.js"
import { readLastUsed } from "./signin-last-used.js"

/**
 * What was typed as the identifier in the attempt this request made (a credentials form's
 * identifier field, an email form's address), so a refused attempt keeps it (issue #26). Never a
 * password: only the identifier field is read.
 */
export function attemptedIdentifier(ctx: RequestContext): string | undefined {
  const provider = ctx.request.providerId ? ctx.config.providers.byId.get(ctx.request.providerId) : undefined
  if (!provider || ctx.request.method !== "POST") return undefined
  if (provider.type === "email") return readIdentifier(bodyString(ctx.request, "email"))
  if (provider.type !== "credentials") return undefined
  const field = identifierField(provider)
  return field ? readIdentifier(bodyString(ctx.request, field.name)) : undefined
}

/** The identifier the page shows: the query's `login_hint`, else the one a refused attempt typed. */
function pageIdentifier(ctx: RequestContext): string | undefined {
  return readIdentifier(queryParam(ctx.request, LOGIN_HINT)) ?? attemptedIdentifier(ctx)
}

/**
 * Enterprise sign-in (issue #28, the resolved `sso` field; the page names no capability): the
 * domain of the typed address when an organization verified it and requires its SSO. One adapter
 * call, only with `sso` on and on the second step of an address. It decides which button the page
 * shows, not who may sign in (every sign-in is checked as it completes): a failed lookup shows the
 * usual methods.
 */
async function ssoEnforcedDomain(ctx: RequestContext, hint: string | undefined): Promise<string | undefined> {
  if (!ctx.config.sso || hint === undefined || identifierKind(hint) !== "email" || !isIdentifierFirst(ctx.config.providers.list)) return undefined
  const domain = domainToASCII(hint.slice(hint.lastIndexOf("@") + 1).replace(/\.$/, "")).toLowerCase()
  if (!domain) return undefined
  try {
    const claim = await ctx.config.adapter?.getVerifiedDomain?.(domain)
    return claim?.enforceSso && claim.verifiedAt ? domain : undefined
  } catch (error) {
    ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)))
    return undefined
  }
}

/** `GET signin`'s page: with `sso` on, the second step of an address at a domain that requires SSO offers only that. */
export async function signinPageForRequest(ctx: RequestContext, callbackUrl: string, error?: string): Promise<ResponseInternal> {
  const enforcedDomain = await ssoEnforcedDomain(ctx, pageIdentifier(ctx))
  return signinPageResponse(ctx, callbackUrl, error, 200, enforcedDomain)
}

export function signinPageResponse(ctx: RequestContext, callbackUrl: string, error?: string, status = 200, ssoEnforcedDomain?: string): ResponseInternal {
  const chosen = pageLocale(ctx)
  const model = signinModel({
    providers: ctx.config.providers.list,
    baseUrl: ctx.baseUrl,
    csrfToken: ensureCsrfToken(ctx),
    callbackUrl,
    error,
    t: chosen.locale.messages,
    loginHint: pageIdentifier(ctx),
    lastUsed: readLastUsed(ctx),
    ...(ctx.config.sso && { sso: { enforcedDomain: ssoEnforcedDomain } }),
  })
  return pageResponse(ctx, "signin", "Sign in", model, status, chosen, addChallenges(ctx, model, chosen, error))
}

/**
 * Bot protection (issue #33, the resolved `formChallenge`; the page names no capability): the
 * challenge each email and credentials form carries, if any, its scripts loaded once, and what
 * the page's policy must allow for it (none: the policy stays as it was).
 */
function addChallenges(ctx: RequestContext, model: SigninModel, chosen: ChosenLocale, error: string | undefined): CspSources | undefined {
  const source = ctx.config.formChallenge
  if (!source) return undefined
  const page = { baseUrl: ctx.baseUrl, tag: chosen.locale.tag, messages: chosen.locale.messages, error }
  let csp: CspSources | undefined
  // A passkey's "create via email" form asks for an email sign-in too, where the page draws it (last).
  const viaEmail = model.webauthn.flatMap((passkey) => (passkey.create.viaEmail && (model.step === "single" || passkey.create.email !== undefined) ? [passkey.create.viaEmail] : []))
  const forms = [
    ...model.email.map((entry) => ({ entry, door: "emailSignIn" as const })),
    ...model.credentials.map((entry) => ({ entry, door: "signIn" as const })),
    ...viaEmail.map((entry) => ({ entry, door: "emailSignIn" as const })),
  ]
  for (const { entry, door } of forms) {
    const challenge = source({ ...page, door })
    if (!challenge) continue
    entry.challenge = csp ? { ...challenge.model, scripts: [] } : challenge.model
    csp ??= challenge.csp
  }
  return csp
}
