/**
 * Reddit (OAuth 2.0). `gatehouse/providers/reddit`.
 *
 * Authorization at https://www.reddit.com/api/v1/authorize with scope `identity` and
 * `duration=temporary` (set `authorization: { params: { duration: "permanent" } }` for a refresh
 * token), the token at https://www.reddit.com/api/v1/access_token with HTTP Basic client
 * authentication (the only method Reddit accepts), the account from
 * https://oauth.reddit.com/api/v1/me. Reddit requires a `state` parameter (this provider's check)
 * and has no PKCE. Reddit's API rules ask every client for a descriptive User-Agent: the profile
 * request sends `web:<client id>:1.0 (gatehouse)`. Reddit gives no email address.
 *
 * Environment: AUTH_REDDIT_ID, AUTH_REDDIT_SECRET.
 */
import type { OAuthProviderConfig, OAuthUserConfig, UserinfoContext } from "./types.js"
import { oauthProvider } from "./oauth/options.js"
import { accessToken, getJson, okBody, userinfoUrl } from "./catalog/userinfo.js"

/** The answer of GET /api/v1/me (the `identity` scope), with its documented fields. */
export interface RedditProfile extends Record<string, unknown> {
  /** The account id in base 36, without the `t2_` prefix. */
  id: string
  /** The username. */
  name: string
  /** The avatar URL; Reddit HTML-escapes it (`&amp;`). */
  icon_img: string
  snoovatar_img?: string
  created: number
  created_utc: number
  has_verified_email: boolean
  verified: boolean
  link_karma: number
  comment_karma: number
  total_karma?: number
  awardee_karma?: number
  awarder_karma?: number
  is_employee: boolean
  is_gold: boolean
  is_mod: boolean
  is_suspended?: boolean
  over_18: boolean
  pref_nightmode?: boolean
  has_subscribed?: boolean
  subreddit?: Record<string, unknown> & { display_name_prefixed?: string; public_description?: string; icon_img?: string }
}

async function redditProfile({ tokens, provider, fetch }: UserinfoContext): Promise<RedditProfile> {
  const headers = {
    authorization: `Bearer ${accessToken(provider, tokens)}`,
    "user-agent": `web:${provider.clientId ?? "gatehouse"}:1.0 (gatehouse)`,
  }
  const url = userinfoUrl(provider, "https://oauth.reddit.com/api/v1/me")
  return okBody(await getJson(fetch, url, provider, headers), provider, "profile") as RedditProfile
}

/** Reddit HTML-escapes URLs in its JSON (`&amp;`). */
function unescapeUrl(url: string | undefined): string | null {
  return url ? url.replace(/&amp;/g, "&") : null
}

export default function Reddit(options: OAuthUserConfig<RedditProfile> = {}): OAuthProviderConfig<RedditProfile> {
  return oauthProvider<RedditProfile>(
    {
      id: "reddit",
      name: "Reddit",
      type: "oauth",
      authorization: { url: "https://www.reddit.com/api/v1/authorize", params: { scope: "identity", duration: "temporary" } },
      token: "https://www.reddit.com/api/v1/access_token",
      userinfo: { url: "https://oauth.reddit.com/api/v1/me", request: redditProfile },
      client: { token_endpoint_auth_method: "client_secret_basic" },
      checks: ["state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.name ?? null,
        email: null,
        image: unescapeUrl(profile.icon_img),
      }),
      style: { bg: "#ff4500", text: "#fff" },
    },
    options,
  )
}
