/**
 * Spotify (OAuth 2.0). `gatehouse/providers/spotify`.
 *
 * Authorization at https://accounts.spotify.com/authorize with scope `user-read-email`, the token
 * at https://accounts.spotify.com/api/token, the user from https://api.spotify.com/v1/me.
 *
 * Environment: AUTH_SPOTIFY_ID, AUTH_SPOTIFY_SECRET.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"

export interface SpotifyImage {
  url: string
  height: number | null
  width: number | null
}

/** The answer of GET /v1/me (https://developer.spotify.com/documentation/web-api/reference/get-current-users-profile). */
export interface SpotifyProfile extends Record<string, unknown> {
  id: string
  display_name: string | null
  /** With `user-read-email`; Spotify does not verify it. */
  email?: string
  images: SpotifyImage[]
  /** With `user-read-private`. */
  country?: string
  /** With `user-read-private`. */
  product?: string
  /** With `user-read-private`. */
  explicit_content?: { filter_enabled: boolean; filter_locked: boolean }
  external_urls: { spotify: string }
  followers: { href: string | null; total: number }
  href: string
  type: "user"
  uri: string
}

export default function Spotify(options: OAuthUserConfig<SpotifyProfile> = {}): OAuthProviderConfig<SpotifyProfile> {
  return oauthProvider<SpotifyProfile>(
    {
      id: "spotify",
      name: "Spotify",
      type: "oauth",
      authorization: { url: "https://accounts.spotify.com/authorize", params: { scope: "user-read-email" } },
      token: "https://accounts.spotify.com/api/token",
      userinfo: "https://api.spotify.com/v1/me",
      profile: (profile) => ({
        id: profile.id,
        name: profile.display_name ?? null,
        email: profile.email ?? null,
        image: profile.images?.[0]?.url ?? null,
      }),
      style: { bg: "#1ed760", text: "#000" },
    },
    options,
  )
}
