/**
 * Okta (OpenID Connect). `gatehouse/providers/okta`.
 *
 * The issuer is an authorization server of your Okta org: `https://ORG.okta.com/oauth2/default`
 * (a custom authorization server) or `https://ORG.okta.com` (the org authorization server). Give
 * it as `issuer` or AUTH_OKTA_ISSUER; no default. Scope `openid profile email`.
 *
 * Environment: AUTH_OKTA_ID, AUTH_OKTA_SECRET, AUTH_OKTA_ISSUER.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"
import { oidcProfile } from "./catalog/oidc-profile.js"

/** The ID token claims and userinfo of an Okta user. */
export interface OktaProfile extends Record<string, unknown> {
  sub: string
  iss?: string
  aud?: string
  iat?: number
  exp?: number
  jti?: string
  amr?: string[]
  idp?: string
  nonce?: string
  auth_time?: number
  at_hash?: string
  ver?: number
  name?: string
  preferred_username?: string
  given_name?: string
  family_name?: string
  middle_name?: string
  nickname?: string
  profile?: string
  picture?: string
  website?: string
  gender?: string
  birthdate?: string
  zoneinfo?: string
  locale?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  address?: { street_address?: string; locality?: string; region?: string; postal_code?: string; country?: string }
  updated_at?: number
  groups?: string[]
}

export default function Okta(options: OAuthUserConfig<OktaProfile> = {}): OAuthProviderConfig<OktaProfile> {
  return oauthProvider<OktaProfile>(
    {
      id: "okta",
      name: "Okta",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      profile: oidcProfile,
      style: { bg: "#007dc1", text: "#fff" },
    },
    options,
  )
}
