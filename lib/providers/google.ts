/**
 * Google (OpenID Connect). `gatehouse/providers/google`.
 *
 * Endpoints come from the discovery document of the issuer https://accounts.google.com; the scope
 * is `openid profile email`. Add `authorization: { params: { prompt: "consent", access_type:
 * "offline" } }` for a refresh token, or `hd` to suggest a Workspace domain (check `profile.hd`
 * in the `signIn` callback to enforce it: the parameter is only a hint).
 *
 * Environment: AUTH_GOOGLE_ID, AUTH_GOOGLE_SECRET.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"

/** The ID token claims and userinfo of a Google account. */
export interface GoogleProfile extends Record<string, unknown> {
  iss: string
  azp?: string
  aud: string
  sub: string
  email: string
  email_verified: boolean
  at_hash?: string
  name: string
  picture: string
  given_name?: string
  family_name?: string
  locale?: string
  /** The Google Workspace domain of the account, if any. */
  hd?: string
  iat: number
  exp: number
  nonce?: string
}

export default function Google(options: OAuthUserConfig<GoogleProfile> = {}): OAuthProviderConfig<GoogleProfile> {
  return oauthProvider<GoogleProfile>(
    {
      id: "google",
      name: "Google",
      type: "oidc",
      issuer: "https://accounts.google.com",
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#fff", text: "#1f1f1f" },
    },
    options,
  )
}
