/**
 * Any OpenID Connect provider, from its issuer URL. `gatehouse/providers/oidc`.
 *
 *   OIDC({ id: "corp", name: "Corp SSO", issuer: "https://sso.example.com", clientId, clientSecret })
 *
 * Endpoints come from `{issuer}/.well-known/openid-configuration` (or `wellKnown`), whose issuer
 * must equal `issuer` exactly; scope `openid profile email`; the profile is the ID token's claims
 * merged with the userinfo answer, mapped from the standard claims. Give a distinct `id` to each
 * instance (it names the callback URL and the environment variables).
 *
 * Environment (for id `oidc`): AUTH_OIDC_ID, AUTH_OIDC_SECRET, AUTH_OIDC_ISSUER.
 */
import type { Profile } from "../types.js"
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"

/** The standard claims of an OpenID Connect ID token and userinfo answer. */
export interface OIDCProfile extends Profile {
  sub: string
  iss?: string
  aud?: string | string[]
  exp?: number
  iat?: number
  auth_time?: number
  nonce?: string
  acr?: string
  amr?: string[]
  azp?: string
  phone_number_verified?: boolean | null
}

export default function OIDC(options: OAuthUserConfig<OIDCProfile> = {}): OAuthProviderConfig<OIDCProfile> {
  return oauthProvider<OIDCProfile>(
    {
      id: "oidc",
      name: "OpenID Connect",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: typeof profile.picture === "string" ? profile.picture : null,
      }),
      style: { bg: "#374151", text: "#fff" },
    },
    options,
  )
}
