/**
 * Twitter / X (OAuth 2.0 with PKCE). `gatehouse/providers/twitter`.
 *
 * Authorization at https://twitter.com/i/oauth2/authorize with scope `users.read tweet.read
 * offline.access`, PKCE (S256) and `state`; the token at https://api.twitter.com/2/oauth2/token
 * (confidential clients authenticate with HTTP Basic); the user from
 * https://api.twitter.com/2/users/me with `user.fields=profile_image_url`. The API gives no email
 * address: the mapped `email` is null. Use the OAuth 2.0 Client ID and Client Secret of the app,
 * not the API key.
 *
 * Environment: AUTH_TWITTER_ID, AUTH_TWITTER_SECRET.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"

/** The answer of GET /2/users/me (https://docs.x.com/x-api/users/user-lookup-me). */
export interface TwitterProfile extends Record<string, unknown> {
  data: {
    id: string
    name: string
    username: string
    /** With `user.fields=profile_image_url`. */
    profile_image_url?: string
    created_at?: string
    description?: string
    location?: string
    pinned_tweet_id?: string
    protected?: boolean
    url?: string
    verified?: boolean
    verified_type?: string
    public_metrics?: { followers_count: number; following_count: number; tweet_count: number; listed_count: number; like_count?: number }
  }
  includes?: Record<string, unknown>
  errors?: Array<Record<string, unknown>>
}

export default function Twitter(options: OAuthUserConfig<TwitterProfile> = {}): OAuthProviderConfig<TwitterProfile> {
  return oauthProvider<TwitterProfile>(
    {
      id: "twitter",
      name: "Twitter",
      type: "oauth",
      authorization: { url: "https://twitter.com/i/oauth2/authorize", params: { scope: "users.read tweet.read offline.access" } },
      token: "https://api.twitter.com/2/oauth2/token",
      userinfo: { url: "https://api.twitter.com/2/users/me", params: { "user.fields": "profile_image_url" } },
      checks: ["pkce", "state"],
      profile: ({ data }) => ({
        id: data.id,
        name: data.name ?? data.username ?? null,
        email: null,
        image: data.profile_image_url ?? null,
      }),
      style: { bg: "#1d9bf0", text: "#fff" },
    },
    options,
  )
}
