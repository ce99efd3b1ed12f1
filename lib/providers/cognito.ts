/**
 * Amazon Cognito user pools (OpenID Connect). `gatehouse/providers/cognito`.
 *
 * The issuer is the user pool's URL, `https://cognito-idp.REGION.amazonaws.com/USER_POOL_ID`
 * (not the hosted UI domain, which the discovery document names for the endpoints). Give it as
 * `issuer` or AUTH_COGNITO_ISSUER; no default. Scope `openid profile email`; the app client must
 * allow those scopes and have a client secret.
 *
 * Environment: AUTH_COGNITO_ID, AUTH_COGNITO_SECRET, AUTH_COGNITO_ISSUER.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"

/** The ID token claims and userinfo of a Cognito user (standard attributes plus Cognito's own). */
export interface CognitoProfile extends Record<string, unknown> {
  sub: string
  iss?: string
  aud?: string
  exp?: number
  iat?: number
  auth_time?: number
  token_use?: "id"
  nonce?: string
  at_hash?: string
  "cognito:username": string
  "cognito:groups"?: string[]
  /** The user name in the userinfo answer. */
  username?: string
  email?: string
  email_verified?: boolean | "true" | "false"
  name?: string
  given_name?: string
  family_name?: string
  middle_name?: string
  nickname?: string
  preferred_username?: string
  picture?: string
  profile?: string
  website?: string
  gender?: string
  birthdate?: string
  zoneinfo?: string
  locale?: string
  phone_number?: string
  phone_number_verified?: boolean | "true" | "false"
  address?: { formatted?: string }
  updated_at?: number | string
  identities?: Array<Record<string, unknown>> | string
}

export default function Cognito(options: OAuthUserConfig<CognitoProfile> = {}): OAuthProviderConfig<CognitoProfile> {
  return oauthProvider<CognitoProfile>(
    {
      id: "cognito",
      name: "Cognito",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? profile["cognito:username"] ?? profile.username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#dd344c", text: "#fff" },
    },
    options,
  )
}
