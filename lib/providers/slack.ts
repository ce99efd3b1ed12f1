/**
 * Sign in with Slack (OpenID Connect). `gatehouse/providers/slack`.
 *
 * Issuer https://slack.com (authorization at https://slack.com/openid/connect/authorize, token at
 * https://slack.com/api/openid.connect.token, userinfo at
 * https://slack.com/api/openid.connect.userInfo, from the discovery document), scope
 * `openid profile email`, checks `nonce` and `state`. Slack's own claims use URL names
 * (`https://slack.com/team_id`, ...).
 *
 * Environment: AUTH_SLACK_ID, AUTH_SLACK_SECRET.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"

/** The ID token claims and userinfo of a Slack user. */
export interface SlackProfile extends Record<string, unknown> {
  iss?: string
  sub: string
  aud?: string
  exp?: number
  iat?: number
  auth_time?: number
  nonce?: string
  at_hash?: string
  ok?: boolean
  email: string
  email_verified: boolean
  date_email_verified?: number
  name: string
  picture: string
  given_name?: string
  family_name?: string
  locale?: string
  "https://slack.com/user_id": string
  "https://slack.com/team_id": string
  "https://slack.com/team_name"?: string
  "https://slack.com/team_domain"?: string
  "https://slack.com/enterprise_id"?: string
  "https://slack.com/enterprise_name"?: string
  "https://slack.com/enterprise_domain"?: string
  "https://slack.com/user_image_24"?: string
  "https://slack.com/user_image_32"?: string
  "https://slack.com/user_image_48"?: string
  "https://slack.com/user_image_72"?: string
  "https://slack.com/user_image_192"?: string
  "https://slack.com/user_image_512"?: string
  "https://slack.com/user_image_1024"?: string
  "https://slack.com/team_image_34"?: string
  "https://slack.com/team_image_44"?: string
  "https://slack.com/team_image_68"?: string
  "https://slack.com/team_image_88"?: string
  "https://slack.com/team_image_102"?: string
  "https://slack.com/team_image_132"?: string
  "https://slack.com/team_image_230"?: string
  "https://slack.com/team_image_default"?: boolean
}

export default function Slack(options: OAuthUserConfig<SlackProfile> = {}): OAuthProviderConfig<SlackProfile> {
  return oauthProvider<SlackProfile>(
    {
      id: "slack",
      name: "Slack",
      type: "oidc",
      issuer: "https://slack.com",
      authorization: { params: { scope: "openid profile email" } },
      checks: ["nonce", "state"],
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { bg: "#4a154b", text: "#fff" },
    },
    options,
  )
}
