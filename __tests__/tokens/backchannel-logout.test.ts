/**
 * Issue #17, back-channel logout: the user signs out at the real oidc-provider, which posts a
 * logout token to `POST /auth/backchannel-logout/idp`; the session ends on both app instances
 * sharing Redis (pub/sub). Forged, expired, replayed, wrong-audience, nonce-bearing and event-less
 * logout tokens are refused with 400 and end nothing.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { jest } from "@jest/globals"
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type CryptoKey } from "jose"
import { createClient } from "redis"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { decode } from "../../lib/jwt/index.js"
import { RedisStore } from "../../lib/shared-store/redis.js"
import { makeApp, request, reserve, testConfig, SECRET } from "../helpers/app.js"
import { authorizationUrl, client, cookieHeader, cookieJar, CLIENT_ID, local, oauthSuite, oidc, startSignIn, startSite, type Site } from "../oauth/support.js"
import { idpBrowser, idpConfiguration } from "./support.js"

oauthSuite()
jest.setTimeout(30_000)

const REDIS_URL = process.env.GATEHOUSE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379"
const EVENT = "http://schemas.openid.net/event/backchannel-logout"

let idpKey: CryptoKey
let jwk: Record<string, unknown>
let redisClients: ReturnType<typeof createClient>[] = []
let prefix: string
let made: Site
let second: Awaited<ReturnType<typeof reserve>>

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true })
  idpKey = pair.privateKey
  jwk = { ...(await exportJWK(pair.privateKey)), alg: "RS256", use: "sig", kid: "bcl-key" }
})

beforeEach(async () => {
  prefix = `gh-bcl-${randomBytes(4).toString("hex")}:`
  redisClients = Array.from({ length: 4 }, () => createClient({ url: REDIS_URL }))
  await Promise.all(redisClients.map((redis) => redis.connect()))
  const [a, aSub, b, bSub] = redisClients as [ReturnType<typeof createClient>, ReturnType<typeof createClient>, ReturnType<typeof createClient>, ReturnType<typeof createClient>]
  made = await startSite({
    configuration: idpConfiguration({ jwks: { keys: [jwk as never] } }),
    clients: (url) => [client(url, { backchannel_logout_uri: `${url}/auth/backchannel-logout/idp`, backchannel_logout_session_required: true, post_logout_redirect_uris: [`${url}/`] })],
    config: () => ({ store: RedisStore({ client: a as never, subscriber: aSub as never, prefix }) }),
  })
  second = await reserve()
  const configB = testConfig({ providers: [oidc(made.idp)], store: RedisStore({ client: b as never, subscriber: bSub as never, prefix }) })
  second.attach(makeApp(configB))
})

afterEach(async () => {
  await second.close()
  const keys = await redisClients[0]!.keys(`${prefix}*`)
  if (keys.length) await redisClients[0]!.del(keys)
  await Promise.all(redisClients.map((redis) => redis.quit()))
})

/** Signs in through the IdP with a browser that keeps its IdP cookies; returns the app cookie, the browser and the provider's sid. */
async function signInKeepingIdpSession() {
  const agent = made.agent()
  const browser = idpBrowser(made.idp.issuer)
  made.idp.nextLogin = "alice"
  const back = await browser.follow(authorizationUrl(await startSignIn(agent)).href)
  expect(back).toBeInstanceOf(URL)
  const callback = await agent.get(local(back as URL))
  expect(callback.status).toBe(302)
  const cookie = cookieHeader(cookieJar(callback))
  const value = /authjs\.session-token=([^;]+)/.exec(cookie)?.[1] as string
  const token = await decode({ token: value, secret: SECRET, salt: "authjs.session-token" })
  const idToken = (token?.providerTokens as Record<string, { id_token: string }>).idp.id_token
  const claims = decodeJwt(idToken)
  expect(typeof claims.sid).toBe("string")
  return { cookie, browser, sid: claims.sid as string, sub: claims.sub as string, idToken }
}

const userOn = async (url: string, cookie: string) => (await request(url).get("/auth/session").set("Cookie", cookie)).body?.user?.email ?? null

async function logoutToken(claims: Record<string, unknown>, key: CryptoKey = idpKey, kid = "bcl-key") {
  const now = Math.floor(Date.now() / 1000)
  const { iat = now, ...rest } = claims
  return new SignJWT({ events: { [EVENT]: {} }, jti: randomUUID(), ...rest })
    .setProtectedHeader({ alg: "RS256", kid, typ: "logout+jwt" })
    .setIssuer(made.idp.issuer)
    .setAudience(CLIENT_ID)
    .setIssuedAt(iat as number)
    .setExpirationTime((iat as number) + 120)
    .sign(key)
}

const post = (token: string) => request(made.url).post("/auth/backchannel-logout/idp").type("form").send({ logout_token: token })

test("signing out at the provider revokes the session on both instances", async () => {
  const { cookie, browser, idToken } = await signInKeepingIdpSession()
  expect(await userOn(made.url, cookie)).toBe("alice@example.com")
  expect(await userOn(second.url, cookie)).toBe("alice@example.com")
  const delivered: string[] = []
  made.idp.provider.on("backchannel.success", (_client: unknown, _accountId: unknown, sid: string) => delivered.push(sid))
  made.idp.provider.on("backchannel.error", (_ctx: unknown, error: Error) => delivered.push(`error: ${error.message}`))
  const page = await browser.follow(`${made.idp.issuer}/session/end?${new URLSearchParams({ id_token_hint: idToken, client_id: CLIENT_ID })}`)
  expect(page).toBeInstanceOf(Response)
  await browser.confirmLogout(page as Response)
  // The provider delivered its logout token to the app, which answered 200.
  expect(delivered).toHaveLength(1)
  expect(delivered[0]).not.toMatch(/^error/)
  expect(await userOn(made.url, cookie)).toBeNull()
  expect(await userOn(second.url, cookie)).toBeNull()
})

test("a valid logout token by sid answers 200 and ends only that provider session's app session; by sub it ends the user's", async () => {
  const one = await signInKeepingIdpSession()
  const other = await signInKeepingIdpSession()
  const bySid = await post(await logoutToken({ sid: one.sid }))
  expect(bySid.status).toBe(200)
  expect(bySid.headers["cache-control"]).toContain("no-store")
  expect(await userOn(second.url, one.cookie)).toBeNull()
  expect(await userOn(second.url, other.cookie)).toBe("alice@example.com")
  expect((await post(await logoutToken({ sub: other.sub }))).status).toBe(200)
  expect(await userOn(made.url, other.cookie)).toBeNull()
  expect(await userOn(second.url, other.cookie)).toBeNull()
})

describe("refused logout tokens: 400, nothing revoked", () => {
  const cases: Array<[string, (sid: string) => Promise<string>]> = [
    ["forged (signed by another key)", async (sid) => logoutToken({ sid }, (await generateKeyPair("RS256")).privateKey)],
    ["expired", (sid) => logoutToken({ sid, iat: Math.floor(Date.now() / 1000) - 3600 })],
    ["for another audience", async (sid) => new SignJWT({ events: { [EVENT]: {} }, jti: randomUUID(), sid }).setProtectedHeader({ alg: "RS256", kid: "bcl-key" }).setIssuer(made.idp.issuer).setAudience("someone-else").setIssuedAt().sign(idpKey)],
    ["from another issuer", async (sid) => new SignJWT({ events: { [EVENT]: {} }, jti: randomUUID(), sid }).setProtectedHeader({ alg: "RS256", kid: "bcl-key" }).setIssuer("https://evil.example").setAudience(CLIENT_ID).setIssuedAt().sign(idpKey)],
    ["bearing a nonce", (sid) => logoutToken({ sid, nonce: "n-0S6_WzA2Mj" })],
    ["without the logout event", (sid) => logoutToken({ sid, events: { "http://example.com/other": {} } })],
    ["naming neither sid nor sub", () => logoutToken({})],
    ["unsigned (alg none)", async (sid) => `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify({ iss: made.idp.issuer, aud: CLIENT_ID, iat: Math.floor(Date.now() / 1000), jti: randomUUID(), sid, events: { [EVENT]: {} } })).toString("base64url")}.`],
  ]
  test.each(cases)("%s", async (_name, make) => {
    const { cookie, sid } = await signInKeepingIdpSession()
    const refused = await post(await make(sid))
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe("invalid_request")
    expect(await userOn(made.url, cookie)).toBe("alice@example.com")
    expect(await userOn(second.url, cookie)).toBe("alice@example.com")
  })

  test("replayed: the same token a second time (to either instance) is refused", async () => {
    const { sid } = await signInKeepingIdpSession()
    const token = await logoutToken({ sid })
    expect((await post(token)).status).toBe(200)
    // A new session from the same provider session: the replay must not end it.
    const again = await signInKeepingIdpSession()
    const replayed = await request(second.url).post("/auth/backchannel-logout/idp").type("form").send({ logout_token: token })
    expect(replayed.status).toBe(400)
    expect((await post(token)).status).toBe(400)
    expect(await userOn(made.url, again.cookie)).toBe("alice@example.com")
  })

  test("no logout_token at all", async () => {
    expect((await request(made.url).post("/auth/backchannel-logout/idp").type("form").send({})).status).toBe(400)
  })
})

test("database sessions: a logout token for the provider session deletes that session only", async () => {
  const adapter = MemoryAdapter()
  const db = await startSite({
    configuration: idpConfiguration({ jwks: { keys: [jwk as never] } }),
    clients: (url) => [client(url, { backchannel_logout_uri: `${url}/auth/backchannel-logout/idp`, backchannel_logout_session_required: true })],
    config: () => ({ adapter, session: { strategy: "database" } }),
  })
  const signIn = async () => {
    const agent = db.agent()
    const browser = idpBrowser(db.idp.issuer)
    const back = await browser.follow(authorizationUrl(await startSignIn(agent)).href)
    expect((await agent.get(local(back as URL))).status).toBe(302)
    const [account] = [...adapter.store.accounts.values()]
    return { agent, browser, sid: decodeJwt(account?.id_token as string).sid as string }
  }
  const one = await signIn()
  const other = await signIn()
  expect(adapter.store.sessions.size).toBe(2)
  // The provider's own logout for the second browser's provider session.
  const page = await other.browser.follow(`${db.idp.issuer}/session/end?client_id=${CLIENT_ID}`)
  await other.browser.confirmLogout(page as Response)
  expect((await other.agent.get("/auth/session")).body).toBeNull()
  expect((await one.agent.get("/auth/session")).body?.user?.email).toBe("alice@example.com")
  expect(adapter.store.sessions.size).toBe(1)
})
