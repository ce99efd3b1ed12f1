/**
 * Provider-specific code paths, unit by unit: GitHub's profile request (the primary verified
 * email when the profile shows none), Reddit's User-Agent, Twitch's token answer normalisation,
 * the token-request rewriting fetch, Discord's avatars and Apple's client secret JWT.
 */
import { generateKeyPairSync } from "node:crypto"
import { jwtVerify, decodeProtectedHeader } from "jose"
import { customFetch } from "../../lib/core/symbols.js"
import type { UserinfoContext } from "../../lib/providers/types.js"
import Apple, { APPLE_CLIENT_SECRET_MAX_AGE, appleClientSecret } from "../../lib/providers/apple.js"
import { discordAvatar } from "../../lib/providers/discord.js"
import GitHub, { primaryVerifiedEmail } from "../../lib/providers/github.js"
import Reddit from "../../lib/providers/reddit.js"
import Twitch from "../../lib/providers/twitch.js"
import { tokenFetch } from "../../lib/providers/catalog/fetch.js"
import { asProvider, type CatalogProvider } from "./support.js"

type Call = { url: string; headers: Record<string, string> }

/** A fetch answering JSON by URL and recording the calls. */
function jsonFetch(answers: Record<string, { status?: number; body: unknown }>): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = []
  const fetchImpl = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = String(input)
    calls.push({ url, headers: Object.fromEntries(new Headers(init?.headers).entries()) })
    const answer = answers[url]
    return answer ? Response.json(answer.body, { status: answer.status ?? 200 }) : new Response("not found", { status: 404 })
  }) as typeof fetch
  return { fetch: fetchImpl, calls }
}

function userinfoRequest(provider: CatalogProvider): (context: UserinfoContext) => unknown {
  const userinfo = provider.userinfo as { request: (context: UserinfoContext) => unknown }
  return userinfo.request
}

describe("GitHub profile request", () => {
  const profile = { login: "octocat", id: 1, name: "The Octocat", avatar_url: "https://avatars.githubusercontent.com/u/1", email: null }
  const emails = [
    { email: "old@example.com", primary: false, verified: true, visibility: null },
    { email: "unverified@example.com", primary: true, verified: false, visibility: "private" },
  ]

  test("a public email: one request to /user, with the API headers", async () => {
    const provider = GitHub({ clientId: "c" })
    const { fetch, calls } = jsonFetch({ "https://api.github.com/user": { body: { ...profile, email: "octo@example.com" } } })
    const result = await userinfoRequest(provider)({ tokens: { access_token: "gho_token" }, provider: asProvider(provider), fetch })
    expect(result).toMatchObject({ email: "octo@example.com" })
    expect(calls.map((call) => call.url)).toEqual(["https://api.github.com/user"])
    expect(calls[0]!.headers).toMatchObject({ authorization: "Bearer gho_token", accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" })
    expect(calls[0]!.headers["user-agent"]).toBeTruthy()
  })

  test("no public email: the primary verified address from /user/emails", async () => {
    const provider = GitHub({ clientId: "c" })
    const list = [...emails, { email: "octo@users.example.com", primary: true, verified: true, visibility: "private" }]
    const { fetch, calls } = jsonFetch({ "https://api.github.com/user": { body: profile }, "https://api.github.com/user/emails": { body: list } })
    const result = await userinfoRequest(provider)({ tokens: { access_token: "gho_token" }, provider: asProvider(provider), fetch })
    expect(result).toMatchObject({ id: 1, email: "octo@users.example.com" })
    expect(calls.map((call) => call.url)).toEqual(["https://api.github.com/user", "https://api.github.com/user/emails"])
    expect(calls[1]!.headers.authorization).toBe("Bearer gho_token")
  })

  test("no primary verified address, or no access to the list: email null", async () => {
    const provider = GitHub({ clientId: "c" })
    for (const answer of [{ body: emails }, { status: 403, body: { message: "Resource not accessible by integration" } }]) {
      const { fetch } = jsonFetch({ "https://api.github.com/user": { body: profile }, "https://api.github.com/user/emails": answer })
      const result = await userinfoRequest(provider)({ tokens: { access_token: "gho_token" }, provider: asProvider(provider), fetch })
      expect(result).toMatchObject({ email: null })
    }
    expect(primaryVerifiedEmail({ not: "a list" })).toBeNull()
  })

  test("GitHub Enterprise Server: the emails list is read next to the configured userinfo URL", async () => {
    const provider = GitHub({ clientId: "c", userinfo: "https://ghe.example.com/api/v3/user" })
    const { fetch, calls } = jsonFetch({
      "https://ghe.example.com/api/v3/user": { body: profile },
      "https://ghe.example.com/api/v3/user/emails": { body: [{ email: "me@ghe.example.com", primary: true, verified: true, visibility: null }] },
    })
    const result = await userinfoRequest(provider)({ tokens: { access_token: "t" }, provider: asProvider(provider), fetch })
    expect(result).toMatchObject({ email: "me@ghe.example.com" })
    expect(calls.map((call) => call.url)).toEqual(["https://ghe.example.com/api/v3/user", "https://ghe.example.com/api/v3/user/emails"])
  })

  test("a failed /user request is an OAuthCallbackError", async () => {
    const provider = GitHub({ clientId: "c" })
    const { fetch } = jsonFetch({ "https://api.github.com/user": { status: 401, body: { message: "Bad credentials" } } })
    await expect(Promise.resolve(userinfoRequest(provider)({ tokens: { access_token: "t" }, provider: asProvider(provider), fetch }))).rejects.toMatchObject({ type: "OAuthCallbackError" })
  })
})

test("Reddit: the profile request sends a descriptive User-Agent and the bearer token", async () => {
  const provider = Reddit({ clientId: "reddit-client" })
  const { fetch, calls } = jsonFetch({ "https://oauth.reddit.com/api/v1/me": { body: { id: "1w72", name: "spez", icon_img: "" } } })
  await userinfoRequest(provider)({ tokens: { access_token: "reddit-token" }, provider: asProvider(provider), fetch })
  expect(calls[0]!.headers).toMatchObject({ authorization: "Bearer reddit-token", "user-agent": "web:reddit-client:1.0 (gatehouse)" })
})

describe("token request rewriting", () => {
  const answer = (body: unknown) => Response.json(body)

  test("Twitch: a scope list in the token answer becomes a space-separated string; other requests pass through", async () => {
    const seen: string[] = []
    const underlying = (async (input: Parameters<typeof fetch>[0]) => {
      seen.push(String(input))
      return String(input).endsWith("/token")
        ? answer({ access_token: "a", token_type: "bearer", scope: ["openid", "user:read:email"], id_token: "x.y.z" })
        : answer({ issuer: "https://id.twitch.tv/oauth2" })
    }) as typeof fetch
    const provider = Twitch({ [customFetch]: underlying })
    const twitchFetch = provider[customFetch]!
    const token = await twitchFetch("https://id.twitch.tv/oauth2/token", { method: "POST", body: new URLSearchParams({ grant_type: "authorization_code", code: "c" }) })
    expect(await token.json()).toEqual({ access_token: "a", token_type: "bearer", scope: "openid user:read:email", id_token: "x.y.z" })
    const discovery = await twitchFetch("https://id.twitch.tv/oauth2/.well-known/openid-configuration", { method: "GET" })
    expect(await discovery.json()).toEqual({ issuer: "https://id.twitch.tv/oauth2" })
    expect(seen).toHaveLength(2)
  })

  test("only form POSTs with grant_type are rewritten; answers that are not JSON pass through", async () => {
    const bodies: string[] = []
    const underlying = (async (_input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      bodies.push(String(init?.body ?? ""))
      return new Response("plain text", { headers: { "content-type": "text/plain" } })
    }) as typeof fetch
    const rewriting = tokenFetch(underlying, { body: (body) => body.set("added", "1"), answer: () => ({ json: { changed: true } }) })
    await rewriting("https://example.com/other", { method: "POST", body: new URLSearchParams({ a: "b" }) })
    const token = await rewriting("https://example.com/token", { method: "POST", body: "grant_type=authorization_code&code=c" })
    expect(bodies).toEqual(["a=b", "grant_type=authorization_code&code=c&added=1"])
    expect(await token.text()).toBe("plain text")
  })
})

test("Discord: animated avatars are GIFs; new-style accounts get the default avatar from their id", () => {
  expect(discordAvatar({ id: "80351110224678912", avatar: "a_1269e74af4df7417b13759eae50c83dc", discriminator: "0" })).toBe(
    "https://cdn.discordapp.com/avatars/80351110224678912/a_1269e74af4df7417b13759eae50c83dc.gif",
  )
  // (80351110224678912 >> 22) % 6 = 19157197529 % 6 = 5
  expect(discordAvatar({ id: "80351110224678912", avatar: null, discriminator: "0" })).toBe("https://cdn.discordapp.com/embed/avatars/5.png")
})

describe("Apple client secret", () => {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
  const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString()

  test("an ES256 JWT with the team id, Services ID, key id and Apple's audience, valid for six months by default", async () => {
    const now = Math.floor(Date.now() / 1000)
    const secret = appleClientSecret({ teamId: "TEAM123456", clientId: "com.example.web", keyId: "KEY1234567", privateKey: pem, now })
    expect(decodeProtectedHeader(secret)).toEqual({ alg: "ES256", kid: "KEY1234567", typ: "JWT" })
    const { payload } = await jwtVerify(secret, publicKey, { algorithms: ["ES256"], issuer: "TEAM123456", audience: "https://appleid.apple.com", subject: "com.example.web" })
    expect(payload.iat).toBe(now)
    expect(payload.exp).toBe(now + APPLE_CLIENT_SECRET_MAX_AGE)
  })

  test("refuses a lifetime over six months and keys that are not P-256", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey
    expect(() => appleClientSecret({ teamId: "T", clientId: "c", keyId: "k", privateKey: pem, expiresIn: APPLE_CLIENT_SECRET_MAX_AGE + 1 })).toThrow(RangeError)
    expect(() => appleClientSecret({ teamId: "T", clientId: "c", keyId: "k", privateKey: rsa })).toThrow(TypeError)
  })

  test("the generated secret is used like any client secret", () => {
    const clientSecret = appleClientSecret({ teamId: "T", clientId: "com.example.web", keyId: "k", privateKey })
    expect(Apple({ clientId: "com.example.web", clientSecret }).clientSecret).toBe(clientSecret)
  })
})
