/**
 * VK ("Provider profile A" of the spec) end to end, against a loopback server that answers like
 * oauth.vk.com and api.vk.com and records every request: the API version `v` (5.126 by default,
 * the app's own when it gives URLs carrying another `v`), response_type=code, the users.get lookup
 * with fields=photo_100, the callback path, the token answer without token_type, errors; and the
 * profile type's fields (type-level).
 */
import type { ServerResponse } from "node:http"
import VK, { VK_API_VERSION, type VkProfile } from "../../lib/providers/vk.js"
import { endpoint } from "../../lib/providers/oauth/options.js"
import {
  authorizeRoute,
  customFetch,
  localProvider,
  redirectingFetch,
  sendJson,
  signInThrough,
  type KnownKeys,
  type LocalProvider,
  type RecordedRequest,
  type RequiredKeys,
} from "./support.js"

const CLIENT_ID = "51234567"
const CLIENT_SECRET = "vk-secure-key-0123456789"
const ACCESS_TOKEN = "vk1.a.access-token-0123456789"

const USER: VkProfile = {
  id: 210700286,
  first_name: "Lindsey",
  last_name: "Stirling",
  is_closed: false,
  can_access_closed: true,
  photo_100: "https://sun9-1.userapi.com/impf/c851016/v851016066/10a7e2/lindsey.jpg?size=100x100&quality=96&sign=abc&type=album",
}

let local: LocalProvider

function tokenAnswer(_request: RecordedRequest, res: ServerResponse) {
  // VK's answer: no token_type; the email travels here, not in users.get.
  sendJson(res, { access_token: ACCESS_TOKEN, expires_in: 86400, user_id: USER.id, email: "lindsey@example.com" })
}

beforeEach(async () => {
  local = await localProvider({
    "/authorize": authorizeRoute("vk-authorization-code"),
    "/access_token": tokenAnswer,
    "/method/users.get": (_request, res) => sendJson(res, { response: [USER] }),
  })
})

afterEach(async () => {
  await local.close()
})

function defaultVk(): ReturnType<typeof VK> {
  return VK({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, [customFetch]: redirectingFetch(["oauth.vk.com", "api.vk.com"], local.url) })
}

describe("VK with its default URLs (v=5.126)", () => {
  test("the default API version is 5.126", () => {
    expect(VK_API_VERSION).toBe("5.126")
  })

  test("a whole sign-in: v=5.126 on every request, response_type=code, fields=photo_100, the callback path", async () => {
    const result = await signInThrough(defaultVk(), local.url)

    // Authorization request.
    const authorization = result.authorization
    expect(`${authorization.origin}${authorization.pathname}`).toBe("https://oauth.vk.com/authorize")
    expect(authorization.searchParams.getAll("v")).toEqual(["5.126"])
    expect(authorization.searchParams.getAll("response_type")).toEqual(["code"])
    expect(authorization.searchParams.get("client_id")).toBe(CLIENT_ID)
    expect(authorization.searchParams.get("scope")).toBe("email")
    expect(authorization.searchParams.get("state")).toBeTruthy()
    const callbackUrl = `${result.returned.origin}/auth/callback/vk`
    expect(authorization.searchParams.get("redirect_uri")).toBe(callbackUrl)
    expect(result.returned.pathname).toBe("/auth/callback/vk")

    // Token request: POST to access_token?v=5.126, form body, client id and secret in the body.
    const [token, ...moreTokens] = local.at("/access_token")
    expect(moreTokens).toHaveLength(0)
    expect(token!.method).toBe("POST")
    expect(token!.query.getAll("v")).toEqual(["5.126"])
    expect(token!.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/)
    expect(token!.headers.authorization).toBeUndefined()
    const body = new URLSearchParams(token!.body)
    expect(Object.fromEntries(body)).toEqual({
      grant_type: "authorization_code",
      code: "vk-authorization-code",
      redirect_uri: callbackUrl,
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    })

    // users.get: the user lookup with fields=photo_100, v=5.126 and the access token.
    const [lookup, ...moreLookups] = local.at("/method/users.get")
    expect(moreLookups).toHaveLength(0)
    expect(lookup!.method).toBe("GET")
    expect(lookup!.query.getAll("v")).toEqual(["5.126"])
    expect(lookup!.query.getAll("fields")).toEqual(["photo_100"])
    expect(lookup!.query.get("access_token")).toBe(ACCESS_TOKEN)

    // Signed in, with the mapped profile (email from the token answer).
    expect(result.errors).toEqual([])
    expect(result.callback.status).toBe(302)
    expect(result.callback.location).toBe(`${result.returned.origin}/dashboard`)
    expect(result.session?.user).toEqual({ name: "Lindsey Stirling", email: "lindsey@example.com", image: USER.photo_100 })
  })

  test("a users.get error answer ends the sign-in with OAuthCallbackError", async () => {
    local.routes["/method/users.get"] = (_request, res) =>
      sendJson(res, { error: { error_code: 5, error_msg: "User authorization failed: invalid access_token (4).", request_params: [] } })
    const result = await signInThrough(defaultVk(), local.url)
    expect(result.callback.location).toBe(`${result.returned.origin}/auth/signin?error=OAuthCallbackError&callbackUrl=${encodeURIComponent(`${result.returned.origin}/dashboard`)}`)
    expect(result.session).toBeNull()
    expect(result.errors).toHaveLength(1)
    expect(result.errors[0]).toMatchObject({ type: "OAuthCallbackError", cause: { error_code: 5 } })
  })

  test("a token error answer ends the sign-in with OAuthCallbackError", async () => {
    local.routes["/access_token"] = (_request, res) => sendJson(res, { error: "invalid_grant", error_description: "Code is invalid or expired." }, 401)
    const result = await signInThrough(defaultVk(), local.url)
    expect(result.callback.location).toContain("/auth/signin?error=OAuthCallbackError")
    expect(result.session).toBeNull()
    expect(result.errors.map((error) => (error as { type?: string }).type)).toEqual(["OAuthCallbackError"])
    expect(local.at("/method/users.get")).toHaveLength(0)
  })
})

describe("VK with the app's URLs carrying another v", () => {
  function expectVersion(result: Awaited<ReturnType<typeof signInThrough>>, version: string) {
    expect(result.authorization.searchParams.getAll("v")).toEqual([version])
    expect(result.authorization.searchParams.getAll("response_type")).toEqual(["code"])
    expect(local.at("/access_token").map((entry) => entry.query.getAll("v"))).toEqual([[version]])
    expect(local.at("/method/users.get").map((entry) => [entry.query.getAll("v"), entry.query.getAll("fields")])).toEqual([[[version], ["photo_100"]]])
    expect(local.requests.every((entry) => !entry.query.getAll("v").includes("5.126"))).toBe(true)
    expect(result.session?.user?.name).toBe("Lindsey Stirling")
  }

  test("authorization, token and userinfo URLs with v=5.131 replace 5.126 everywhere", async () => {
    const provider = VK({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      authorization: `${local.url}/authorize?response_type=code&v=5.131`,
      token: `${local.url}/access_token?v=5.131`,
      userinfo: `${local.url}/method/users.get?fields=photo_100&v=5.131`,
    })
    const result = await signInThrough(provider, local.url)
    expect(`${result.authorization.origin}${result.authorization.pathname}`).toBe(`${local.url}/authorize`)
    expectVersion(result, "5.131")
  })

  test("the spec's names authorizationUrl, accessTokenUrl and profileUrl work the same way", async () => {
    const provider = VK({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      authorizationUrl: `${local.url}/authorize?response_type=code&v=5.199`,
      accessTokenUrl: `${local.url}/access_token?v=5.199`,
      profileUrl: `${local.url}/method/users.get?fields=photo_100&v=5.199`,
    })
    expect(provider).not.toHaveProperty("authorizationUrl")
    expect(provider).not.toHaveProperty("profileUrl")
    const result = await signInThrough(provider, local.url)
    expectVersion(result, "5.199")
  })

  test("requestTokenUrl stands for the token URL when accessTokenUrl is absent", () => {
    const provider = VK({ requestTokenUrl: "https://oauth.vk.com/access_token?v=5.131" })
    expect(endpoint(provider.token, undefined, true).url).toBe("https://oauth.vk.com/access_token?v=5.131")
  })

  test("URLs given without v get 5.126, and a profile URL without fields gets fields=photo_100", () => {
    const provider = VK({ token: "https://vk.example/access_token", userinfo: "https://api.vk.example/method/users.get" })
    expect(endpoint(provider.token, undefined, true).url).toBe("https://vk.example/access_token?v=5.126")
    const userinfo = new URL(endpoint(provider.userinfo, undefined, true).url!)
    expect(userinfo.searchParams.get("v")).toBe("5.126")
    expect(userinfo.searchParams.get("fields")).toBe("photo_100")
  })
})

describe("VkProfile (type level)", () => {
  test("has exactly the spec's fields, and its six required ones", () => {
    type Declared = KnownKeys<VkProfile>
    const fields: Record<Declared, true> = {
      id: true,
      first_name: true,
      last_name: true,
      is_closed: true,
      can_access_closed: true,
      photo_100: true,
      about: true,
      activities: true,
      bdate: true,
      books: true,
      deactivated: true,
      domain: true,
      email: true,
      games: true,
      home_town: true,
      interests: true,
      maiden_name: true,
      movies: true,
      music: true,
      nickname: true,
      photo_200: true,
      photo_200_orig: true,
      photo_400: true,
      photo_400_orig: true,
      photo_50: true,
      photo_id: true,
      photo_max: true,
      photo_max_orig: true,
      quotes: true,
      screen_name: true,
      site: true,
      status: true,
      tv: true,
      first_name_abl: true,
      first_name_acc: true,
      first_name_dat: true,
      first_name_gen: true,
      first_name_ins: true,
      first_name_nom: true,
      last_name_abl: true,
      last_name_acc: true,
      last_name_dat: true,
      last_name_gen: true,
      last_name_ins: true,
      last_name_nom: true,
      blacklisted: true,
      blacklisted_by_me: true,
      can_post: true,
      can_see_all_posts: true,
      can_see_audio: true,
      can_send_friend_request: true,
      can_write_private_message: true,
      has_mobile: true,
      has_photo: true,
      is_favorite: true,
      is_friend: true,
      is_hidden_from_feed: true,
      is_no_index: true,
      online: true,
      online_mobile: true,
      trending: true,
      verified: true,
      common_count: true,
      followers_count: true,
      online_app: true,
      timezone: true,
      friend_status: true,
      sex: true,
      relation: true,
      wall_default: true,
      city: true,
      country: true,
      career: true,
      connections: true,
      contacts: true,
      counters: true,
      crop_photo: true,
      education: true,
      exports: true,
      last_seen: true,
      military: true,
      occupation: true,
      personal: true,
      relation_partner: true,
      relatives: true,
      schools: true,
      status_audio: true,
      universities: true,
    }
    const required: Record<RequiredKeys<VkProfile>, true> = { id: true, first_name: true, last_name: true, is_closed: true, can_access_closed: true, photo_100: true }
    expect(Object.keys(fields)).toHaveLength(88)
    expect(Object.keys(required)).toHaveLength(6)
  })

  test("a fully typed sample", () => {
    const size = { height: 100, width: 100, url: "https://sun9-1.userapi.com/p.jpg", type: "m" }
    const full: Required<{ [K in KnownKeys<VkProfile>]: VkProfile[K] }> = {
      ...USER,
      about: "Violinist",
      activities: "Music",
      bdate: "21.9.1986",
      books: "",
      deactivated: "deleted",
      domain: "lindseystirling",
      email: "lindsey@example.com",
      games: "",
      home_town: "Santa Ana",
      interests: "dance",
      maiden_name: "",
      movies: "",
      music: "violin",
      nickname: "",
      photo_200: "https://sun9-1.userapi.com/200.jpg",
      photo_200_orig: "https://sun9-1.userapi.com/200o.jpg",
      photo_400: "https://sun9-1.userapi.com/400.jpg",
      photo_400_orig: "https://sun9-1.userapi.com/400o.jpg",
      photo_50: "https://sun9-1.userapi.com/50.jpg",
      photo_id: "210700286_457239017",
      photo_max: "https://sun9-1.userapi.com/max.jpg",
      photo_max_orig: "https://sun9-1.userapi.com/maxo.jpg",
      quotes: "",
      screen_name: "lindseystirling",
      site: "https://lindseystirling.com",
      status: "On tour",
      tv: "",
      first_name_abl: "Lindsey",
      first_name_acc: "Lindsey",
      first_name_dat: "Lindsey",
      first_name_gen: "Lindsey",
      first_name_ins: "Lindsey",
      first_name_nom: "Lindsey",
      last_name_abl: "Stirling",
      last_name_acc: "Stirling",
      last_name_dat: "Stirling",
      last_name_gen: "Stirling",
      last_name_ins: "Stirling",
      last_name_nom: "Stirling",
      blacklisted: 0,
      blacklisted_by_me: 0,
      can_post: 1,
      can_see_all_posts: 1,
      can_see_audio: 1,
      can_send_friend_request: 1,
      can_write_private_message: 1,
      has_mobile: 1,
      has_photo: 1,
      is_favorite: 0,
      is_friend: 0,
      is_hidden_from_feed: 0,
      is_no_index: 0,
      online: 1,
      online_mobile: 0,
      trending: 0,
      verified: 1,
      common_count: 0,
      followers_count: 120000,
      online_app: 2274003,
      timezone: -7,
      friend_status: 0,
      sex: 1,
      relation: 0,
      wall_default: "owner",
      city: { id: 1, title: "Moscow" },
      country: { id: 9, title: "USA" },
      career: { city_id: 1, city_name: "Moscow", company: "VK", country_id: 1, from: 2010, group_id: 1, position: "Engineer", until: 2014 },
      connections: { facebook: "lindsey", instagram: "lindseystirling", livejournal: "", skype: "", twitter: "LindseyStirling" },
      contacts: { home_phone: "", mobile_phone: "" },
      counters: {
        albums: 1,
        audios: 2,
        followers: 3,
        friends: 4,
        groups: 5,
        mutual_friends: 0,
        notes: 0,
        online_friends: 1,
        pages: 2,
        photos: 30,
        user_videos: 4,
        videos: 5,
      },
      crop_photo: {
        crop: { x: 0, x2: 100, y: 0, y2: 100 },
        rect: { x: 0, x2: 100, y: 0, y2: 100 },
        photo: { id: 457239017, album_id: -6, owner_id: 210700286, date: 1500000000, has_tags: false, images: [size], sizes: [{ ...size, src: size.url }], text: "" },
      },
      education: { faculty: 1, faculty_name: "Music", graduation: 2009, university: 2, university_name: "BYU" },
      exports: { facebook: 0, instagram: 1, livejournal: 0, twitter: 1 },
      last_seen: { platform: 7, time: 1700000000 },
      military: { country_id: 9, from: 2000, unit: "Band", unit_id: 3, until: 2001 },
      occupation: { id: 2, name: "BYU", type: "university" },
      personal: { alcohol: 1, inspired_by: "", langs: ["English"], life_main: 5, people_main: 2, political: 4, religion: "", smoking: 1 },
      relation_partner: { id: 1, first_name: "Pavel", last_name: "Durov", can_access_closed: true, deactivated: "", hidden: 0, is_closed: false },
      relatives: [{ id: 2, name: "Brooke", type: "sibling" }],
      schools: [
        { city: 1, class: "a", country: 9, id: "1", name: "Mesa High", speciality: "", type: 1, type_str: "School", year_from: 2000, year_graduated: 2004, year_to: 2004 },
      ],
      status_audio: { artist: "Lindsey Stirling", duration: 240, id: 1, owner_id: 2, title: "Crystallize", access_key: "k", album_id: 3, date: 1, genre_id: 4, performer: "LS", url: "https://vk.com/a.mp3" },
      universities: [
        {
          chair: 1,
          chair_name: "Strings",
          city: 1,
          country: 9,
          education_form: "Full-time",
          education_status: "Alumna",
          faculty: 2,
          faculty_name: "Music",
          graduation: 2009,
          id: 3,
          name: "BYU",
          university_group_id: 4,
        },
      ],
    }
    const profile: VkProfile = full
    expect(VK().profile!(profile, {})).toEqual({ id: USER.id, name: "Lindsey Stirling", email: "lindsey@example.com", image: USER.photo_100 })
  })
})
