/**
 * authentik (OpenID Connect). `gatehouse/providers/authentik`.
 *
 * The issuer is the application's URL, `https://HOST/application/o/APP_SLUG/`, with the trailing
 * slash authentik writes in its discovery document and tokens: give it as `issuer` (a missing
 * trailing slash is added) or AUTH_AUTHENTIK_ISSUER (written with the slash: the flow compares it
 * verbatim). No default. Scope `openid profile email`.
 *
 * Environment: AUTH_AUTHENTIK_ID, AUTH_AUTHENTIK_SECRET, AUTH_AUTHENTIK_ISSUER.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"
import { withTrailingSlash } from "./catalog/issuer.js"
import { oidcProfile } from "./catalog/oidc-profile.js"

/** The ID token claims and userinfo of an authentik user (default scope mappings). */
export interface AuthentikProfile extends Record<string, unknown> {
  sub: string
  iss?: string
  aud?: string
  exp?: number
  iat?: number
  auth_time?: number
  acr?: string
  amr?: string[]
  nonce?: string
  at_hash?: string
  sid?: string
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  nickname?: string
  groups?: string[]
  picture?: string
}

export default function Authentik(options: OAuthUserConfig<AuthentikProfile> = {}): OAuthProviderConfig<AuthentikProfile> {
  return oauthProvider<AuthentikProfile>(
    {
      id: "authentik",
      name: "authentik",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      profile: oidcProfile,
      style: { bg: "#fd4b2d", text: "#fff" },
    },
    options.issuer ? { ...options, issuer: withTrailingSlash(options.issuer) } : options,
  )
}
