/**
 * One refresh at the provider: openid-client's refresh token grant on the provider's cached
 * Configuration (its bounded fetch included). `invalid_grant` is `RefreshTokenError` at once;
 * a network failure, a timeout or a server error (5xx) is tried once more, then
 * `TokenRefreshFailed`; any other refusal (a misconfigured client) is `TokenRefreshFailed` at once.
 */
import * as client from "openid-client"
import type { ResolvedConfig } from "../core/config/resolve.js"
import { AuthError, ProviderResponseTooLarge, ProviderRedirectRefused, RefreshTokenError, TokenRefreshFailed } from "../errors.js"
import { outboundFailure } from "../outbound/failure.js"
import { oauthConfiguration } from "../providers/oauth/client.js"
import type { OAuthProviderConfig } from "../providers/types.js"
import { pickTokens, type ProviderTokens } from "./provider-tokens.js"

/** Pause before the one retry. */
const RETRY_DELAY_MS = 250

type Verdict = "refused" | "transient" | "final"

function classify(error: unknown): Verdict {
  if (error instanceof client.ResponseBodyError) {
    if (error.error === "invalid_grant") return "refused"
    return error.status >= 500 ? "transient" : "final"
  }
  const outbound = outboundFailure(error)
  if (outbound instanceof ProviderResponseTooLarge || outbound instanceof ProviderRedirectRefused) return "final"
  if (error instanceof AuthError && !outbound) return "final"
  return "transient"
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

export async function refreshGrant(config: ResolvedConfig, provider: OAuthProviderConfig, previous: ProviderTokens): Promise<ProviderTokens> {
  const refreshToken = previous.refresh_token as string
  const log = (message: string) => config.logger.debug(message)
  let lastError: unknown
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const configuration = await oauthConfiguration(provider, log)
      const response = await client.refreshTokenGrant(configuration, refreshToken)
      return merge(previous, response, Date.now())
    } catch (error) {
      lastError = error
      const verdict = classify(error)
      if (verdict === "refused") {
        throw new RefreshTokenError(`Provider "${provider.id}" refused the refresh token (invalid_grant): the user must sign in with it again`, { cause: { err: error } })
      }
      if (verdict === "final" || attempt === 2) break
      config.logger.debug(`Refreshing the "${provider.id}" access token failed (${(error as Error)?.message}); trying once more`)
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS))
    }
  }
  const outbound = outboundFailure(lastError)
  throw new TokenRefreshFailed(`Refreshing the "${provider.id}" access token failed: ${(outbound ?? (lastError as Error))?.message ?? String(lastError)}`, { cause: { err: lastError } })
}
