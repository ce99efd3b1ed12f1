/**
 * What sign-out does at the provider the session came from (issue #17):
 * - `revokeTokensOnSignOut`: the refresh token, then the access token, revoked at the provider's
 *   `revocation_endpoint` (RFC 7009, openid-client `tokenRevocation`); a failure is logged and
 *   never stops the sign-out; the account row's tokens are cleared.
 * - `federatedSignOut`: the URL of the provider's `end_session_endpoint` (OpenID Connect
 *   RP-Initiated Logout 1.0) with `id_token_hint`, `client_id` and `post_logout_redirect_uri`,
 *   where the browser goes instead of the callback URL.
 * The provider is the one the cookie session names (`signInProvider`, or the only provider whose
 * tokens it holds); for a database session, every such provider the user has an account with.
 */
import * as client from "openid-client"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { oauthConfiguration } from "../providers/oauth/client.js"
import type { OAuthProviderConfig } from "../providers/types.js"
import type { JWT } from "../types.js"
import { pickTokens, tokensInCookie, TOKENS_CLAIM, type ProviderTokens } from "../tokens/provider-tokens.js"
import { SIGN_IN_PROVIDER_CLAIM } from "../tokens/sign-in.js"

export interface SignedOutSession {
  token?: JWT | null
  userId?: string
}

interface Federated {
  provider: OAuthProviderConfig
  tokens: ProviderTokens
  /** The account row the tokens came from (with an adapter). */
  account?: { provider: string; providerAccountId: string }
}

function federating(provider: OAuthProviderConfig | undefined): provider is OAuthProviderConfig {
  return !!provider && (provider.type === "oauth" || provider.type === "oidc") && !!(provider.federatedSignOut || provider.revokeTokensOnSignOut)
}

/** Some provider of the configuration signs out at the provider too. */
export function federates(config: ResolvedConfig): boolean {
  return config.providers.list.some((provider) => federating(provider as OAuthProviderConfig))
}

/** The providers (and their tokens) this sign-out concerns. */
async function concerned(config: ResolvedConfig, session: SignedOutSession): Promise<Federated[]> {
  const token = session.token ?? undefined
  const named = typeof token?.[SIGN_IN_PROVIDER_CLAIM] === "string" ? (token[SIGN_IN_PROVIDER_CLAIM] as string) : undefined
  const inCookie = token?.[TOKENS_CLAIM] && typeof token[TOKENS_CLAIM] === "object" ? Object.keys(token[TOKENS_CLAIM] as object) : []
  const ids = named ? [named] : config.session.strategy === "cookie" && inCookie.length === 1 ? inCookie : undefined
  const userId = session.userId ?? token?.sub
  const accounts = config.adapter?.listAccountsByUserId && userId ? await config.adapter.listAccountsByUserId(userId) : []
  const found: Federated[] = []
  for (const provider of config.providers.list as OAuthProviderConfig[]) {
    if (!federating(provider) || (ids && !ids.includes(provider.id))) continue
    const account = accounts.find((candidate) => candidate.provider === provider.id)
    const tokens = account ? pickTokens(account) : token ? tokensInCookie(token, provider.id) : undefined
    if (tokens && (ids || account)) found.push({ provider, tokens, ...(account && { account: { provider: account.provider, providerAccountId: account.providerAccountId } }) })
  }
  return found
}

async function revoke(config: ResolvedConfig, { provider, tokens, account }: Federated, configuration: client.Configuration): Promise<void> {
  if (!configuration.serverMetadata().revocation_endpoint) {
    config.logger.debug(`Provider "${provider.id}" has no revocation_endpoint: its tokens are not revoked at sign-out`)
    return
  }
  const list: Array<[string | undefined, string]> = [
    [tokens.refresh_token, "refresh_token"],
    [tokens.access_token, "access_token"],
  ]
  for (const [value, hint] of list) {
    if (!value) continue
    try {
      await client.tokenRevocation(configuration, value, { token_type_hint: hint })
    } catch (error) {
      config.logger.error(Object.assign(new Error(`Revoking the ${hint} of "${provider.id}" at sign-out failed; the sign-out goes on`), { cause: error }))
    }
  }
  // The revoked tokens are no use any more: the account row forgets them.
  if (account && config.adapter?.updateAccountTokens) {
    await Promise.resolve(config.adapter.updateAccountTokens(account, { access_token: null, refresh_token: null })).catch((error: Error) => config.logger.error(error))
  }
}

/**
 * Runs the provider side of a sign-out; returns where the browser should go instead of the
 * callback URL (the provider's end-session URL, which then sends it to `post_logout_redirect_uri`:
 * `federatedSignOut.postLogoutRedirectUri`, default the site's root), if anywhere.
 */
export async function signOutAtProviders(config: ResolvedConfig, session: SignedOutSession, siteOrigin: string): Promise<string | undefined> {
  let destination: string | undefined
  for (const federated of await concerned(config, session)) {
    const { provider, tokens } = federated
    let configuration: client.Configuration
    try {
      configuration = await oauthConfiguration(provider, (message) => config.logger.debug(message))
    } catch (error) {
      config.logger.error(error as Error)
      continue
    }
    if (provider.revokeTokensOnSignOut) await revoke(config, federated, configuration)
    if (!provider.federatedSignOut || destination || provider.type !== "oidc") continue
    if (!configuration.serverMetadata().end_session_endpoint) {
      config.logger.debug(`Provider "${provider.id}" has no end_session_endpoint: federatedSignOut cannot end its session`)
      continue
    }
    const option = typeof provider.federatedSignOut === "object" ? provider.federatedSignOut : {}
    // A fixed URL the provider can have registered (it must match exactly): the site's root by default.
    const params: Record<string, string> = { client_id: provider.clientId as string, post_logout_redirect_uri: option.postLogoutRedirectUri ?? new URL("/", siteOrigin).href }
    if (tokens.id_token) params.id_token_hint = tokens.id_token
    destination = client.buildEndSessionUrl(configuration, params).href
  }
  return destination
}
