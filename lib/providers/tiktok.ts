/**
 * TikTok, Login Kit for Web (OAuth 2.0, API v2). `gatehouse/providers/tiktok`.
 *
 * TikTok names the client id "client key":
 * - authorization at https://www.tiktok.com/v2/auth/authorize/ with `client_key` (the configured
 *   client id, from the options or else AUTH_TIKTOK_ID when the sign-in starts), scope
 *   `user.info.profile`, `response_type=code` and `state` (TikTok's web flow has no PKCE);
 * - the token at https://open.tiktokapis.com/v2/oauth/token/ (the path ends with `/token/`), a
 *   `application/x-www-form-urlencoded` POST with the client id and secret in the body
 *   (`client_secret_post`) and an added `client_key` field, which this provider's fetch adds;
 * - the user from https://open.tiktokapis.com/v2/user/info/ with `fields=open_id,avatar_url,
 *   display_name,username` (TikTok returns only the fields listed; change them with
 *   `userinfo: { params: { fields } }`).
 *
 * The profile is `{ data: { user }, error }`. An answer whose error record `{ code, message,
 * log_id }` has a code other than `ok` (TikTok's success code), or a token answer carrying an
 * `error`, ends the sign-in with OAuthCallbackError (the log_id goes to the log). Mapping: id =
 * `open_id`, name = `display_name`, image = `avatar_url`, email = `email`, else `username`, else
 * null (TikTok does not give email addresses).
 *
 * The callback URL is `{site}{basePath}/callback/tiktok`. TikTok only accepts registered and
 * approved domains and callback URLs, and production apps cannot use localhost callback URLs.
 * Environment: AUTH_TIKTOK_ID (the client key), AUTH_TIKTOK_SECRET (the client secret).
 */
import { customFetch } from "../core/symbols.js"
import { OAuthCallbackError, OAuthProfileParseError } from "../errors.js"
import type { OAuthProviderConfig, OAuthUserConfig, UserinfoContext } from "./types.js"
import { oauthProvider } from "./oauth/options.js"
import { catalogFetch } from "./catalog/fetch.js"
import { accessToken, getJson, record, userinfoUrl } from "./catalog/userinfo.js"

/** The user record (`data.user`); optional fields come only when listed in `fields`. */
export interface TikTokUser {
  /** The user's id for this application. */
  open_id: string
  avatar_url: string
  display_name: string
  username: string
  avatar_large_url?: string
  /** 100x100. */
  avatar_url_100?: string
  bio_description?: string
  /** Not provided by TikTok. */
  email?: string
  follower_count?: number
  following_count?: number
  likes_count?: number
  video_count?: number
  is_verified?: boolean
  profile_deep_link?: string
  /** The user's id across the same developer's applications. */
  union_id?: string
}

/** TikTok's error record; `code` is `ok` on success. */
export interface TikTokError {
  code: string
  message: string
  log_id: string
}

/** The answer of GET /v2/user/info/. */
export interface TikTokProfile extends Record<string, unknown> {
  data: { user: TikTokUser }
  error?: TikTokError
}

const AUTHORIZATION_URL = "https://www.tiktok.com/v2/auth/authorize/"
const TOKEN_URL = "https://open.tiktokapis.com/v2/oauth/token/"
const USERINFO_URL = "https://open.tiktokapis.com/v2/user/info/"
export const TIKTOK_DEFAULT_FIELDS = "open_id,avatar_url,display_name,username"

function short(value: unknown, length: number): string | undefined {
  return typeof value === "string" ? value.slice(0, length) : undefined
}

/** A token answer carrying an error, as a standard OAuth error answer (HTTP 400), else undefined. */
function tokenError(json: Record<string, unknown>, status: number): { json: Record<string, unknown>; status: number } | undefined {
  const nested = record(json.error)
  if (nested) {
    if (nested.code === "ok" && typeof json.access_token === "string") return undefined
    return {
      json: { error: short(nested.code, 100) ?? "server_error", error_description: short(nested.message, 300) ?? "", log_id: short(nested.log_id, 100) },
      status: status >= 400 ? status : 400,
    }
  }
  if (typeof json.error === "string") return status >= 400 ? undefined : { json, status: 400 }
  return undefined
}

async function tiktokProfile({ tokens, provider, fetch }: UserinfoContext): Promise<TikTokProfile> {
  const url = userinfoUrl(provider, USERINFO_URL)
  const answer = await getJson(fetch, url, provider, { authorization: `Bearer ${accessToken(provider, tokens)}` })
  const error = record(answer.body?.error)
  if (error && error.code !== "ok") {
    throw new OAuthCallbackError(`TikTok refused the user info request of provider "${provider.id}" (${short(error.code, 100)})`, {
      cause: { code: short(error.code, 100), message: short(error.message, 300), log_id: short(error.log_id, 100) },
    })
  }
  if (!answer.ok) throw new OAuthCallbackError(`The user info request of provider "${provider.id}" answered ${answer.status}`)
  if (!record(record(answer.body?.data)?.user)) throw new OAuthProfileParseError(`The user info of provider "${provider.id}" has no data.user`)
  return answer.body as TikTokProfile
}

export default function TikTok(options: OAuthUserConfig<TikTokProfile> = {}): OAuthProviderConfig<TikTokProfile> {
  return oauthProvider<TikTokProfile>(
    {
      id: "tiktok",
      name: "TikTok",
      type: "oauth",
      // `client_key` is the client id, known only once the configuration is resolved (AUTH_TIKTOK_ID).
      authorization: { url: AUTHORIZATION_URL, params: { scope: "user.info.profile", client_key: (final) => final.clientId } },
      token: TOKEN_URL,
      userinfo: { url: USERINFO_URL, params: { fields: TIKTOK_DEFAULT_FIELDS }, request: tiktokProfile },
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state"],
      profile: ({ data }) => ({
        id: data.user.open_id,
        name: data.user.display_name ?? null,
        email: data.user.email || data.user.username || null,
        image: data.user.avatar_url ?? null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    {
      ...options,
      [customFetch]: catalogFetch(options, {
        body: (body) => {
          const clientId = body.get("client_id")
          if (clientId) body.set("client_key", clientId)
        },
        answer: tokenError,
      }),
    },
  )
}
