/**
 * VK (VKontakte), OAuth 2.0 on oauth.vk.com and the VK API. `gatehouse/providers/vk`.
 *
 * Every VK request carries the API version `v`, 5.126 by default: authorization at
 * https://oauth.vk.com/authorize?v=5.126 (`response_type=code`, scope `email`, `state`; VK has
 * no PKCE here), the token at https://oauth.vk.com/access_token?v=5.126 (client id and secret in
 * the form body), the user from https://api.vk.com/method/users.get?fields=photo_100&v=5.126 (the
 * access token in the documented `access_token` parameter). To use another version, give the
 * URLs with their own `v`: `authorization`, `token` and `userinfo`, or their legacy names
 * `authorizationUrl` (with `response_type=code`), `accessTokenUrl` (or `requestTokenUrl`) and
 * `profileUrl` (a user lookup with `fields=photo_100`). A URL given without `v` gets 5.126, and a
 * profile URL without `fields` gets `fields=photo_100`. Parameters of an authorization URL that
 * the flow sets itself (`response_type`, `client_id`, `redirect_uri`, `state`, PKCE) are left to
 * the flow, so they are not sent twice.
 *
 * VK's token answer has no `token_type` (which the OAuth flow requires): this provider's fetch
 * adds `bearer`. VK returns the email address in the token answer, not in the user record: the
 * profile gets it from there. The profile is the user record (`response[0]` of users.get); a VK
 * API error answer is an OAuthCallbackError.
 *
 * The callback URL is `{site}{basePath}/callback/vk`. Environment: AUTH_VK_ID (the app id),
 * AUTH_VK_SECRET (the secure key).
 */
import { customFetch } from "../core/symbols.js"
import { OAuthCallbackError, OAuthProfileParseError } from "../errors.js"
import type { OAuthProviderConfig, OAuthUserConfig, UserinfoContext } from "./types.js"
import type { VkProfile } from "./catalog/vk-profile.js"
import { endpoint, oauthProvider } from "./oauth/options.js"
import { catalogFetch } from "./catalog/fetch.js"
import { accessToken, getJson, record, userinfoUrl } from "./catalog/userinfo.js"

/** The API version sent when a URL does not carry its own `v`. */
export const VK_API_VERSION = "5.126"

export type * from "./catalog/vk-profile.js"

export type VkOptions = OAuthUserConfig<VkProfile> & {
  /** Legacy name of `authorization` (a URL with `response_type=code` and `v`). */
  authorizationUrl?: string
  /** Legacy name of `token` (a URL with `v`). */
  accessTokenUrl?: string
  /** Legacy alias of `accessTokenUrl` (OAuth 2.0 has one token endpoint); used when that is absent. */
  requestTokenUrl?: string
  /** Legacy name of `userinfo` (a users.get URL with `fields=photo_100` and `v`). */
  profileUrl?: string
}

const AUTHORIZATION_URL = "https://oauth.vk.com/authorize"
const TOKEN_URL = `https://oauth.vk.com/access_token?v=${VK_API_VERSION}`
const USERINFO_URL = `https://api.vk.com/method/users.get?fields=photo_100&v=${VK_API_VERSION}`

/** Authorization parameters the flow sets itself: taken out of a configured URL so they are not sent twice. */
const FLOW_SET = new Set(["client_id", "redirect_uri", "response_type", "response_mode", "state", "nonce", "code_challenge", "code_challenge_method"])

function withDefaults(url: string, defaults: Record<string, string>): string {
  const result = new URL(url)
  for (const [key, value] of Object.entries(defaults)) if (!result.searchParams.has(key)) result.searchParams.set(key, value)
  return result.href
}

/** The user record of a users.get answer, with the token answer's email. */
async function vkProfile({ tokens, provider, fetch }: UserinfoContext): Promise<VkProfile> {
  const url = userinfoUrl(provider, USERINFO_URL)
  url.searchParams.set("access_token", accessToken(provider, tokens))
  const answer = await getJson(fetch, url, provider, {})
  const error = record(answer.body?.error)
  if (error) {
    throw new OAuthCallbackError(`The VK API refused the profile request of provider "${provider.id}"`, {
      cause: { error_code: error.error_code, error_msg: typeof error.error_msg === "string" ? error.error_msg.slice(0, 300) : undefined },
    })
  }
  if (!answer.ok) throw new OAuthCallbackError(`The profile request of provider "${provider.id}" answered ${answer.status}`)
  const list = answer.body?.response
  const user = Array.isArray(list) ? record(list[0]) : undefined
  if (!user) throw new OAuthProfileParseError(`The users.get answer of provider "${provider.id}" holds no user`)
  const email = typeof tokens.email === "string" && tokens.email ? tokens.email : undefined
  return (email && !user.email ? { ...user, email } : user) as VkProfile
}

export default function VK(options: VkOptions = {}): OAuthProviderConfig<VkProfile> {
  const { authorizationUrl, accessTokenUrl, requestTokenUrl, profileUrl, ...rest } = options

  const givenAuthorization = endpoint(rest.authorization)
  const authorizationTarget = new URL(authorizationUrl ?? givenAuthorization.url ?? AUTHORIZATION_URL)
  const fromUrl: Record<string, string> = {}
  authorizationTarget.searchParams.forEach((value, key) => {
    if (!FLOW_SET.has(key)) fromUrl[key] = value
  })
  authorizationTarget.search = ""

  // Token and userinfo URLs keep their query (their `v`), as the flow reads the token URL as given.
  const givenToken = endpoint(rest.token, undefined, true)
  const givenUserinfo = rest.userinfo && typeof rest.userinfo === "object" ? rest.userinfo : undefined

  return oauthProvider<VkProfile>(
    {
      id: "vk",
      name: "VK",
      type: "oauth",
      authorization: { url: AUTHORIZATION_URL, params: { scope: "email", v: VK_API_VERSION } },
      token: TOKEN_URL,
      userinfo: { url: USERINFO_URL, request: vkProfile },
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state"],
      profile: (profile) => ({
        id: profile.id,
        name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: profile.photo_100 ?? null,
      }),
      style: { bg: "#0077ff", text: "#fff" },
    },
    {
      ...rest,
      authorization: { url: authorizationTarget.href, params: { ...fromUrl, ...givenAuthorization.params } },
      token: { ...givenToken, url: withDefaults(accessTokenUrl ?? requestTokenUrl ?? givenToken.url ?? TOKEN_URL, { v: VK_API_VERSION }) },
      userinfo: {
        ...givenUserinfo,
        url: withDefaults(profileUrl ?? endpoint(rest.userinfo, undefined, true).url ?? USERINFO_URL, { fields: "photo_100", v: VK_API_VERSION }),
      },
      // VK's token answer lacks token_type.
      [customFetch]: catalogFetch(rest, {
        answer: (json, status) =>
          status === 200 && typeof json.access_token === "string" && json.token_type === undefined ? { json: { ...json, token_type: "bearer" } } : undefined,
      }),
    },
  )
}
