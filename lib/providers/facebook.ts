/**
 * Facebook Login (OAuth 2.0). `gatehouse/providers/facebook`.
 *
 * Authorization at https://www.facebook.com/dialog/oauth with scope `email`, the token at
 * https://graph.facebook.com/oauth/access_token (client id and secret in the form body), the
 * profile from the Graph API https://graph.facebook.com/me with `fields=id,name,email,picture`
 * (the Graph API returns only the fields asked for). The URLs are unversioned, so Graph answers
 * with your app's default API version; pass versioned URLs to pin one.
 *
 * Environment: AUTH_FACEBOOK_ID (the App ID), AUTH_FACEBOOK_SECRET (the App Secret).
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"

/** The Graph API User node, with the fields this provider asks for and other common ones. */
export interface FacebookProfile extends Record<string, unknown> {
  /** The app-scoped user id. */
  id: string
  name?: string
  first_name?: string
  last_name?: string
  middle_name?: string
  short_name?: string
  name_format?: string
  /** Absent when the user has no confirmed email or declined the permission. */
  email?: string
  picture?: { data: { url: string; width?: number; height?: number; is_silhouette?: boolean } }
}

export default function Facebook(options: OAuthUserConfig<FacebookProfile> = {}): OAuthProviderConfig<FacebookProfile> {
  return oauthProvider<FacebookProfile>(
    {
      id: "facebook",
      name: "Facebook",
      type: "oauth",
      authorization: { url: "https://www.facebook.com/dialog/oauth", params: { scope: "email" } },
      token: "https://graph.facebook.com/oauth/access_token",
      userinfo: { url: "https://graph.facebook.com/me", params: { fields: "id,name,email,picture" } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.id,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture?.data?.url ?? null,
      }),
      style: { bg: "#1877f2", text: "#fff" },
    },
    options,
  )
}
