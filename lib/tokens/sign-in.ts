/**
 * What a sign-in with an OAuth/OIDC provider keeps for `getAccessToken` and federated sign-out:
 * with an adapter, a returning user's account row gets this sign-in's tokens (the row kept the
 * first sign-in's otherwise, whose refresh token may be long spent); without an adapter, the
 * tokens go into the session cookie (`providerTokens.<providerId>`).
 */
import type { Account, JWT } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { AccountTokenUpdate } from "../adapters.js"
import { pickTokens, withTokensInCookie } from "./provider-tokens.js"
import { clearRefused } from "./refused-mark.js"

function isOAuth(account: Account | undefined): account is Account {
  return (account?.type === "oauth" || account?.type === "oidc") && typeof account.access_token === "string"
}

/**
 * Stores the new tokens on a returning user's account row (a new user's row was just written with
 * them), and ends a refusal recorded for the user's database sessions (refused-mark.ts).
 */
export async function refreshStoredAccountTokens(config: ResolvedConfig, account: Account | undefined, isNewUser: boolean | undefined, userId?: string): Promise<void> {
  const adapter = config.adapter
  if (isNewUser || !isOAuth(account) || !adapter?.updateAccountTokens) return
  const tokens = pickTokens(account)
  const update = { refresh_token: null, expires_at: null, id_token: null, ...tokens } as AccountTokenUpdate
  await adapter.updateAccountTokens({ provider: account.provider, providerAccountId: account.providerAccountId }, update)
  if (userId && config.session.strategy === "database") await clearRefused(config, userId, account.provider)
}

/** The claim naming the OAuth/OIDC provider a cookie session was signed in with (federated sign-out). */
export const SIGN_IN_PROVIDER_CLAIM = "signInProvider"

/**
 * The session token with the provider it was signed in with and, when there is no adapter to
 * keep them, this sign-in's provider tokens.
 */
export function withSignInTokens(config: ResolvedConfig, token: JWT, account: Account | undefined): JWT {
  if (!isOAuth(account)) return token
  const named = { ...token, [SIGN_IN_PROVIDER_CLAIM]: account.provider }
  return config.adapter ? named : withTokensInCookie(named, account.provider, pickTokens(account))
}
