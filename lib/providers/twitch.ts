/**
 * Twitch (OpenID Connect). `gatehouse/providers/twitch`.
 *
 * Issuer https://id.twitch.tv/oauth2, scope `openid user:read:email`. Twitch puts only `sub` and
 * the standard token claims in the ID token unless the authorization request's `claims`
 * parameter asks for more: this provider asks for `email`, `email_verified`, `picture`,
 * `preferred_username` and `updated_at` in both the ID token and the userinfo answer. The client
 * id and secret go in the token request's form body; checks `nonce` and `state` (Twitch has no
 * PKCE). Twitch's token answer lists `scope` as an array, which the OAuth flow refuses: this
 * provider's fetch joins it into the standard space-separated string.
 *
 * Environment: AUTH_TWITCH_ID, AUTH_TWITCH_SECRET.
 */
import { customFetch } from "../core/symbols.js"
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"
import { catalogFetch } from "./catalog/fetch.js"

/** The ID token claims and userinfo of a Twitch user (with the `claims` this provider requests). */
export interface TwitchProfile extends Record<string, unknown> {
  sub: string
  preferred_username: string
  email?: string
  email_verified?: boolean
  picture: string
  updated_at?: string
  iss?: string
  aud?: string
  azp?: string
  exp?: number
  iat?: number
  nonce?: string
}

const CLAIMS = { email: null, email_verified: null, picture: null, preferred_username: null, updated_at: null }

export default function Twitch(options: OAuthUserConfig<TwitchProfile> = {}): OAuthProviderConfig<TwitchProfile> {
  return oauthProvider<TwitchProfile>(
    {
      id: "twitch",
      name: "Twitch",
      type: "oidc",
      issuer: "https://id.twitch.tv/oauth2",
      authorization: { params: { scope: "openid user:read:email", claims: JSON.stringify({ id_token: CLAIMS, userinfo: CLAIMS }) } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["nonce", "state"],
      profile: (profile) => ({
        id: profile.sub,
        name: profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#9146ff", text: "#fff" },
    },
    {
      ...options,
      [customFetch]: catalogFetch(options, {
        answer: (json) => (Array.isArray(json.scope) ? { json: { ...json, scope: json.scope.join(" ") } } : undefined),
      }),
    },
  )
}
