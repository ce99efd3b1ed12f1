/**
 * ZITADEL (OpenID Connect). `gatehouse/providers/zitadel`.
 *
 * The issuer is your instance's URL, `https://INSTANCE.zitadel.cloud` or your own domain: give it
 * as `issuer` or AUTH_ZITADEL_ISSUER; no default. Scope `openid profile email`. Add ZITADEL's
 * reserved scopes (`urn:zitadel:iam:org:project:id:zitadel:aud`, ...) through
 * `authorization: { params: { scope } }` when you need them.
 *
 * Environment: AUTH_ZITADEL_ID, AUTH_ZITADEL_SECRET, AUTH_ZITADEL_ISSUER.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"
import { oidcProfile } from "./catalog/oidc-profile.js"

/** The ID token claims and userinfo of a ZITADEL user. */
export interface ZitadelProfile extends Record<string, unknown> {
  sub: string
  iss?: string
  aud?: string | string[]
  exp?: number
  iat?: number
  auth_time?: number
  amr?: string[]
  azp?: string
  client_id?: string
  at_hash?: string
  c_hash?: string
  nonce?: string
  sid?: string
  name?: string
  given_name?: string
  family_name?: string
  nickname?: string
  preferred_username?: string
  gender?: string
  locale?: string
  picture?: string
  updated_at?: number
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  "urn:zitadel:iam:org:project:roles"?: Record<string, Record<string, string>>
  "urn:zitadel:iam:user:resourceowner:id"?: string
  "urn:zitadel:iam:user:resourceowner:name"?: string
  "urn:zitadel:iam:user:resourceowner:primary_domain"?: string
}

export default function Zitadel(options: OAuthUserConfig<ZitadelProfile> = {}): OAuthProviderConfig<ZitadelProfile> {
  return oauthProvider<ZitadelProfile>(
    {
      id: "zitadel",
      name: "ZITADEL",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      profile: oidcProfile,
      style: { bg: "#1f1f1f", text: "#fff" },
    },
    options,
  )
}
