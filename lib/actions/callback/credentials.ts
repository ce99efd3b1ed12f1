/**
 * `POST callback/<credentials provider>`: runs `authorize` with the posted fields.
 * null or a thrown `CredentialsSignin` refuses with the provider's code; anything else thrown is
 * logged in full and shown as a generic error. The code never says which field was wrong.
 */
import { CallbackRouteError, CredentialsSignin, InvalidRequest } from "../../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import type { CredentialsConfig } from "../../providers/types.js"
import { redirect } from "../../core/response.js"
import { authorizeSignIn, completeSignIn, type SignInResult } from "./login.js"
import { credentialsUser } from "./users.js"
import { enforceRateLimit, forgiveIdentifier } from "../../rate-limit/limiter.js"
import { forgetSignInFailures, noteSignInFailure, requireHuman } from "../../bot-protection/check.js"

/** Keys that would reach an object's prototype if copied naively. */
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"])

/**
 * The posted fields `authorize` receives: string values only, exactly as sent (no trimming or
 * normalisation). A declared field given as an array or object is refused; undeclared non-string
 * fields are dropped. The CSRF token is not passed on.
 */
export function credentialFields(body: Record<string, unknown> | undefined, provider: CredentialsConfig): Record<string, string> {
  const fields: Record<string, string> = {}
  if (!body) return fields
  const declared = provider.credentials ?? {}
  for (const [key, value] of Object.entries(body)) {
    if (UNSAFE_KEYS.has(key) || key === "csrfToken") continue
    if (typeof value === "string") fields[key] = value
    else if (Object.prototype.hasOwnProperty.call(declared, key)) {
      throw new InvalidRequest(`The "${key}" field must be a single text value`)
    }
  }
  return fields
}

function isCredentialsSignin(error: unknown): error is CredentialsSignin {
  // Also recognises the class of another copy of this package, or of @auth/core.
  return error instanceof CredentialsSignin || (error instanceof Error && (error as { type?: unknown }).type === "CredentialsSignin")
}

/**
 * What a credentials attempt is counted against besides the client address: the first declared
 * field that is not a password (the username or email), as posted.
 */
function identifierOf(credentials: Record<string, string>, provider: CredentialsConfig): string | undefined {
  for (const [name, field] of Object.entries(provider.credentials ?? {})) {
    if (field?.type !== "password" && credentials[name]) return credentials[name]
  }
  return undefined
}

export async function credentialsCallback(ctx: RequestContext, provider: CredentialsConfig, callbackUrl: string): Promise<ResponseInternal> {
  const credentials = credentialFields(ctx.request.body, provider)
  const identifier = identifierOf(credentials, provider)
  await enforceRateLimit(ctx.config, "credentials", ctx.request.clientAddress, identifier)
  // Bot protection (issue #33): after repeated failures for the identifier or the address.
  await requireHuman(ctx, "signIn", identifier)
  let user: Awaited<ReturnType<CredentialsConfig["authorize"]>>
  try {
    // Only build a web Request when authorize declares the parameter.
    const request = provider.authorize.length >= 2 ? ctx.request.webRequest() : (undefined as unknown as Request)
    user = await provider.authorize(credentials, request)
  } catch (error) {
    if (isCredentialsSignin(error)) {
      await noteSignInFailure(ctx, identifier)
      throw error
    }
    throw new CallbackRouteError(`authorize of provider "${provider.id}" threw`, { cause: { err: error, provider: provider.id } })
  }
  if (!user) {
    await noteSignInFailure(ctx, identifier)
    throw new CredentialsSignin(`authorize of provider "${provider.id}" returned no user`)
  }
  await forgiveIdentifier(ctx.config, "credentials", identifier)
  await forgetSignInFailures(ctx, identifier)
  const account = { providerAccountId: user.id !== undefined && user.id !== null ? String(user.id) : "", type: "credentials" as const, provider: provider.id }
  const result: SignInResult = { user, account, extra: { credentials } }
  // A URL from the signIn callback sends the user there instead: no session starts.
  const elsewhere = await authorizeSignIn(ctx, result)
  if (elsewhere) return redirect(elsewhere)
  if (ctx.config.adapter) {
    // With an adapter, users live in the database whatever the session strategy.
    const stored = await credentialsUser(ctx, user, account)
    result.user = stored.user
    result.account = { ...account, userId: stored.user.id }
    result.isNewUser = stored.isNewUser
    // A squatter's ways in were removed from this user's address: the user is told (notice page).
    if (stored.reclaimed) result.notice = "AccountReclaimed"
  }
  return completeSignIn(ctx, result, callbackUrl)
}
