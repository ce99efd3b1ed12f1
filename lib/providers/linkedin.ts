/**
 * LinkedIn, "Sign In with LinkedIn using OpenID Connect". `gatehouse/providers/linkedin`.
 *
 * Issuer https://www.linkedin.com/oauth (endpoints from its discovery document), scope
 * `openid profile email`. LinkedIn wants the client id and secret in the token request's form
 * body, refuses token requests that carry a PKCE `code_verifier` (for web apps) and ignores
 * `nonce`, so this provider uses `state` alone.
 *
 * Environment: AUTH_LINKEDIN_ID, AUTH_LINKEDIN_SECRET.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"

/** The ID token claims and userinfo of a LinkedIn member. */
export interface LinkedInProfile extends Record<string, unknown> {
  sub: string
  name: string
  given_name: string
  family_name: string
  picture?: string
  /** A string in the ID token; `{ country, language }` in the userinfo answer. */
  locale?: string | { country: string; language: string }
  email?: string
  email_verified?: boolean
  iss?: string
  aud?: string
  iat?: number
  exp?: number
}

export default function LinkedIn(options: OAuthUserConfig<LinkedInProfile> = {}): OAuthProviderConfig<LinkedInProfile> {
  return oauthProvider<LinkedInProfile>(
    {
      id: "linkedin",
      name: "LinkedIn",
      type: "oidc",
      issuer: "https://www.linkedin.com/oauth",
      authorization: { params: { scope: "openid profile email" } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state"],
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#0a66c2", text: "#fff" },
    },
    options,
  )
}
