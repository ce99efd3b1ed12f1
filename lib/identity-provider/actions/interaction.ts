/**
 * The sign-in and consent steps of an authorization request (`<base>/oidc-interaction/<uid>`,
 * where `oidc-provider` sends the browser): the step is read with the browser's own interaction
 * cookie (a step started in another browser is never finished here).
 * - sign-in: the app's session is the sign-in. Nobody signed in (or a sign-in older than the
 *   client's `max_age` or `prompt=login` allows): the sign-in page, every method and the second
 *   factor included, and back here. Then the provider resumes with the user, their sign-in time
 *   and methods (`amr`).
 * - consent: the page lists the client and what it asks for; Allow saves the grant (remembered
 *   per user and client, provider.ts), Deny ends the request with `access_denied`. A client in
 *   `skipConsent` is granted what it asks without the page.
 */
import { ServerResponse } from "node:http"
import type { IncomingMessage } from "node:http"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import { pageUrl } from "../../core/pages-url.js"
import { redirect } from "../../core/response.js"
import { bodyString } from "../../core/request.js"
import { fireEvent } from "../../core/events.js"
import { signedIn, type SignedIn } from "../../session/signed-in.js"
import { IdentityProviderUnavailable, InteractionNotFound } from "../errors.js"
import { providerFor, type BuiltProvider, type InteractionDetails } from "../provider.js"
import { consentPage } from "../page-render.js"

const UID = /^[A-Za-z0-9_-]{10,64}$/

interface Step {
  built: BuiltProvider
  details: InteractionDetails
  req: IncomingMessage
  res: ServerResponse
}

async function stepOf(ctx: RequestContext): Promise<Step> {
  if (!ctx.config.oidcProvider) throw new IdentityProviderUnavailable("The oidcProvider option is off")
  const uid = ctx.request.providerId
  if (!uid || !UID.test(uid)) throw new InteractionNotFound("No such sign-in step")
  const source = ctx.request.source as unknown
  if (!source || typeof (source as IncomingMessage).headers !== "object" || typeof (source as IncomingMessage).on !== "function") {
    throw new IdentityProviderUnavailable("The identity provider needs Node's HTTP server (Express, Connect, node:http)")
  }
  const req = source as IncomingMessage
  // A response never written: oidc-provider reads the interaction cookie through it, nothing more.
  const res = new ServerResponse(req)
  const built = await providerFor(ctx)
  let details: InteractionDetails
  try {
    details = await built.provider.interactionDetails(req, res)
  } catch (error) {
    throw new InteractionNotFound("The sign-in step is unknown, expired, or was started in another browser", { cause: { err: error } })
  }
  if (details.uid !== uid) throw new InteractionNotFound("The sign-in step was started in another browser")
  return { built, details, req, res }
}

function here(ctx: RequestContext, uid: string): string {
  return `${ctx.baseUrl}/oidc-interaction/${uid}`
}

/** The sign-in page, coming back here once signed in. */
function toSignIn(ctx: RequestContext, uid: string): ResponseInternal {
  return redirect(pageUrl(ctx, "signIn", new URLSearchParams({ callbackUrl: here(ctx, uid) })))
}

/** The session's sign-in is older than the step allows (`prompt=login` asked after the step began, or `max_age`). */
function tooOld(details: InteractionDetails, who: SignedIn, now = Date.now()): boolean {
  const authTime = typeof who.session.authTime === "number" ? who.session.authTime : 0
  if (details.prompt.reasons.includes("login_prompt") && authTime < details.iat) return true
  const maxAge = Number(details.params.max_age)
  return Number.isFinite(maxAge) && details.params.max_age !== undefined && now / 1000 - authTime > maxAge
}

async function finish(step: Step, result: Record<string, unknown>, merge: boolean): Promise<ResponseInternal> {
  const returnTo = await step.built.provider.interactionResult(step.req, step.res, result, { mergeWithLastSubmission: merge })
  return redirect(returnTo)
}

function loginResult(who: SignedIn): Record<string, unknown> {
  const amr = Array.isArray(who.session.amr) ? who.session.amr.filter((method): method is string => typeof method === "string") : undefined
  return {
    login: {
      accountId: who.identity.userId,
      ...(typeof who.session.authTime === "number" && { ts: who.session.authTime }),
      ...(amr?.length && { amr }),
      remember: true,
    },
  }
}

/** Grants what the step asks for (every missing scope, claim and resource scope); the grant's id. */
async function grantAll(step: Step, accountId: string): Promise<{ grantId: string; scopes: string[] }> {
  const { details, built } = step
  const clientId = String(details.params.client_id)
  const grant = (details.grantId ? await built.provider.Grant.find(details.grantId) : undefined) ?? new built.provider.Grant({ accountId, clientId })
  const missing = details.prompt.details
  const scopes: string[] = []
  if (missing.missingOIDCScope?.length) {
    grant.addOIDCScope(missing.missingOIDCScope.join(" "))
    scopes.push(...missing.missingOIDCScope)
  }
  if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims)
  for (const [indicator, resourceScopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, resourceScopes.join(" "))
    scopes.push(...resourceScopes)
  }
  return { grantId: await grant.save(), scopes }
}

export async function interactionGet(ctx: RequestContext): Promise<ResponseInternal> {
  const step = await stepOf(ctx)
  const { details } = step
  const who = await signedIn(ctx)
  if (details.prompt.name === "login") {
    if (!who || tooOld(details, who)) return toSignIn(ctx, details.uid)
    return finish(step, loginResult(who), false)
  }
  if (details.prompt.name !== "consent") throw new InteractionNotFound(`Unknown sign-in step ${details.prompt.name}`)
  if (!who) return toSignIn(ctx, details.uid)
  // Someone else signed in since the step began: sign-in again, as them (the provider asks consent anew).
  if (details.session?.accountId && details.session.accountId !== who.identity.userId) return finish(step, loginResult(who), false)
  const clientId = String(details.params.client_id)
  if (ctx.config.oidcProvider?.skipConsent.has(clientId)) {
    const { grantId } = await grantAll(step, who.identity.userId)
    return finish(step, { consent: { grantId } }, true)
  }
  const client = await step.built.provider.Client.find(clientId)
  const missing = details.prompt.details
  const asked = [...(missing.missingOIDCScope ?? []), ...Object.values(missing.missingResourceScopes ?? {}).flat()]
  const requested = typeof details.params.scope === "string" ? details.params.scope.split(" ").filter(Boolean) : []
  const resource = details.params.resource
  const resources = (Array.isArray(resource) ? resource : resource === undefined ? [] : [resource]).map(String)
  return consentPage(ctx, {
    action: here(ctx, details.uid),
    csrfToken: ensureCsrfToken(ctx),
    client: { name: client?.clientName || clientId, ...(client?.clientUri && { uri: client.clientUri }) },
    user: { email: who.user?.email ?? who.session.user?.email ?? "", name: who.user?.name ?? who.session.user?.name ?? null },
    scopes: [...new Set(asked)],
    granted: requested.filter((scope) => !asked.includes(scope)),
    resources,
    switchAccountUrl: `${ctx.baseUrl}/signout?${new URLSearchParams({ callbackUrl: here(ctx, details.uid) })}`,
  })
}

export async function interactionPost(ctx: RequestContext): Promise<ResponseInternal> {
  const step = await stepOf(ctx)
  const { details } = step
  if (details.prompt.name !== "consent") throw new InteractionNotFound("This sign-in step asks for no consent")
  const who = await signedIn(ctx)
  if (!who) return toSignIn(ctx, details.uid)
  if (details.session?.accountId !== who.identity.userId) throw new InteractionNotFound("The sign-in step belongs to someone else")
  const clientId = String(details.params.client_id)
  if (bodyString(ctx.request, "decision") !== "allow") {
    await fireEvent(ctx.config, "oidcProvider", { type: "oidc.consent.denied", clientId, userId: who.identity.userId })
    return finish(step, { error: "access_denied", error_description: "The user did not allow access" }, true)
  }
  const { grantId, scopes } = await grantAll(step, who.identity.userId)
  await fireEvent(ctx.config, "oidcProvider", { type: "oidc.consent.granted", clientId, userId: who.identity.userId, scopes })
  return finish(step, { consent: { grantId } }, true)
}
