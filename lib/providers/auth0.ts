/**
 * Auth0 (OpenID Connect). `gatehouse/providers/auth0`.
 *
 * The issuer is your tenant's domain, `https://TENANT.REGION.auth0.com/` (or your custom domain),
 * with the trailing slash Auth0 puts in its discovery document and tokens: give it as `issuer`
 * (a missing trailing slash is added) or AUTH_AUTH0_ISSUER (written with the slash: the flow
 * compares it verbatim). No default. Scope `openid profile email`.
 *
 * Environment: AUTH_AUTH0_ID, AUTH_AUTH0_SECRET, AUTH_AUTH0_ISSUER.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"
import { withTrailingSlash } from "./catalog/issuer.js"

/** The ID token claims and userinfo of an Auth0 user (standard OIDC claims Auth0 fills). */
export interface Auth0Profile extends Record<string, unknown> {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  middle_name?: string
  nickname: string
  preferred_username?: string
  profile?: string
  picture: string
  website?: string
  email?: string
  email_verified?: boolean
  gender?: string
  birthdate?: string
  zoneinfo?: string
  locale?: string
  phone_number?: string
  phone_number_verified?: boolean
  address?: { country?: string }
  updated_at: string
  iss?: string
  aud?: string
  iat?: number
  exp?: number
  sid?: string
  nonce?: string
  org_id?: string
}

export default function Auth0(options: OAuthUserConfig<Auth0Profile> = {}): OAuthProviderConfig<Auth0Profile> {
  return oauthProvider<Auth0Profile>(
    {
      id: "auth0",
      name: "Auth0",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#eb5424", text: "#fff" },
    },
    options.issuer ? { ...options, issuer: withTrailingSlash(options.issuer) } : options,
  )
}
