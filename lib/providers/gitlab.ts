/**
 * GitLab (OAuth 2.0), gitlab.com or a self-managed instance. `gatehouse/providers/gitlab`.
 *
 * The base is `issuer` (default https://gitlab.com): authorization at `{issuer}/oauth/authorize`
 * with scope `read_user`, the token at `{issuer}/oauth/token`, the profile from
 * `{issuer}/api/v4/user`. The instance's OpenID configuration
 * (`{issuer}/.well-known/openid-configuration`) is read once to check that it names this issuer.
 * `GitLab({ issuer: "https://gitlab.example.com" })` moves every endpoint to your instance;
 * explicit `authorization`, `token` or `userinfo` options still win.
 *
 * Environment: AUTH_GITLAB_ID, AUTH_GITLAB_SECRET. The issuer is read from the options only (it
 * has a default), not from AUTH_GITLAB_ISSUER.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"

/** The current user, as GET /api/v4/user returns it (https://docs.gitlab.com/api/users/). */
export interface GitLabProfile extends Record<string, unknown> {
  id: number
  username: string
  name: string
  state: string
  locked?: boolean
  avatar_url: string | null
  web_url: string
  created_at: string
  bio: string | null
  location: string | null
  public_email: string | null
  skype?: string
  linkedin?: string
  twitter?: string
  discord?: string
  website_url: string | null
  organization: string | null
  job_title: string | null
  pronouns?: string | null
  bot: boolean
  work_information?: string | null
  followers?: number
  following?: number
  local_time?: string | null
  last_sign_in_at: string | null
  confirmed_at: string | null
  last_activity_on: string | null
  /** The primary email. */
  email: string
  theme_id: number
  color_scheme_id: number
  projects_limit: number
  current_sign_in_at: string | null
  identities: Array<{ provider: string; extern_uid: string }>
  can_create_group: boolean
  can_create_project: boolean
  two_factor_enabled: boolean
  external: boolean
  private_profile: boolean
  commit_email?: string
  namespace_id?: number
  created_by?: { id: number; username: string; name: string } | null
}

export default function GitLab(options: OAuthUserConfig<GitLabProfile> = {}): OAuthProviderConfig<GitLabProfile> {
  const base = (options.issuer ?? "https://gitlab.com").replace(/\/+$/, "")
  return oauthProvider<GitLabProfile>(
    {
      id: "gitlab",
      name: "GitLab",
      type: "oauth",
      issuer: base,
      wellKnown: `${base}/.well-known/openid-configuration`,
      authorization: { url: `${base}/oauth/authorize`, params: { scope: "read_user" } },
      token: `${base}/oauth/token`,
      userinfo: `${base}/api/v4/user`,
      profile: (profile) => ({
        id: profile.id,
        name: profile.name || profile.username,
        email: profile.email || null,
        image: profile.avatar_url ?? null,
      }),
      style: { bg: "#fc6d26", text: "#fff" },
    },
    { ...options, issuer: base },
  )
}
