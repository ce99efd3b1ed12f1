/**
 * Keycloak (OpenID Connect). `gatehouse/providers/keycloak`.
 *
 * The issuer is the realm's URL, `https://HOST/realms/REALM` (on Keycloak before 17,
 * `https://HOST/auth/realms/REALM`): give it as `issuer` or AUTH_KEYCLOAK_ISSUER; there is no
 * default, and the configuration is refused at start-up without one. Endpoints come from the
 * realm's discovery document; scope `openid profile email`.
 *
 * Environment: AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET, AUTH_KEYCLOAK_ISSUER.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"
import { oidcProfile } from "./catalog/oidc-profile.js"

/** The ID token claims and userinfo of a Keycloak user (default client scopes). */
export interface KeycloakProfile extends Record<string, unknown> {
  sub: string
  iss?: string
  aud?: string | string[]
  exp?: number
  iat?: number
  auth_time?: number
  jti?: string
  typ?: string
  azp?: string
  nonce?: string
  session_state?: string
  sid?: string
  at_hash?: string
  acr?: string
  email?: string
  email_verified?: boolean
  name?: string
  preferred_username: string
  given_name?: string
  family_name?: string
  picture?: string
  locale?: string
  realm_access?: { roles: string[] }
  resource_access?: Record<string, { roles: string[] }>
}

export default function Keycloak(options: OAuthUserConfig<KeycloakProfile> = {}): OAuthProviderConfig<KeycloakProfile> {
  return oauthProvider<KeycloakProfile>(
    {
      id: "keycloak",
      name: "Keycloak",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      profile: oidcProfile,
      style: { bg: "#008aaa", text: "#fff" },
    },
    options,
  )
}
