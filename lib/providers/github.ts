/**
 * GitHub (OAuth 2.0 apps and GitHub Apps acting for a user). `gatehouse/providers/github`.
 *
 * Authorization at https://github.com/login/oauth/authorize with scope `read:user user:email`,
 * the code exchanged at https://github.com/login/oauth/access_token (client id and secret in the
 * form body), the profile from https://api.github.com/user. A user who keeps their email private
 * has `email: null` there: the profile request then reads https://api.github.com/user/emails (the
 * `user:email` scope) and takes the primary, verified address. For GitHub Enterprise Server, pass
 * your server's `authorization`, `token` and `userinfo` URLs (`https://HOST/api/v3/user`; the
 * emails list is read from that URL plus `/emails`).
 *
 * Environment: AUTH_GITHUB_ID, AUTH_GITHUB_SECRET.
 */
import type { OAuthProviderConfig, OAuthUserConfig, UserinfoContext } from "./types.js"
import { oauthProvider } from "./oauth/options.js"
import { accessToken, getJson, okBody, userinfoUrl } from "./catalog/userinfo.js"

/** The authenticated user, as GET /user returns it (https://docs.github.com/en/rest/users/users). */
export interface GitHubProfile extends Record<string, unknown> {
  login: string
  id: number
  node_id: string
  avatar_url: string
  gravatar_id: string | null
  url: string
  html_url: string
  followers_url: string
  following_url: string
  gists_url: string
  starred_url: string
  subscriptions_url: string
  organizations_url: string
  repos_url: string
  events_url: string
  received_events_url: string
  type: string
  site_admin: boolean
  name: string | null
  company: string | null
  blog: string | null
  location: string | null
  /** The public email; the primary verified one is filled in when this is null. */
  email: string | null
  hireable: boolean | null
  bio: string | null
  twitter_username?: string | null
  public_repos: number
  public_gists: number
  followers: number
  following: number
  created_at: string
  updated_at: string
  private_gists?: number
  total_private_repos?: number
  owned_private_repos?: number
  disk_usage?: number
  collaborators?: number
  two_factor_authentication?: boolean
  plan?: { collaborators: number; name: string; space: number; private_repos: number }
}

/** One entry of GET /user/emails. */
export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: "public" | "private" | null
}

const API_HEADERS = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28", "user-agent": "gatehouse" }

/** The primary, verified address of a GET /user/emails answer, or null. */
export function primaryVerifiedEmail(list: unknown): string | null {
  if (!Array.isArray(list)) return null
  const found = (list as Partial<GitHubEmail>[]).find((entry) => entry?.primary === true && entry.verified === true && typeof entry.email === "string")
  return found?.email ?? null
}

/** GET /user, and GET /user/emails when the profile shows no email. */
async function githubProfile({ tokens, provider, fetch }: UserinfoContext): Promise<GitHubProfile> {
  const headers = { ...API_HEADERS, authorization: `Bearer ${accessToken(provider, tokens)}` }
  const url = userinfoUrl(provider, "https://api.github.com/user")
  const profile = okBody(await getJson(fetch, url, provider, headers), provider, "profile") as GitHubProfile
  if (!profile.email) {
    const emails = new URL(url.href)
    emails.pathname = `${emails.pathname.replace(/\/+$/, "")}/emails`
    emails.search = ""
    // Without the user:email scope this answers 403 or 404: the user then has no email here.
    const answer = await getJson(fetch, emails, provider, headers)
    profile.email = answer.ok ? primaryVerifiedEmail(answer.json) : null
  }
  return profile
}

export default function GitHub(options: OAuthUserConfig<GitHubProfile> = {}): OAuthProviderConfig<GitHubProfile> {
  return oauthProvider<GitHubProfile>(
    {
      id: "github",
      name: "GitHub",
      type: "oauth",
      authorization: { url: "https://github.com/login/oauth/authorize", params: { scope: "read:user user:email" } },
      token: "https://github.com/login/oauth/access_token",
      userinfo: { url: "https://api.github.com/user", request: githubProfile },
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["pkce", "state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.name ?? profile.login,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }),
      // GitHub only shows an address it verified as the public email, and the fallback above is the
      // primary verified one: an address here is a verified address.
      emailVerified: (profile) => typeof profile.email === "string" && profile.email.length > 0,
      style: { bg: "#24292f", text: "#fff" },
    },
    options,
  )
}
