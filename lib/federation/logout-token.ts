/**
 * Validating a back-channel logout token exactly as OpenID Connect Back-Channel Logout 1.0
 * (section 2.6) says: a JWT signed by the provider (its JWKS; never `none`), `iss` the provider's
 * issuer, `aud` our client id, `iat` present and recent, `exp` (when present) not passed, the
 * `events` claim with the back-channel logout member (a JSON object), a `sid` and/or a `sub`, no
 * `nonce`, and a `jti` not seen before (claimed in the shared store, so a replay to another
 * process is refused too). Anything else is `InvalidLogoutToken`. Its shape and issuer are checked
 * first (logout-token-shape.ts), so garbage is refused without fetching anything.
 */
import * as jose from "jose"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { InvalidLogoutToken } from "./errors.js"
import { providerFetch } from "../outbound/fetch.js"
import { checkLogoutTokenShape } from "./logout-token-shape.js"
import { oauthConfiguration } from "../providers/oauth/client.js"
import type { OAuthProviderConfig } from "../providers/types.js"

export const LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout"
/** The oldest `iat` accepted, in seconds (a token replayed later is refused even without the jti record). */
export const MAX_TOKEN_AGE = 300
const CLOCK_TOLERANCE = 30

const keySets = new WeakMap<OAuthProviderConfig, { uri: string; keys: ReturnType<typeof jose.createRemoteJWKSet> }>()

async function keysOf(config: ResolvedConfig, provider: OAuthProviderConfig) {
  const metadata = (await oauthConfiguration(provider, (message) => config.logger.debug(message))).serverMetadata()
  const uri = metadata.jwks_uri ?? provider.jwks_endpoint
  if (!uri) throw new InvalidLogoutToken(`Provider "${provider.id}" publishes no jwks_uri: its logout tokens cannot be verified`)
  const known = keySets.get(provider)
  if (known?.uri === uri) return { keys: known.keys, issuer: metadata.issuer }
  const keys = jose.createRemoteJWKSet(new URL(uri), { [jose.customFetch]: providerFetch(provider) as never })
  keySets.set(provider, { uri, keys })
  return { keys, issuer: metadata.issuer }
}

export interface LogoutClaims {
  sid?: string
  sub?: string
  jti: string
}

export async function verifyLogoutToken(config: ResolvedConfig, provider: OAuthProviderConfig, token: unknown): Promise<LogoutClaims> {
  if (typeof token !== "string" || !token || token.length > 16_384) throw new InvalidLogoutToken("The request has no logout_token")
  // Before any outbound request (discovery, keys): garbage is a 400, whatever the issuer's state.
  checkLogoutTokenShape(provider, token)
  const { keys, issuer } = await keysOf(config, provider)
  let payload: jose.JWTPayload
  try {
    ;({ payload } = await jose.jwtVerify(token, keys, {
      issuer,
      audience: provider.clientId as string,
      requiredClaims: ["iat", "jti", "events"],
      maxTokenAge: MAX_TOKEN_AGE,
      clockTolerance: CLOCK_TOLERANCE,
    }))
  } catch (error) {
    throw new InvalidLogoutToken(`The logout token failed verification: ${(error as Error).message}`, { cause: { err: error } })
  }
  const events = payload.events as Record<string, unknown> | undefined
  const event = events && typeof events === "object" ? events[LOGOUT_EVENT] : undefined
  if (!event || typeof event !== "object" || Array.isArray(event)) throw new InvalidLogoutToken("The logout token's events claim has no back-channel logout event")
  if ("nonce" in payload) throw new InvalidLogoutToken("A logout token must not carry a nonce")
  const sid = typeof payload.sid === "string" && payload.sid ? payload.sid : undefined
  const sub = typeof payload.sub === "string" && payload.sub ? payload.sub : undefined
  if (!sid && !sub) throw new InvalidLogoutToken("The logout token names neither sid nor sub")
  const jti = payload.jti as string
  if (typeof jti !== "string" || !jti) throw new InvalidLogoutToken("The logout token has no jti")
  const first = await config.store.claim(`bcl:jti:${provider.id}:${jti}`, MAX_TOKEN_AGE + 2 * CLOCK_TOLERANCE)
  if (!first) throw new InvalidLogoutToken("This logout token was already used (jti seen before)")
  return { sid, sub, jti }
}
