/**
 * The provider catalog: for every provider, the authorization request Gatehouse sends the browser
 * to (host and path of the provider's documented authorize endpoint, response_type, client_id,
 * redirect_uri, default scope, the checks it uses, its own parameters), the discovery document it
 * reads (OIDC issuers answered locally through `[customFetch]`), and its profile mapping on a
 * realistic sample profile. No request leaves the machine.
 */
import { customFetch } from "../../lib/core/symbols.js"
import { CSS_COLOR } from "../../lib/core/config/validate.js"
import type { OAuthProviderConfig, OAuthUserConfig } from "../../lib/providers/types.js"
import type { TokenSet } from "../../lib/types.js"
import Apple, { type AppleProfile } from "../../lib/providers/apple.js"
import Auth0, { type Auth0Profile } from "../../lib/providers/auth0.js"
import Authentik, { type AuthentikProfile } from "../../lib/providers/authentik.js"
import Cognito, { type CognitoProfile } from "../../lib/providers/cognito.js"
import Discord, { type DiscordProfile } from "../../lib/providers/discord.js"
import Facebook, { type FacebookProfile } from "../../lib/providers/facebook.js"
import GitHub, { type GitHubProfile } from "../../lib/providers/github.js"
import GitLab, { type GitLabProfile } from "../../lib/providers/gitlab.js"
import Google, { type GoogleProfile } from "../../lib/providers/google.js"
import Keycloak, { type KeycloakProfile } from "../../lib/providers/keycloak.js"
import LinkedIn, { type LinkedInProfile } from "../../lib/providers/linkedin.js"
import MicrosoftEntraID, { type MicrosoftEntraIDProfile } from "../../lib/providers/microsoft-entra-id.js"
import OIDC, { type OIDCProfile } from "../../lib/providers/oidc.js"
import Okta, { type OktaProfile } from "../../lib/providers/okta.js"
import Reddit, { type RedditProfile } from "../../lib/providers/reddit.js"
import Slack, { type SlackProfile } from "../../lib/providers/slack.js"
import Spotify, { type SpotifyProfile } from "../../lib/providers/spotify.js"
import TikTok, { type TikTokProfile } from "../../lib/providers/tiktok.js"
import Twitch, { type TwitchProfile } from "../../lib/providers/twitch.js"
import Twitter, { type TwitterProfile } from "../../lib/providers/twitter.js"
import VK, { type VkProfile } from "../../lib/providers/vk.js"
import Zitadel, { type ZitadelProfile } from "../../lib/providers/zitadel.js"
import { makeApp, testConfig } from "../helpers/app.js"
import { discoveryFetch, oidcDocument, startSignin, wellKnownOf, type DiscoveryDocument } from "./support.js"

const CLIENT_SECRET = "catalog-client-secret"
const ENTRA_TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47"

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFactory = (options?: OAuthUserConfig<any>) => OAuthProviderConfig<any>

interface CatalogCase {
  /** The test's name (the provider id, or id plus a variant). */
  title: string
  factory: AnyFactory
  /** Options beyond clientId, clientSecret and [customFetch]. */
  options?: Record<string, unknown>
  id: string
  name: string
  type: "oauth" | "oidc"
  /** The discovery document the provider must read: its URL and content. */
  discovery?: { url: string; document: DiscoveryDocument }
  /** The documented authorize endpoint: origin + path. */
  authorize: string
  scope: string
  checks: { pkce: boolean; state: boolean; nonce: boolean }
  /** Provider-specific authorization parameters (the client id is substituted for `$clientId`). */
  params?: Record<string, string>
  /** A realistic profile as the provider answers it. */
  sample: Record<string, unknown>
  tokens?: TokenSet
  user: { id: string | number; name: string | null; email: string | null; image: string | null }
}

const google = oidcDocument("https://accounts.google.com", {
  authorization_endpoint: "https://accounts.google.com/o/oauth2/v2/auth",
  token_endpoint: "https://oauth2.googleapis.com/token",
  userinfo_endpoint: "https://openidconnect.googleapis.com/v1/userinfo",
  jwks_uri: "https://www.googleapis.com/oauth2/v3/certs",
  code_challenge_methods_supported: ["plain", "S256"],
})
const apple = oidcDocument("https://appleid.apple.com", {
  authorization_endpoint: "https://appleid.apple.com/auth/authorize",
  token_endpoint: "https://appleid.apple.com/auth/token",
  userinfo_endpoint: undefined,
  jwks_uri: "https://appleid.apple.com/auth/keys",
  response_modes_supported: ["query", "fragment", "form_post"],
  scopes_supported: ["openid", "email", "name"],
  token_endpoint_auth_methods_supported: ["client_secret_post"],
})
delete apple.userinfo_endpoint
const linkedin = oidcDocument("https://www.linkedin.com/oauth", {
  authorization_endpoint: "https://www.linkedin.com/oauth/v2/authorization",
  token_endpoint: "https://www.linkedin.com/oauth/v2/accessToken",
  userinfo_endpoint: "https://api.linkedin.com/v2/userinfo",
  jwks_uri: "https://www.linkedin.com/oauth/openid/jwks",
})
const slack = oidcDocument("https://slack.com", {
  authorization_endpoint: "https://slack.com/openid/connect/authorize",
  token_endpoint: "https://slack.com/api/openid.connect.token",
  userinfo_endpoint: "https://slack.com/api/openid.connect.userInfo",
  jwks_uri: "https://slack.com/openid/connect/keys",
})
const twitch = oidcDocument("https://id.twitch.tv/oauth2", { claims_parameter_supported: true })
const entraCommon = oidcDocument("https://login.microsoftonline.com/{tenantid}/v2.0", {
  authorization_endpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
  token_endpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
  userinfo_endpoint: "https://graph.microsoft.com/oidc/userinfo",
  jwks_uri: "https://login.microsoftonline.com/common/discovery/v2.0/keys",
})
const entraTenant = oidcDocument(`https://login.microsoftonline.com/${ENTRA_TENANT}/v2.0`, {
  authorization_endpoint: `https://login.microsoftonline.com/${ENTRA_TENANT}/oauth2/v2.0/authorize`,
  token_endpoint: `https://login.microsoftonline.com/${ENTRA_TENANT}/oauth2/v2.0/token`,
  userinfo_endpoint: "https://graph.microsoft.com/oidc/userinfo",
  jwks_uri: `https://login.microsoftonline.com/${ENTRA_TENANT}/discovery/v2.0/keys`,
})
const gitlab = oidcDocument("https://gitlab.com", {
  authorization_endpoint: "https://gitlab.com/oauth/authorize",
  token_endpoint: "https://gitlab.com/oauth/token",
  userinfo_endpoint: "https://gitlab.com/oauth/userinfo",
  jwks_uri: "https://gitlab.com/oauth/discovery/keys",
})
const gitlabSelf = oidcDocument("https://git.example.com", {
  authorization_endpoint: "https://git.example.com/oauth/authorize",
  token_endpoint: "https://git.example.com/oauth/token",
})
const keycloak = oidcDocument("https://sso.example.com/realms/acme", {
  authorization_endpoint: "https://sso.example.com/realms/acme/protocol/openid-connect/auth",
  token_endpoint: "https://sso.example.com/realms/acme/protocol/openid-connect/token",
  userinfo_endpoint: "https://sso.example.com/realms/acme/protocol/openid-connect/userinfo",
  jwks_uri: "https://sso.example.com/realms/acme/protocol/openid-connect/certs",
})
const auth0 = oidcDocument("https://acme.eu.auth0.com/", {
  authorization_endpoint: "https://acme.eu.auth0.com/authorize",
  token_endpoint: "https://acme.eu.auth0.com/oauth/token",
  userinfo_endpoint: "https://acme.eu.auth0.com/userinfo",
  jwks_uri: "https://acme.eu.auth0.com/.well-known/jwks.json",
})
const okta = oidcDocument("https://acme.okta.com/oauth2/default", {
  authorization_endpoint: "https://acme.okta.com/oauth2/default/v1/authorize",
  token_endpoint: "https://acme.okta.com/oauth2/default/v1/token",
  userinfo_endpoint: "https://acme.okta.com/oauth2/default/v1/userinfo",
  jwks_uri: "https://acme.okta.com/oauth2/default/v1/keys",
})
const cognito = oidcDocument("https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123", {
  authorization_endpoint: "https://acme.auth.eu-west-1.amazoncognito.com/oauth2/authorize",
  token_endpoint: "https://acme.auth.eu-west-1.amazoncognito.com/oauth2/token",
  userinfo_endpoint: "https://acme.auth.eu-west-1.amazoncognito.com/oauth2/userInfo",
  jwks_uri: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123/.well-known/jwks.json",
})
const zitadel = oidcDocument("https://acme-x1y2z3.zitadel.cloud", {
  authorization_endpoint: "https://acme-x1y2z3.zitadel.cloud/oauth/v2/authorize",
  token_endpoint: "https://acme-x1y2z3.zitadel.cloud/oauth/v2/token",
  userinfo_endpoint: "https://acme-x1y2z3.zitadel.cloud/oidc/v1/userinfo",
  jwks_uri: "https://acme-x1y2z3.zitadel.cloud/oauth/v2/keys",
})
const authentik = oidcDocument("https://auth.example.com/application/o/gatehouse/", {
  authorization_endpoint: "https://auth.example.com/application/o/authorize/",
  token_endpoint: "https://auth.example.com/application/o/token/",
  userinfo_endpoint: "https://auth.example.com/application/o/userinfo/",
  jwks_uri: "https://auth.example.com/application/o/gatehouse/jwks/",
})
const corp = oidcDocument("https://sso.example.org", { authorization_endpoint: "https://sso.example.org/oauth2/auth" })

const at = (document: DiscoveryDocument, url = wellKnownOf(document.issuer)) => ({ url, document })
const PKCE = { pkce: true, state: false, nonce: false }

const CASES: CatalogCase[] = [
  {
    title: "github",
    factory: GitHub,
    id: "github",
    name: "GitHub",
    type: "oauth",
    authorize: "https://github.com/login/oauth/authorize",
    scope: "read:user user:email",
    checks: { pkce: true, state: true, nonce: false },
    sample: {
      login: "octocat",
      id: 583231,
      node_id: "MDQ6VXNlcjU4MzIzMQ==",
      avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4",
      html_url: "https://github.com/octocat",
      type: "User",
      site_admin: false,
      name: "The Octocat",
      company: "@github",
      blog: "https://github.blog",
      location: "San Francisco",
      email: "octocat@github.com",
      bio: null,
      public_repos: 8,
      followers: 9000,
      following: 9,
      created_at: "2011-01-25T18:44:36Z",
    } satisfies Partial<GitHubProfile>,
    user: { id: 583231, name: "The Octocat", email: "octocat@github.com", image: "https://avatars.githubusercontent.com/u/583231?v=4" },
  },
  {
    title: "github (no display name, no public email)",
    factory: GitHub,
    id: "github",
    name: "GitHub",
    type: "oauth",
    authorize: "https://github.com/login/oauth/authorize",
    scope: "read:user user:email",
    checks: { pkce: true, state: true, nonce: false },
    sample: { login: "hubot", id: 480938, avatar_url: "https://avatars.githubusercontent.com/u/480938?v=4", name: null, email: null } satisfies Partial<GitHubProfile>,
    user: { id: 480938, name: "hubot", email: null, image: "https://avatars.githubusercontent.com/u/480938?v=4" },
  },
  {
    title: "google",
    factory: Google,
    id: "google",
    name: "Google",
    type: "oidc",
    discovery: at(google),
    authorize: "https://accounts.google.com/o/oauth2/v2/auth",
    scope: "openid profile email",
    checks: PKCE,
    sample: {
      iss: "https://accounts.google.com",
      azp: "1234987819200.apps.googleusercontent.com",
      aud: "1234987819200.apps.googleusercontent.com",
      sub: "10769150350006150715113082367",
      email: "jsmith@example.com",
      email_verified: true,
      hd: "example.com",
      name: "Jane Smith",
      given_name: "Jane",
      family_name: "Smith",
      picture: "https://lh3.googleusercontent.com/a/ACg8ocJ-jane=s96-c",
      locale: "en",
      iat: 1353601026,
      exp: 1353604926,
    } satisfies GoogleProfile,
    user: { id: "10769150350006150715113082367", name: "Jane Smith", email: "jsmith@example.com", image: "https://lh3.googleusercontent.com/a/ACg8ocJ-jane=s96-c" },
  },
  {
    title: "gitlab",
    factory: GitLab,
    id: "gitlab",
    name: "GitLab",
    type: "oauth",
    discovery: at(gitlab, "https://gitlab.com/.well-known/openid-configuration"),
    authorize: "https://gitlab.com/oauth/authorize",
    scope: "read_user",
    checks: PKCE,
    sample: {
      id: 1,
      username: "john_smith",
      name: "John Smith",
      state: "active",
      avatar_url: "https://gitlab.com/uploads/-/system/user/avatar/1/avatar.png",
      web_url: "https://gitlab.com/john_smith",
      email: "john@example.com",
      public_email: null,
      bot: false,
    } satisfies Partial<GitLabProfile>,
    user: { id: 1, name: "John Smith", email: "john@example.com", image: "https://gitlab.com/uploads/-/system/user/avatar/1/avatar.png" },
  },
  {
    title: "gitlab (self-managed, base from issuer)",
    factory: GitLab,
    options: { issuer: "https://git.example.com/" },
    id: "gitlab",
    name: "GitLab",
    type: "oauth",
    discovery: at(gitlabSelf, "https://git.example.com/.well-known/openid-configuration"),
    authorize: "https://git.example.com/oauth/authorize",
    scope: "read_user",
    checks: PKCE,
    sample: { id: 7, username: "ada", name: "", avatar_url: null, email: "ada@git.example.com" } satisfies Partial<GitLabProfile>,
    user: { id: 7, name: "ada", email: "ada@git.example.com", image: null },
  },
  {
    title: "discord",
    factory: Discord,
    id: "discord",
    name: "Discord",
    type: "oauth",
    authorize: "https://discord.com/oauth2/authorize",
    scope: "identify email",
    checks: PKCE,
    sample: {
      id: "80351110224678912",
      username: "nelly",
      discriminator: "0",
      global_name: "Nelly",
      avatar: "8342729096ea3675442027381ff50dfe",
      verified: true,
      email: "nelly@discord.com",
      flags: 64,
      banner: "06c16474723fe537c283b8efa61a30c8",
      accent_color: 16711680,
      premium_type: 1,
      public_flags: 64,
      mfa_enabled: true,
      locale: "en-US",
    } satisfies DiscordProfile,
    user: {
      id: "80351110224678912",
      name: "Nelly",
      email: "nelly@discord.com",
      image: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    },
  },
  {
    title: "discord (default avatar, legacy discriminator)",
    factory: Discord,
    id: "discord",
    name: "Discord",
    type: "oauth",
    authorize: "https://discord.com/oauth2/authorize",
    scope: "identify email",
    checks: PKCE,
    sample: { id: "80351110224678912", username: "nelly", discriminator: "1337", global_name: null, avatar: null } satisfies DiscordProfile,
    user: { id: "80351110224678912", name: "nelly", email: null, image: "https://cdn.discordapp.com/embed/avatars/2.png" },
  },
  {
    title: "microsoft-entra-id (default tenant common)",
    factory: MicrosoftEntraID,
    id: "microsoft-entra-id",
    name: "Microsoft Entra ID",
    type: "oidc",
    discovery: at(entraCommon, "https://login.microsoftonline.com/common/v2.0/.well-known/openid-configuration"),
    authorize: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    scope: "openid profile email User.Read",
    checks: PKCE,
    sample: {
      ver: "2.0",
      iss: `https://login.microsoftonline.com/${ENTRA_TENANT}/v2.0`,
      sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
      aud: "6cb04018-a3f5-46a7-b995-940c78f5aef3",
      exp: 1536361411,
      iat: 1536274711,
      nbf: 1536274711,
      name: "Abe Lincoln",
      preferred_username: "AbeLi@microsoft.com",
      email: "AbeLi@microsoft.com",
      oid: "00000000-0000-0000-66f3-3332eca7ea81",
      tid: ENTRA_TENANT,
      picture: "data:image/jpeg;base64,/9j/4AAQSkZJRg==",
    } satisfies MicrosoftEntraIDProfile,
    user: { id: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", name: "Abe Lincoln", email: "AbeLi@microsoft.com", image: "data:image/jpeg;base64,/9j/4AAQSkZJRg==" },
  },
  {
    title: "microsoft-entra-id (one tenant by id)",
    factory: MicrosoftEntraID,
    options: { tenant: ENTRA_TENANT },
    id: "microsoft-entra-id",
    name: "Microsoft Entra ID",
    type: "oidc",
    discovery: at(entraTenant),
    authorize: `https://login.microsoftonline.com/${ENTRA_TENANT}/oauth2/v2.0/authorize`,
    scope: "openid profile email User.Read",
    checks: PKCE,
    sample: {
      iss: `https://login.microsoftonline.com/${ENTRA_TENANT}/v2.0`,
      sub: "wIbX1m5D0FQm2gB7bD4s4ytCk1Q",
      aud: "6cb04018-a3f5-46a7-b995-940c78f5aef3",
      exp: 1536361411,
      iat: 1536274711,
      preferred_username: "carol@contoso.com",
    } satisfies MicrosoftEntraIDProfile,
    user: { id: "wIbX1m5D0FQm2gB7bD4s4ytCk1Q", name: "carol@contoso.com", email: null, image: null },
  },
  {
    title: "apple",
    factory: Apple,
    id: "apple",
    name: "Apple",
    type: "oidc",
    discovery: at(apple),
    authorize: "https://appleid.apple.com/auth/authorize",
    scope: "name email",
    checks: { pkce: false, state: true, nonce: true },
    params: { response_mode: "form_post" },
    sample: {
      iss: "https://appleid.apple.com",
      aud: "com.example.web",
      exp: 1700003600,
      iat: 1700000000,
      sub: "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1234",
      c_hash: "b8ZJ3j2C9RHPb9Oa2EdpwA",
      email: "x7fj2k9q4b@privaterelay.appleid.com",
      email_verified: true,
      is_private_email: true,
      auth_time: 1700000000,
      nonce_supported: true,
      real_user_status: 2,
    } satisfies AppleProfile,
    user: { id: "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1234", name: null, email: "x7fj2k9q4b@privaterelay.appleid.com", image: null },
  },
  {
    title: "facebook",
    factory: Facebook,
    id: "facebook",
    name: "Facebook",
    type: "oauth",
    authorize: "https://www.facebook.com/dialog/oauth",
    scope: "email",
    checks: PKCE,
    sample: {
      id: "10224223543567890",
      name: "Mark Zuckerberg",
      email: "mark@example.com",
      picture: { data: { height: 50, width: 50, is_silhouette: false, url: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224223543567890&height=50&width=50" } },
    } satisfies FacebookProfile,
    user: {
      id: "10224223543567890",
      name: "Mark Zuckerberg",
      email: "mark@example.com",
      image: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224223543567890&height=50&width=50",
    },
  },
  {
    title: "twitter",
    factory: Twitter,
    id: "twitter",
    name: "Twitter",
    type: "oauth",
    authorize: "https://twitter.com/i/oauth2/authorize",
    scope: "users.read tweet.read offline.access",
    checks: { pkce: true, state: true, nonce: false },
    sample: {
      data: { id: "2244994945", name: "X Dev", username: "XDevelopers", profile_image_url: "https://pbs.twimg.com/profile_images/1445764922474827784/W2zEPN7U_normal.jpg" },
    } satisfies TwitterProfile,
    user: { id: "2244994945", name: "X Dev", email: null, image: "https://pbs.twimg.com/profile_images/1445764922474827784/W2zEPN7U_normal.jpg" },
  },
  {
    title: "linkedin",
    factory: LinkedIn,
    id: "linkedin",
    name: "LinkedIn",
    type: "oidc",
    discovery: at(linkedin),
    authorize: "https://www.linkedin.com/oauth/v2/authorization",
    scope: "openid profile email",
    checks: { pkce: false, state: true, nonce: false },
    sample: {
      sub: "782bbtaQ",
      name: "John Doe",
      given_name: "John",
      family_name: "Doe",
      picture: "https://media.licdn.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/",
      locale: { country: "US", language: "en" },
      email: "doe@email.com",
      email_verified: true,
    } satisfies LinkedInProfile,
    user: { id: "782bbtaQ", name: "John Doe", email: "doe@email.com", image: "https://media.licdn.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/" },
  },
  {
    title: "slack",
    factory: Slack,
    id: "slack",
    name: "Slack",
    type: "oidc",
    discovery: at(slack),
    authorize: "https://slack.com/openid/connect/authorize",
    scope: "openid profile email",
    checks: { pkce: false, state: true, nonce: true },
    sample: {
      ok: true,
      sub: "U0R7JM",
      "https://slack.com/user_id": "U0R7JM",
      "https://slack.com/team_id": "T0R7GR",
      "https://slack.com/team_name": "kraneflannel",
      email: "krane@slack-corp.com",
      email_verified: true,
      date_email_verified: 1622128723,
      name: "krane",
      picture: "https://secure.gravatar.com/avatar/cb0c2b2f5d3c2a4e6ad9f4d0b6b9ae2b.jpg?s=512",
      given_name: "",
      family_name: "",
      locale: "en-US",
      "https://slack.com/user_image_512": "https://secure.gravatar.com/avatar/cb0c2b2f5d3c2a4e6ad9f4d0b6b9ae2b.jpg?s=512",
      "https://slack.com/team_image_default": true,
    } satisfies SlackProfile,
    user: { id: "U0R7JM", name: "krane", email: "krane@slack-corp.com", image: "https://secure.gravatar.com/avatar/cb0c2b2f5d3c2a4e6ad9f4d0b6b9ae2b.jpg?s=512" },
  },
  {
    title: "twitch",
    factory: Twitch,
    id: "twitch",
    name: "Twitch",
    type: "oidc",
    discovery: at(twitch),
    authorize: "https://id.twitch.tv/oauth2/authorize",
    scope: "openid user:read:email",
    checks: { pkce: false, state: true, nonce: true },
    params: {
      claims: JSON.stringify({
        id_token: { email: null, email_verified: null, picture: null, preferred_username: null, updated_at: null },
        userinfo: { email: null, email_verified: null, picture: null, preferred_username: null, updated_at: null },
      }),
    },
    sample: {
      aud: "hof5gwx0su6owfnys0yan9c87zr6t",
      exp: 1700003600,
      iat: 1700000000,
      iss: "https://id.twitch.tv/oauth2",
      sub: "713936733",
      azp: "hof5gwx0su6owfnys0yan9c87zr6t",
      email: "streamer@example.com",
      email_verified: true,
      picture: "https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-300x300.png",
      preferred_username: "streamer",
      updated_at: "2023-03-01T12:00:00Z",
    } satisfies TwitchProfile,
    user: {
      id: "713936733",
      name: "streamer",
      email: "streamer@example.com",
      image: "https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-300x300.png",
    },
  },
  {
    title: "spotify",
    factory: Spotify,
    id: "spotify",
    name: "Spotify",
    type: "oauth",
    authorize: "https://accounts.spotify.com/authorize",
    scope: "user-read-email",
    checks: PKCE,
    sample: {
      id: "wizzler",
      display_name: "JM Wizzler",
      email: "email@example.com",
      images: [{ url: "https://i.scdn.co/image/ab67757000003b8255c25988a6ac314394d3fbf5", height: 300, width: 300 }],
      external_urls: { spotify: "https://open.spotify.com/user/wizzler" },
      followers: { href: null, total: 3829 },
      href: "https://api.spotify.com/v1/users/wizzler",
      type: "user",
      uri: "spotify:user:wizzler",
      country: "SE",
      product: "premium",
    } satisfies SpotifyProfile,
    user: { id: "wizzler", name: "JM Wizzler", email: "email@example.com", image: "https://i.scdn.co/image/ab67757000003b8255c25988a6ac314394d3fbf5" },
  },
  {
    title: "reddit",
    factory: Reddit,
    id: "reddit",
    name: "Reddit",
    type: "oauth",
    authorize: "https://www.reddit.com/api/v1/authorize",
    scope: "identity",
    checks: { pkce: false, state: true, nonce: false },
    params: { duration: "temporary" },
    sample: {
      id: "1w72",
      name: "spez",
      icon_img: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&amp;height=256&amp;crop=256:256,smart&amp;s=abc",
      created: 1118030400,
      created_utc: 1118030400,
      has_verified_email: true,
      verified: true,
      link_karma: 170000,
      comment_karma: 750000,
      is_employee: true,
      is_gold: true,
      is_mod: true,
      over_18: true,
    } satisfies RedditProfile,
    user: { id: "1w72", name: "spez", email: null, image: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&height=256&crop=256:256,smart&s=abc" },
  },
  {
    title: "keycloak",
    factory: Keycloak,
    options: { issuer: "https://sso.example.com/realms/acme" },
    id: "keycloak",
    name: "Keycloak",
    type: "oidc",
    discovery: at(keycloak),
    authorize: "https://sso.example.com/realms/acme/protocol/openid-connect/auth",
    scope: "openid profile email",
    checks: PKCE,
    sample: {
      sub: "f0f3c5d2-8f8e-4b6a-9c1d-3e2b1a0f9e8d",
      email_verified: true,
      name: "Alice Liddell",
      preferred_username: "alice",
      given_name: "Alice",
      family_name: "Liddell",
      email: "alice@example.com",
      realm_access: { roles: ["user"] },
    } satisfies KeycloakProfile,
    user: { id: "f0f3c5d2-8f8e-4b6a-9c1d-3e2b1a0f9e8d", name: "Alice Liddell", email: "alice@example.com", image: null },
  },
  {
    title: "auth0",
    factory: Auth0,
    options: { issuer: "https://acme.eu.auth0.com" },
    id: "auth0",
    name: "Auth0",
    type: "oidc",
    discovery: at(auth0, "https://acme.eu.auth0.com/.well-known/openid-configuration"),
    authorize: "https://acme.eu.auth0.com/authorize",
    scope: "openid profile email",
    checks: PKCE,
    sample: {
      sub: "auth0|64b7f0c2e4b0a1c2d3e4f5a6",
      nickname: "jdoe",
      name: "jdoe@example.com",
      picture: "https://s.gravatar.com/avatar/0d4b1e8b0f0c8a7b6c5d4e3f2a1b0c9d?s=480&r=pg&d=https%3A%2F%2Fcdn.auth0.com%2Favatars%2Fjd.png",
      updated_at: "2024-05-01T10:00:00.000Z",
      email: "jdoe@example.com",
      email_verified: false,
    } satisfies Auth0Profile,
    user: {
      id: "auth0|64b7f0c2e4b0a1c2d3e4f5a6",
      name: "jdoe@example.com",
      email: "jdoe@example.com",
      image: "https://s.gravatar.com/avatar/0d4b1e8b0f0c8a7b6c5d4e3f2a1b0c9d?s=480&r=pg&d=https%3A%2F%2Fcdn.auth0.com%2Favatars%2Fjd.png",
    },
  },
  {
    title: "okta",
    factory: Okta,
    options: { issuer: "https://acme.okta.com/oauth2/default" },
    id: "okta",
    name: "Okta",
    type: "oidc",
    discovery: at(okta),
    authorize: "https://acme.okta.com/oauth2/default/v1/authorize",
    scope: "openid profile email",
    checks: PKCE,
    sample: {
      sub: "00uid4BxXw6I6TV4m0g3",
      name: "John Doe",
      nickname: "Jimmy",
      given_name: "John",
      middle_name: "James",
      family_name: "Doe",
      preferred_username: "john.doe@example.com",
      zoneinfo: "America/Los_Angeles",
      locale: "en-US",
      updated_at: 1311280970,
      email: "john.doe@example.com",
      email_verified: true,
    } satisfies OktaProfile,
    user: { id: "00uid4BxXw6I6TV4m0g3", name: "John Doe", email: "john.doe@example.com", image: null },
  },
  {
    title: "cognito",
    factory: Cognito,
    options: { issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123" },
    id: "cognito",
    name: "Cognito",
    type: "oidc",
    discovery: at(cognito),
    authorize: "https://acme.auth.eu-west-1.amazoncognito.com/oauth2/authorize",
    scope: "openid profile email",
    checks: PKCE,
    sample: {
      sub: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
      "cognito:username": "janedoe",
      "cognito:groups": ["admins"],
      email_verified: true,
      email: "janedoe@example.com",
      token_use: "id",
      auth_time: 1700000000,
    } satisfies CognitoProfile,
    user: { id: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", name: "janedoe", email: "janedoe@example.com", image: null },
  },
  {
    title: "zitadel",
    factory: Zitadel,
    options: { issuer: "https://acme-x1y2z3.zitadel.cloud" },
    id: "zitadel",
    name: "ZITADEL",
    type: "oidc",
    discovery: at(zitadel),
    authorize: "https://acme-x1y2z3.zitadel.cloud/oauth/v2/authorize",
    scope: "openid profile email",
    checks: PKCE,
    sample: {
      sub: "77776025198584418",
      name: "Road Runner",
      given_name: "Road",
      family_name: "Runner",
      locale: "en",
      preferred_username: "road.runner@acme.zitadel.cloud",
      email: "road.runner@acme.example",
      email_verified: true,
      picture: "https://acme-x1y2z3.zitadel.cloud/assets/v1/avatar.png",
      updated_at: 1658329554,
    } satisfies ZitadelProfile,
    user: { id: "77776025198584418", name: "Road Runner", email: "road.runner@acme.example", image: "https://acme-x1y2z3.zitadel.cloud/assets/v1/avatar.png" },
  },
  {
    title: "authentik",
    factory: Authentik,
    options: { issuer: "https://auth.example.com/application/o/gatehouse" },
    id: "authentik",
    name: "authentik",
    type: "oidc",
    discovery: at(authentik, "https://auth.example.com/application/o/gatehouse/.well-known/openid-configuration"),
    authorize: "https://auth.example.com/application/o/authorize/",
    scope: "openid profile email",
    checks: PKCE,
    sample: {
      sub: "5d4a07e7d4ee4f6f2c7e0b2d9a1c8e3f",
      email: "akadmin@example.com",
      email_verified: true,
      name: "authentik Default Admin",
      given_name: "authentik Default Admin",
      preferred_username: "akadmin",
      nickname: "akadmin",
      groups: ["authentik Admins"],
    } satisfies AuthentikProfile,
    user: { id: "5d4a07e7d4ee4f6f2c7e0b2d9a1c8e3f", name: "authentik Default Admin", email: "akadmin@example.com", image: null },
  },
  {
    title: "oidc (generic, own id and name)",
    factory: OIDC,
    options: { id: "corp", name: "Corp SSO", issuer: "https://sso.example.org" },
    id: "corp",
    name: "Corp SSO",
    type: "oidc",
    discovery: at(corp),
    authorize: "https://sso.example.org/oauth2/auth",
    scope: "openid profile email",
    checks: PKCE,
    sample: { sub: "248289761001", name: "Jane Doe", preferred_username: "j.doe", email: "janedoe@example.com", picture: "https://sso.example.org/janedoe/me.jpg" } satisfies OIDCProfile,
    user: { id: "248289761001", name: "Jane Doe", email: "janedoe@example.com", image: "https://sso.example.org/janedoe/me.jpg" },
  },
  {
    title: "vk",
    factory: VK,
    id: "vk",
    name: "VK",
    type: "oauth",
    authorize: "https://oauth.vk.com/authorize",
    scope: "email",
    checks: { pkce: false, state: true, nonce: false },
    params: { v: "5.126" },
    sample: {
      id: 210700286,
      first_name: "Lindsey",
      last_name: "Stirling",
      is_closed: false,
      can_access_closed: true,
      photo_100: "https://sun9-1.userapi.com/s/v1/ig2/abc.jpg?size=100x100&quality=96&crop=0,0,800,800&ava=1",
      email: "lindsey@example.com",
    } satisfies VkProfile,
    user: {
      id: 210700286,
      name: "Lindsey Stirling",
      email: "lindsey@example.com",
      image: "https://sun9-1.userapi.com/s/v1/ig2/abc.jpg?size=100x100&quality=96&crop=0,0,800,800&ava=1",
    },
  },
  {
    title: "tiktok",
    factory: TikTok,
    id: "tiktok",
    name: "TikTok",
    type: "oauth",
    authorize: "https://www.tiktok.com/v2/auth/authorize/",
    scope: "user.info.profile",
    checks: { pkce: false, state: true, nonce: false },
    params: { client_key: "$clientId" },
    sample: {
      data: {
        user: {
          open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
          union_id: "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1",
          avatar_url: "https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_168x168.jpeg",
          display_name: "Tik Toker",
          username: "tiktoker",
        },
      },
      error: { code: "ok", message: "", log_id: "20220829194722CBE87ED59D524E727021" },
    } satisfies TikTokProfile,
    user: {
      id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
      name: "Tik Toker",
      email: "tiktoker",
      image: "https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_168x168.jpeg",
    },
  },
]

function clientIdOf(testCase: CatalogCase): string {
  return `client-${testCase.id}-0123456789`
}

function build(testCase: CatalogCase, fetchImpl?: typeof fetch): OAuthProviderConfig {
  return testCase.factory({
    clientId: clientIdOf(testCase),
    clientSecret: CLIENT_SECRET,
    ...testCase.options,
    ...(fetchImpl && { [customFetch]: fetchImpl }),
  })
}

describe.each(CASES)("$title", (testCase) => {
  test("id, name, type and button colours", () => {
    const provider = build(testCase)
    expect(provider.id).toBe(testCase.id)
    expect(provider.name).toBe(testCase.name)
    expect(provider.type).toBe(testCase.type)
    expect(provider.style?.bg).toMatch(CSS_COLOR)
    expect(provider.style?.text).toMatch(CSS_COLOR)
    if (provider.style?.logo !== undefined) expect(provider.style.logo).toMatch(/^https:\/\//)
  })

  test("the authorization request: documented endpoint, code flow, client, callback, default scope, checks", async () => {
    const documents = testCase.discovery ? { [testCase.discovery.url]: testCase.discovery.document } : {}
    const recorder = discoveryFetch(documents)
    const { location, origin } = await startSignin(build(testCase, recorder.fetch))

    expect(`${location.origin}${location.pathname}`).toBe(testCase.authorize)
    expect(location.protocol).toBe("https:")
    const params = location.searchParams
    // Every parameter appears exactly once.
    const keys = [...params.keys()]
    expect(keys).toEqual([...new Set(keys)])
    expect(params.get("response_type")).toBe("code")
    expect(params.get("client_id")).toBe(clientIdOf(testCase))
    expect(params.get("redirect_uri")).toBe(`${origin}/auth/callback/${testCase.id}`)
    expect(params.get("scope")).toBe(testCase.scope)
    if (testCase.checks.pkce) {
      expect(params.get("code_challenge_method")).toBe("S256")
      expect(params.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    } else {
      expect(params.has("code_challenge")).toBe(false)
      expect(params.has("code_challenge_method")).toBe(false)
    }
    expect(params.has("state")).toBe(testCase.checks.state)
    expect(params.has("nonce")).toBe(testCase.checks.nonce)
    expect(params.has("client_secret")).toBe(false)
    for (const [key, value] of Object.entries(testCase.params ?? {})) {
      expect([key, params.get(key)]).toEqual([key, value === "$clientId" ? clientIdOf(testCase) : value])
    }
    if (!testCase.params?.response_mode) expect(params.has("response_mode")).toBe(false)

    // OIDC providers (and GitLab) read their discovery document, and nothing else, at sign-in.
    expect(recorder.urls).toEqual(testCase.discovery ? [testCase.discovery.url] : [])
  })

  test("profile mapping", async () => {
    const provider = build(testCase)
    const tokens: TokenSet = testCase.tokens ?? { access_token: "access-token", token_type: "bearer" }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const user = await provider.profile!(testCase.sample as any, tokens)
    expect(user).toEqual(testCase.user)
  })
})

describe("options", () => {
  test("authorization params given by the app are merged with the default scope, key by key", async () => {
    const recorder = discoveryFetch({ [wellKnownOf(google.issuer)]: google })
    const provider = Google({ clientId: "g", clientSecret: "s", authorization: { params: { prompt: "consent", access_type: "offline" } }, [customFetch]: recorder.fetch })
    const { location } = await startSignin(provider)
    expect(location.searchParams.get("scope")).toBe("openid profile email")
    expect(location.searchParams.get("prompt")).toBe("consent")
    expect(location.searchParams.get("access_type")).toBe("offline")
  })

  test("an app's scope replaces the default one", async () => {
    const { location } = await startSignin(GitHub({ clientId: "g", clientSecret: "s", authorization: { params: { scope: "read:user" } } }))
    expect(location.searchParams.get("scope")).toBe("read:user")
  })

  test("Reddit's duration can be made permanent", async () => {
    const { location } = await startSignin(Reddit({ clientId: "r", clientSecret: "s", authorization: { params: { duration: "permanent" } } }))
    expect(location.searchParams.get("duration")).toBe("permanent")
    expect(location.searchParams.get("scope")).toBe("identity")
  })

  test("Reddit, Apple, LinkedIn, Twitch and TikTok authenticate at the token endpoint the way they require", () => {
    expect(Reddit().client?.token_endpoint_auth_method).toBe("client_secret_basic")
    for (const provider of [Apple(), LinkedIn(), Twitch(), TikTok(), VK(), Facebook(), GitHub()]) {
      expect([provider.id, provider.client?.token_endpoint_auth_method]).toEqual([provider.id, "client_secret_post"])
    }
  })
})

describe("per-tenant issuers", () => {
  const tenants: Array<{ factory: AnyFactory; id: string; env: string; document: DiscoveryDocument }> = [
    { factory: Keycloak, id: "keycloak", env: "AUTH_KEYCLOAK_ISSUER", document: keycloak },
    { factory: Auth0, id: "auth0", env: "AUTH_AUTH0_ISSUER", document: auth0 },
    { factory: Okta, id: "okta", env: "AUTH_OKTA_ISSUER", document: okta },
    { factory: Cognito, id: "cognito", env: "AUTH_COGNITO_ISSUER", document: cognito },
    { factory: Zitadel, id: "zitadel", env: "AUTH_ZITADEL_ISSUER", document: zitadel },
    { factory: Authentik, id: "authentik", env: "AUTH_AUTHENTIK_ISSUER", document: authentik },
    { factory: OIDC, id: "oidc", env: "AUTH_OIDC_ISSUER", document: corp },
  ]

  afterEach(() => {
    for (const { env } of tenants) delete process.env[env]
  })

  test.each(tenants)("$id has no default issuer: the configuration is refused at start-up without one", ({ factory }) => {
    expect(() => makeApp(testConfig({ providers: [factory({ clientId: "c", clientSecret: "s" })] }))).toThrow(
      expect.objectContaining({ type: "InvalidEndpoints", message: expect.stringContaining("needs an issuer") }) as Error,
    )
  })

  test.each(tenants)("$id reads its issuer from $env", async ({ factory, env, document }) => {
    process.env[env] = document.issuer
    const recorder = discoveryFetch({ [wellKnownOf(document.issuer)]: document })
    const { location } = await startSignin(factory({ clientId: "c", clientSecret: "s", [customFetch]: recorder.fetch }))
    expect(`${location.origin}${location.pathname}`).toBe(document.authorization_endpoint)
    expect(recorder.urls).toEqual([wellKnownOf(document.issuer)])
  })

  test("Auth0 and authentik add the trailing slash their issuers carry", () => {
    expect(Auth0({ issuer: "https://acme.eu.auth0.com" }).issuer).toBe("https://acme.eu.auth0.com/")
    expect(Auth0({ issuer: "https://acme.eu.auth0.com/" }).issuer).toBe("https://acme.eu.auth0.com/")
    expect(Authentik({ issuer: "https://auth.example.com/application/o/app" }).issuer).toBe("https://auth.example.com/application/o/app/")
  })

  test("Microsoft Entra ID: the tenant decides the issuer URL; only a GUID tenant is compared verbatim", () => {
    expect(MicrosoftEntraID()).toMatchObject({ wellKnown: "https://login.microsoftonline.com/common/v2.0" })
    expect(MicrosoftEntraID().issuer).toBeUndefined()
    expect(MicrosoftEntraID({ tenant: "organizations" })).toMatchObject({ wellKnown: "https://login.microsoftonline.com/organizations/v2.0" })
    expect(MicrosoftEntraID({ tenant: ENTRA_TENANT })).toMatchObject({ issuer: `https://login.microsoftonline.com/${ENTRA_TENANT}/v2.0` })
    expect(MicrosoftEntraID({ tenant: ENTRA_TENANT }).wellKnown).toBeUndefined()
    expect(MicrosoftEntraID({ issuer: "https://login.microsoftonline.com/x/v2.0" }).wellKnown).toBeUndefined()
    expect(MicrosoftEntraID({ tenant: "contoso" })).not.toHaveProperty("tenant")
  })
})
