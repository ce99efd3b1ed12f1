/**
 * Issue #24 (problem 10): a provider that keeps its refresh tokens (no rotation). The first
 * refresh's result was kept under that refresh token for two minutes, so when the refreshed access
 * token expired in its turn, `getAccessToken` handed back the same, expired token. Against a real
 * oidc-provider whose access tokens live 2 s and whose refresh tokens do not rotate: every expiry
 * gets a new access token from the provider, one the provider accepts.
 */
import { jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { request } from "../helpers/app.js"
import { client, cookieHeader, cookieJar, oauthSuite, oidc, signInFlow, startSite, type Site } from "../oauth/support.js"
import { countRefreshes, idpConfiguration, sleep, tokenRoute, ACCESS_TOKEN_TTL } from "./support.js"

oauthSuite()
jest.setTimeout(30_000)

async function site(config: Partial<AuthConfig> = {}): Promise<Site> {
  const made = await startSite({
    clients: (url) => [client(url)],
    configuration: idpConfiguration({ rotateRefreshToken: false }),
    providers: (idp) => [oidc(idp, { authorization: { params: { scope: "openid email profile offline_access", prompt: "consent" } } })],
    config: () => config,
  })
  tokenRoute(made.app, made.config)
  return made
}

const tokenOf = (response: { status: number; body: { token?: string; error?: string } }) => {
  expect(response.body.error).toBeUndefined()
  expect(response.status).toBe(200)
  return response.body.token as string
}

const acceptedByIdp = async (made: Site, token: string) => (await fetch(`${made.idp.issuer}/me`, { headers: { authorization: `Bearer ${token}` } })).status

/** Signs in, then lets the access token expire three times, asking for it after each expiry; returns the tokens handed out. */
async function threeExpiries(made: Site): Promise<string[]> {
  const agent = made.agent()
  const { callback } = await signInFlow(made, agent)
  expect(callback.status).toBe(302)
  let cookie = cookieHeader(cookieJar(callback))
  const handed: string[] = [tokenOf(await request(made.url).get("/token?skew=0").set("Cookie", cookie))]
  for (let round = 0; round < 3; round++) {
    await sleep(ACCESS_TOKEN_TTL * 1000 + 1100)
    const answer = await request(made.url).get("/token?skew=0").set("Cookie", cookie)
    const token = tokenOf(answer)
    // A token the provider accepts (the expired one handed back before the fix was the previous one: counted below).
    expect(await acceptedByIdp(made, token)).toBe(200)
    handed.push(token)
    // The browser keeps the cookie the answer set (cookie sessions carry the new tokens).
    const jar = cookieJar(answer)
    if (jar.size) cookie = cookieHeader(new Map([...cookieJar(callback), ...jar]))
  }
  return handed
}

describe("getAccessToken with a provider that does not rotate refresh tokens", () => {
  test("cookie session: each expiry gets a new access token, never the previous, expired one", async () => {
    const made = await site()
    const refreshes = countRefreshes(made)
    const handed = await threeExpiries(made)
    expect(new Set(handed).size).toBe(4)
    expect(refreshes).toEqual({ count: 3, refused: 0 })
  })

  test("account row (adapter): each expiry gets a new access token, and the row holds it", async () => {
    const adapter = MemoryAdapter()
    const made = await site({ adapter })
    const refreshes = countRefreshes(made)
    const handed = await threeExpiries(made)
    expect(new Set(handed).size).toBe(4)
    expect(refreshes).toEqual({ count: 3, refused: 0 })
    expect([...adapter.store.accounts.values()][0]?.access_token).toBe(handed[3])
  })
})
