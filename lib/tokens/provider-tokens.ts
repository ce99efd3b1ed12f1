/**
 * A provider's tokens as Gatehouse keeps them for `getAccessToken` and federated sign-out: in the
 * account row (with an adapter) or, for cookie sessions without an adapter, in the session cookie
 * under `providerTokens.<providerId>` (sealed like the rest of the cookie).
 */
import type { Account, JWT, TokenSet } from "../types.js"

export interface ProviderTokens {
  access_token?: string
  refresh_token?: string
  /** Seconds since the epoch. */
  expires_at?: number
  id_token?: string
  token_type?: string
  scope?: string
}

/** The cookie claim holding each provider's tokens. */
export const TOKENS_CLAIM = "providerTokens"

/** The `error` a session carries once a provider refused its refresh token. */
export const REFRESH_TOKEN_ERROR = "RefreshTokenError"

const FIELDS = ["access_token", "refresh_token", "expires_at", "id_token", "token_type", "scope"] as const

/** The token fields of an account or a token response (nothing else). */
export function pickTokens(source: TokenSet | Account | ProviderTokens): ProviderTokens {
  const out: Record<string, unknown> = {}
  for (const field of FIELDS) {
    const value = (source as Record<string, unknown>)[field]
    if (field === "expires_at" ? typeof value === "number" : typeof value === "string") out[field] = value
  }
  return out as ProviderTokens
}

/** The tokens of `providerId` in a session token, if it has them. */
export function tokensInCookie(token: JWT, providerId: string): ProviderTokens | undefined {
  const all = token[TOKENS_CLAIM]
  if (!all || typeof all !== "object") return undefined
  const mine = (all as Record<string, unknown>)[providerId]
  return mine && typeof mine === "object" ? pickTokens(mine as ProviderTokens) : undefined
}

/** `token` with the tokens of `providerId` replaced. */
export function withTokensInCookie(token: JWT, providerId: string, tokens: ProviderTokens): JWT {
  const all = token[TOKENS_CLAIM] && typeof token[TOKENS_CLAIM] === "object" ? (token[TOKENS_CLAIM] as Record<string, unknown>) : {}
  return { ...token, [TOKENS_CLAIM]: { ...all, [providerId]: pickTokens(tokens) } }
}

/** Keeps the provider tokens (and a refresh error) of `from` in `token`, whatever a `jwt` callback returned. */
export function keepTokenClaims(token: JWT, from: JWT): JWT {
  if (from[TOKENS_CLAIM] === undefined || token[TOKENS_CLAIM] !== undefined) return token
  return { ...token, [TOKENS_CLAIM]: from[TOKENS_CLAIM], ...(from.error === REFRESH_TOKEN_ERROR && token.error === undefined && { error: from.error }) }
}
