/**
 * TikTok ("Provider profile B" of the spec) end to end, against a loopback server that answers
 * like www.tiktok.com and open.tiktokapis.com (API v2) and records every request: `client_key`
 * in the authorization request, the default scope, the form-encoded token request with its added
 * `client_key` and client_secret_post, the `/token/` path, the userinfo `fields`, the profile
 * mapping, the error record `{ code, message, log_id }` as OAuthCallbackError; and the profile
 * type's fields (type-level).
 */
import type { ServerResponse } from "node:http"
import TikTok, { TIKTOK_DEFAULT_FIELDS, type TikTokError, type TikTokProfile, type TikTokUser } from "../../lib/providers/tiktok.js"
import {
  authorizeRoute,
  customFetch,
  localProvider,
  redirectingFetch,
  sendJson,
  signInThrough,
  startSignin,
  type KnownKeys,
  type LocalProvider,
  type RecordedRequest,
  type RequiredKeys,
} from "./support.js"

const CLIENT_KEY = "awx7d2kq9plm3ntz"
const CLIENT_SECRET = "tiktok-client-secret-0123456789"
const ACCESS_TOKEN = "act.1d1021d2aee3d41fee2d2add43456badMFokOnuTq4Znua0Ap6CW"

const USER: TikTokUser = {
  open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
  avatar_url: "https://p16-sign-va.tiktokcdn.com/tos-maliva-avt-0068/7f1b2c3d~c5_168x168.jpeg",
  display_name: "Tik Toker",
  username: "TikToker",
}
const OK: TikTokError = { code: "ok", message: "", log_id: "20231201120000ABCDEF0123456789" }

let local: LocalProvider

function tokenAnswer(_request: RecordedRequest, res: ServerResponse) {
  sendJson(res, {
    access_token: ACCESS_TOKEN,
    expires_in: 86400,
    open_id: USER.open_id,
    refresh_expires_in: 31536000,
    refresh_token: "rft.e2e2b3c4d5e6f7a8b9c0d1e2f3a4b5c6",
    scope: "user.info.profile",
    token_type: "Bearer",
  })
}

beforeEach(async () => {
  local = await localProvider({
    "/v2/auth/authorize/": authorizeRoute("tiktok-authorization-code"),
    "/v2/oauth/token/": tokenAnswer,
    "/v2/user/info/": (_request, res) => sendJson(res, { data: { user: USER }, error: OK }),
  })
})

afterEach(async () => {
  await local.close()
  delete process.env.AUTH_TIKTOK_ID
  delete process.env.AUTH_TIKTOK_SECRET
})

function defaultTikTok(options: Parameters<typeof TikTok>[0] = {}): ReturnType<typeof TikTok> {
  return TikTok({
    clientId: CLIENT_KEY,
    clientSecret: CLIENT_SECRET,
    [customFetch]: redirectingFetch(["www.tiktok.com", "open.tiktokapis.com"], local.url),
    ...options,
  })
}

describe("TikTok with its default endpoints", () => {
  test("a whole sign-in: client_key, scope, form-encoded token request with client_key, fields, mapping", async () => {
    const result = await signInThrough(defaultTikTok(), local.url)

    // Authorization request.
    const authorization = result.authorization
    expect(`${authorization.origin}${authorization.pathname}`).toBe("https://www.tiktok.com/v2/auth/authorize/")
    expect(authorization.searchParams.getAll("client_key")).toEqual([CLIENT_KEY])
    expect(authorization.searchParams.get("scope")).toBe("user.info.profile")
    expect(authorization.searchParams.getAll("response_type")).toEqual(["code"])
    expect(authorization.searchParams.get("state")).toBeTruthy()
    const callbackUrl = `${result.returned.origin}/auth/callback/tiktok`
    expect(authorization.searchParams.get("redirect_uri")).toBe(callbackUrl)
    expect(result.returned.pathname).toBe("/auth/callback/tiktok")

    // Token request.
    const [token, ...moreTokens] = local.at("/v2/oauth/token/")
    expect(moreTokens).toHaveLength(0)
    expect(token!.method).toBe("POST")
    expect(token!.path).toMatch(/\/token\/$/)
    expect(token!.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/)
    expect(token!.headers.authorization).toBeUndefined() // client_secret_post: no HTTP Basic
    expect(Object.fromEntries(new URLSearchParams(token!.body))).toEqual({
      grant_type: "authorization_code",
      code: "tiktok-authorization-code",
      redirect_uri: callbackUrl,
      client_id: CLIENT_KEY,
      client_key: CLIENT_KEY,
      client_secret: CLIENT_SECRET,
    })

    // User info request.
    const [info, ...moreInfo] = local.at("/v2/user/info/")
    expect(moreInfo).toHaveLength(0)
    expect(info!.method).toBe("GET")
    expect(info!.query.getAll("fields")).toEqual(["open_id,avatar_url,display_name,username"])
    expect(info!.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`)

    expect(result.errors).toEqual([])
    expect(result.callback.location).toBe(`${result.returned.origin}/dashboard`)
    // email = username (TikTok gives no email); Gatehouse stores emails lowercased.
    expect(result.session?.user).toEqual({ name: "Tik Toker", email: "tiktoker", image: USER.avatar_url })
  })

  test("the client key comes from AUTH_TIKTOK_ID when the options do not give it", async () => {
    process.env.AUTH_TIKTOK_ID = "env-client-key"
    process.env.AUTH_TIKTOK_SECRET = "env-secret"
    const result = await signInThrough(TikTok({ [customFetch]: redirectingFetch(["www.tiktok.com", "open.tiktokapis.com"], local.url) }), local.url)
    expect(result.authorization.searchParams.get("client_key")).toBe("env-client-key")
    expect(result.authorization.searchParams.get("client_id")).toBe("env-client-key")
    const body = new URLSearchParams(local.at("/v2/oauth/token/")[0]!.body)
    expect([body.get("client_key"), body.get("client_secret")]).toEqual(["env-client-key", "env-secret"])
    expect(result.session?.user?.name).toBe("Tik Toker")
  })

  test("the default fields can be changed through userinfo params", async () => {
    const fields = "open_id,union_id,avatar_url,display_name,username,is_verified"
    await signInThrough(defaultTikTok({ userinfo: { params: { fields } } }), local.url)
    expect(local.at("/v2/user/info/")[0]!.query.get("fields")).toBe(fields)
    expect(TIKTOK_DEFAULT_FIELDS).toBe("open_id,avatar_url,display_name,username")
  })

  test("the endpoints can be given as options (here, the loopback server itself)", async () => {
    const provider = TikTok({
      clientId: CLIENT_KEY,
      clientSecret: CLIENT_SECRET,
      authorization: `${local.url}/v2/auth/authorize/`,
      token: `${local.url}/v2/oauth/token/`,
      userinfo: `${local.url}/v2/user/info/`,
    })
    const result = await signInThrough(provider, local.url)
    expect(result.authorization.searchParams.get("client_key")).toBe(CLIENT_KEY)
    expect(result.authorization.searchParams.get("scope")).toBe("user.info.profile")
    expect(new URLSearchParams(local.at("/v2/oauth/token/")[0]!.body).get("client_key")).toBe(CLIENT_KEY)
    expect(local.at("/v2/user/info/")[0]!.query.get("fields")).toBe(TIKTOK_DEFAULT_FIELDS)
    expect(result.session?.user?.name).toBe("Tik Toker")
  })
})

describe("TikTok errors are OAuthCallbackError", () => {
  const failed = (result: Awaited<ReturnType<typeof signInThrough>>) => {
    expect(result.callback.status).toBe(302)
    expect(result.callback.location).toContain("/auth/signin?error=OAuthCallbackError")
    expect(result.session).toBeNull()
    expect(result.errors).toHaveLength(1)
    return result.errors[0] as Error & { type: string; cause?: Record<string, unknown> }
  }

  test("a user info answer with an error record (HTTP 401)", async () => {
    local.routes["/v2/user/info/"] = (_request, res) =>
      sendJson(res, { data: {}, error: { code: "access_token_invalid", message: "The access token is invalid or not found in the request.", log_id: "LOG-401" } }, 401)
    const error = failed(await signInThrough(defaultTikTok(), local.url))
    expect(error.type).toBe("OAuthCallbackError")
    expect(error.cause).toEqual({ code: "access_token_invalid", message: "The access token is invalid or not found in the request.", log_id: "LOG-401" })
  })

  test("a user info answer with an error record and HTTP 200", async () => {
    local.routes["/v2/user/info/"] = (_request, res) => sendJson(res, { data: {}, error: { code: "scope_not_authorized", message: "The user did not authorize the scope.", log_id: "LOG-200" } })
    const error = failed(await signInThrough(defaultTikTok(), local.url))
    expect(error).toMatchObject({ type: "OAuthCallbackError", cause: { code: "scope_not_authorized", log_id: "LOG-200" } })
  })

  test("a token answer carrying an error (HTTP 200)", async () => {
    local.routes["/v2/oauth/token/"] = (_request, res) =>
      sendJson(res, { error: "invalid_grant", error_description: "Authorization code is expired.", log_id: "LOG-TOKEN" })
    const error = failed(await signInThrough(defaultTikTok(), local.url))
    expect(error.type).toBe("OAuthCallbackError")
    expect(JSON.stringify(error.cause, (_key, value: unknown) => (value instanceof Error ? { ...value, message: value.message } : value))).toContain("invalid_grant")
    expect(local.at("/v2/user/info/")).toHaveLength(0)
  })

  test("a token answer carrying the error record { code, message, log_id }", async () => {
    local.routes["/v2/oauth/token/"] = (_request, res) => sendJson(res, { data: {}, error: { code: "invalid_client", message: "Client key is invalid.", log_id: "LOG-REC" } })
    const error = failed(await signInThrough(defaultTikTok(), local.url))
    expect(error.type).toBe("OAuthCallbackError")
    expect(local.at("/v2/user/info/")).toHaveLength(0)
  })
})

describe("TikTok profile mapping and types", () => {
  const provider = TikTok()
  const map = (user: Partial<TikTokUser>) => provider.profile!({ data: { user: { ...USER, ...user } as TikTokUser }, error: OK }, {})

  test("id = open_id, name = display_name, image = avatar_url, email = email else username else null", () => {
    expect(map({})).toEqual({ id: USER.open_id, name: "Tik Toker", email: "TikToker", image: USER.avatar_url })
    expect(map({ email: "toker@example.com" })).toEqual(expect.objectContaining({ email: "toker@example.com" }))
    expect(map({ username: undefined })).toEqual(expect.objectContaining({ email: null }))
  })

  test("the authorization request carries client_key for the configured client id", async () => {
    const { location } = await startSignin(TikTok({ clientId: "configured-key", clientSecret: "s" }))
    expect(location.searchParams.get("client_key")).toBe("configured-key")
    expect(location.searchParams.has("code_challenge")).toBe(false)
  })

  test("TikTokProfile: data.user with the spec's fields (four required), and the error record", () => {
    const userFields: Record<KnownKeys<TikTokUser>, true> = {
      open_id: true,
      avatar_url: true,
      display_name: true,
      username: true,
      avatar_large_url: true,
      avatar_url_100: true,
      bio_description: true,
      email: true,
      follower_count: true,
      following_count: true,
      likes_count: true,
      video_count: true,
      is_verified: true,
      profile_deep_link: true,
      union_id: true,
    }
    const required: Record<RequiredKeys<TikTokUser>, true> = { open_id: true, avatar_url: true, display_name: true, username: true }
    const errorFields: Record<KnownKeys<TikTokError>, true> = { code: true, message: true, log_id: true }
    const full: TikTokProfile = {
      data: {
        user: {
          ...USER,
          avatar_large_url: "https://p16-sign-va.tiktokcdn.com/large.jpeg",
          avatar_url_100: "https://p16-sign-va.tiktokcdn.com/100.jpeg",
          bio_description: "Dancing",
          email: "toker@example.com",
          follower_count: 1000,
          following_count: 10,
          likes_count: 50000,
          video_count: 42,
          is_verified: false,
          profile_deep_link: "https://vm.tiktok.com/ZMabcdef/",
          union_id: "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1",
        } satisfies Required<TikTokUser>,
      },
      error: OK,
    }
    expect(Object.keys(userFields)).toHaveLength(15)
    expect(Object.keys(required)).toHaveLength(4)
    expect(Object.keys(errorFields)).toEqual(["code", "message", "log_id"])
    expect(provider.profile!(full, {})).toEqual({ id: USER.open_id, name: "Tik Toker", email: "toker@example.com", image: USER.avatar_url })
  })
})
