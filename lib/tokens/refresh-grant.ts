/**
 * One refresh at the provider: openid-client's refresh token grant on the provider's cached
 * Configuration (its bounded fetch included). `invalid_grant` is `RefreshTokenError` at once.
 *
 * A refresh token is never sent twice: the one retry happens only when the first request
 * certainly did not reach the provider (connection refused, DNS failure, no connection within the
 * connect timeout: see `notSent` in lib/outbound/transport.ts, and the same errors' codes from an
 * app's own fetch). Anything that may have reached it (a timeout after the request was written, a
 * connection reset, any answer: a 5xx included) is `TokenRefreshFailed` at once, flagged
 * `maybeSent` (single-flight.ts then keeps other processes from resending it for a moment). The
 * provider may have rotated the refresh token without Gatehouse seeing the answer: the next
 * refresh then gets `invalid_grant` (RefreshTokenError, sign in again), or succeeds if the
 * provider never processed it (or keeps a reuse grace period, as Okta, Auth0 and Keycloak can).
 */
import * as client from "openid-client"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { RefreshTokenError, TokenRefreshFailed } from "./errors.js"
import { outboundFailure } from "../outbound/failure.js"
import { notSent } from "../outbound/transport.js"
import { oauthConfiguration } from "../providers/oauth/client.js"
import type { OAuthProviderConfig } from "../providers/types.js"
import { pickTokens, type ProviderTokens } from "./provider-tokens.js"

/** Pause before the one retry. */
const RETRY_DELAY_MS = 250

/** Error codes that only happen before a connection exists (an app's own fetch reports them as the cause). */
const BEFORE_CONNECT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH", "UND_ERR_CONNECT_TIMEOUT"])

/** The errors along `error`'s cause chain (openid-client wraps what a fetch throws; Gatehouse's errors keep it as `cause.err`). */
function chain(error: unknown): unknown[] {
  const links: unknown[] = []
  let current: unknown = error
  for (let depth = 0; depth < 8 && current; depth++) {
    links.push(current)
    const cause: unknown = (current as { cause?: unknown }).cause
    current = cause && typeof cause === "object" && "err" in cause && !(cause instanceof Error) ? (cause as { err: unknown }).err : cause
  }
  return links
}

/** True when the request certainly did not reach the provider (so sending it again sends the refresh token once). */
export function certainlyNotSent(error: unknown): boolean {
  return chain(error).some((link) => notSent(link) || BEFORE_CONNECT.has(String((link as { code?: unknown } | null)?.code)))
}

/** The new tokens: what the provider sent, the old refresh and ID tokens kept when it sent none. */
function merge(previous: ProviderTokens, response: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers, now: number): ProviderTokens {
  const sent = pickTokens(response as unknown as ProviderTokens)
  const expiresIn = response.expiresIn()
  return {
    ...sent,
    refresh_token: sent.refresh_token ?? previous.refresh_token,
    id_token: sent.id_token ?? previous.id_token,
    scope: sent.scope ?? previous.scope,
    ...(expiresIn !== undefined ? { expires_at: Math.floor(now / 1000) + expiresIn } : { expires_at: undefined }),
  }
}

const maybeSent = new WeakSet<TokenRefreshFailed>()

/** True for a `TokenRefreshFailed` whose request may have reached the provider. */
export function refreshMaybeSent(error: unknown): boolean {
  return error instanceof TokenRefreshFailed && maybeSent.has(error)
}

/** True when the provider answered the grant with an OAuth error (4xx): it refused it, so it rotated nothing. */
function refusedOutright(error: unknown): boolean {
  return error instanceof client.ResponseBodyError && error.status < 500
}

export async function refreshGrant(config: ResolvedConfig, provider: OAuthProviderConfig, previous: ProviderTokens): Promise<ProviderTokens> {
  const refreshToken = previous.refresh_token as string
  const log = (message: string) => config.logger.debug(message)
  let lastError: unknown
  let unsent = true
  for (let attempt = 1; attempt <= 2; attempt++) {
    // Until the grant is called, nothing carrying the refresh token has left (discovery may fail first).
    let granting = false
    try {
      const configuration = await oauthConfiguration(provider, log)
      granting = true
      const response = await client.refreshTokenGrant(configuration, refreshToken)
      return merge(previous, response, Date.now())
    } catch (error) {
      lastError = error
      if (error instanceof client.ResponseBodyError && error.error === "invalid_grant") {
        throw new RefreshTokenError(`Provider "${provider.id}" refused the refresh token (invalid_grant): the user must sign in with it again`, { cause: { err: error } })
      }
      unsent = !granting || certainlyNotSent(error)
      if (!unsent || attempt === 2) break
      config.logger.debug(`Refreshing the "${provider.id}" access token failed before the request was sent (${(error as Error)?.message}); trying once more`)
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS))
    }
  }
  const outbound = outboundFailure(lastError)
  const failed = new TokenRefreshFailed(`Refreshing the "${provider.id}" access token failed: ${(outbound ?? (lastError as Error))?.message ?? String(lastError)}`, { cause: { err: lastError } })
  // The provider may have received (and rotated) the refresh token without its answer arriving.
  if (!unsent && !refusedOutright(lastError)) maybeSent.add(failed)
  throw failed
}
