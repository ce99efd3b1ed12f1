/**
 * The provider's return: checks first (state before any token request), then the code exchange
 * on openid-client (which validates the ID token: signature, issuer, audience, expiry, nonce, and
 * the `iss` response parameter), then the profile. Every failure is a named error; nothing is
 * reflected from the provider's error parameters.
 */
import * as client from "openid-client"
import { AuthError, OAuthCallbackError, OAuthProfileParseError } from "../../errors.js"
import type { RequestContext } from "../../core/context.js"
import { providerFetch } from "../../outbound/fetch.js"
import { outboundFailure } from "../../outbound/failure.js"
import type { Account, Profile, TokenSet, User } from "../../types.js"
import type { OAuthProviderConfig } from "../types.js"
import { redirectProxyUrl, redirectUri } from "./authorization.js"
import { assertState, checksOf, clearChecks, expectedChecks } from "./checks.js"
import { oauthConfiguration } from "./client.js"
import { endpoint } from "./options.js"
import { accountOf, tokenSet, userFromProfile } from "./profile.js"

/** Seconds of clock difference with a provider tolerated on the ID token's `iat`. */
const ID_TOKEN_CLOCK_SKEW = 60

export interface OAuthResult {
  user: User
  account: Account
  profile: Profile
  /** The stored user whose session started the sign-in, if any. */
  startedBy?: string
}

/** The authorization response parameters (query, or the body of a form_post response). */
export function responseParams(ctx: RequestContext): URLSearchParams {
  if (ctx.request.method !== "POST") return ctx.request.query
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(ctx.request.body ?? {})) if (typeof value === "string") params.set(key, value)
  return params
}

function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name)
  return values.length === 1 ? values[0] : undefined
}

/**
 * The `user` field a form_post provider may add to its POST (Apple sends the user's name that way,
 * on the first sign-in only), as `profile.user` for `profile()`; ignored unless it is a JSON object.
 */
function formPostUser(ctx: RequestContext): Record<string, unknown> | undefined {
  const raw = ctx.request.method === "POST" ? ctx.request.body?.user : undefined
  if (typeof raw !== "string" || raw.length > 4096) return undefined
  try {
    const parsed: unknown = JSON.parse(raw)
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

async function fetchProfile(config: client.Configuration, provider: OAuthProviderConfig, tokens: TokenSet, claims: Profile | undefined): Promise<Profile> {
  const userinfo = provider.userinfo
  if (userinfo && typeof userinfo === "object" && "request" in userinfo && typeof userinfo.request === "function") {
    return (await userinfo.request({ tokens, provider, fetch: providerFetch(provider, undefined, "profile") })) as Profile
  }
  const accessToken = tokens.access_token
  const { url, params } = endpoint(userinfo, provider)
  const target = url ?? config.serverMetadata().userinfo_endpoint
  if (!target || !accessToken) {
    if (claims) return claims
    throw new OAuthProfileParseError(`Provider "${provider.id}" has no userinfo endpoint and returned no ID token`)
  }
  if (provider.type === "oidc" && claims && !url) {
    // OIDC userinfo: openid-client checks that its `sub` is the ID token's.
    return { ...claims, ...(await client.fetchUserInfo(config, accessToken, claims.sub as string)) }
  }
  const request = new URL(target)
  for (const [key, value] of Object.entries(params)) request.searchParams.set(key, value)
  const response = await client.fetchProtectedResource(config, accessToken, request, "GET")
  if (!response.ok) throw new OAuthCallbackError(`The userinfo request of provider "${provider.id}" answered ${response.status}`)
  const body: unknown = await response.json().catch(() => undefined)
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new OAuthProfileParseError(`The userinfo of provider "${provider.id}" is not a JSON object`)
  return claims ? { ...claims, ...(body as Profile) } : (body as Profile)
}

export async function completeAuthorization(ctx: RequestContext, provider: OAuthProviderConfig): Promise<OAuthResult> {
  ctx.outCookies.push(...clearChecks(ctx))
  const params = responseParams(ctx)
  const error = single(params, "error")
  if (params.has("error")) {
    // Logged with a bounded excerpt; never shown to the user.
    throw new OAuthCallbackError(`Provider "${provider.id}" answered with an error`, {
      cause: { error: error?.slice(0, 100), error_description: single(params, "error_description")?.slice(0, 300) },
    })
  }
  const checks = checksOf(provider, Boolean(redirectProxyUrl(ctx, provider)))
  const expected = expectedChecks(ctx, provider, checks)
  assertState(expected, single(params, "state"))
  try {
    const config = await oauthConfiguration(provider, (message) => ctx.config.logger.debug(message))
    const current = new URL(redirectUri(ctx, provider))
    params.forEach((value, key) => current.searchParams.append(key, value))
    const response = await client.authorizationCodeGrant(
      config,
      current,
      {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: provider.type === "oidc",
      },
      endpoint(provider.token, provider, true).params,
    )
    const tokens = tokenSet(response as unknown as Record<string, unknown>)
    const claims = response.claims() as Profile | undefined
    // openid-client only checks that `iat` is a number; an ID token from the future is refused.
    if (claims && typeof claims.iat === "number" && claims.iat > Date.now() / 1000 + ID_TOKEN_CLOCK_SKEW) {
      throw new OAuthCallbackError(`The ID token from provider "${provider.id}" was issued in the future (iat)`)
    }
    const profile = await fetchProfile(config, provider, tokens, claims)
    const posted = formPostUser(ctx)
    if (posted) profile.user = posted
    const { user, providerAccountId } = await userFromProfile(provider, profile, tokens)
    return { user, account: accountOf(provider, tokens, providerAccountId), profile, startedBy: expected.startedBy }
  } catch (cause) {
    if (cause instanceof AuthError) throw cause
    const outbound = outboundFailure(cause)
    if (outbound) throw outbound
    throw new OAuthCallbackError(`The sign-in with provider "${provider.id}" could not be completed`, { cause: { err: cause } })
  }
}
