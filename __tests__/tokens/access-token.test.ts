/**
 * Issue #17, fresh access tokens: `getAccessToken` against a real oidc-provider whose access
 * tokens live 2 s and whose refresh tokens rotate (a refresh token sent twice is refused and ends
 * the grant), so a second refresh request would show as a refused grant.
 */
import { randomBytes } from "node:crypto"
import { jest } from "@jest/globals"
import { createClient } from "redis"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { customFetch } from "../../lib/core/symbols.js"
import { decode } from "../../lib/jwt/index.js"
import { RedisStore } from "../../lib/shared-store/redis.js"
import { DOUBT_TTL_SECONDS } from "../../lib/tokens/single-flight.js"
import type { AuthConfig } from "../../lib/types.js"
import { makeApp, request, reserve, testConfig } from "../helpers/app.js"
import { client, cookieHeader, cookieJar, oauthSuite, oidc, signInFlow, startSite, type Site } from "../oauth/support.js"
import { countRefreshes, idpConfiguration, sleep, tokenRoute, ACCESS_TOKEN_TTL } from "./support.js"

oauthSuite()
jest.setTimeout(30_000)

const REDIS_URL = process.env.GATEHOUSE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379"

/**
 * Tokens from the sign-in live ACCESS_TOKEN_TTL (2 s), so a test can wait for them to expire; those
 * a refresh gives live a minute: a burst of 50 calls on a loaded machine can take longer than 2 s,
 * and must not see the fresh token expire in its turn (a second, legitimate refresh).
 */
function accessTokenTtl(ctx: { oidc?: { params?: { grant_type?: unknown } } } | undefined): number {
  return ctx?.oidc?.params?.grant_type === "refresh_token" ? 60 : ACCESS_TOKEN_TTL
}

async function site(config: (site: { issuer: string }) => Partial<AuthConfig> = () => ({}), provider: Parameters<typeof oidc>[1] = {}): Promise<Site> {
  const made = await startSite({
    clients: (url) => [client(url)],
    configuration: idpConfiguration({ ttl: { ...idpConfiguration().ttl, AccessToken: accessTokenTtl } }),
    providers: (idp) => [oidc(idp, { authorization: { params: { scope: "openid email profile offline_access", prompt: "consent" } }, ...provider })],
    config: (idp) => config(idp),
  })
  tokenRoute(made.app, made.config)
  return made
}

async function signedIn(made: Site) {
  const agent = made.agent()
  const { callback } = await signInFlow(made, agent)
  expect(callback.status).toBe(302)
  return { agent, cookie: cookieHeader(cookieJar(callback)) }
}

const tokenOf = (response: { status: number; body: { token?: string; error?: string } }) => {
  expect(response.body.error).toBeUndefined()
  expect(response.status).toBe(200)
  return response.body.token as string
}

describe("getAccessToken: cookie session (no adapter)", () => {
  test("50 concurrent calls after expiry make one refresh request; all get the new token, which the IdP accepts", async () => {
    const made = await site()
    const refreshes = countRefreshes(made)
    const { cookie } = await signedIn(made)
    const first = tokenOf(await request(made.url).get("/token?skew=0").set("Cookie", cookie))
    expect(refreshes.count).toBe(0)
    await sleep(ACCESS_TOKEN_TTL * 1000 + 1100)
    const answers = await Promise.all(Array.from({ length: 50 }, () => request(made.url).get("/token?skew=0").set("Cookie", cookie)))
    const tokens = new Set(answers.map(tokenOf))
    expect(refreshes).toEqual({ count: 1, refused: 0 })
    expect(tokens.size).toBe(1)
    const [fresh] = [...tokens] as [string]
    expect(fresh).not.toBe(first)
    const userinfo = await fetch(`${made.idp.issuer}/me`, { headers: { authorization: `Bearer ${fresh}` } })
    expect(userinfo.status).toBe(200)
    // The new tokens are in the session cookie every response set.
    const updated = cookieJar(answers[49] as never).get("authjs.session-token") as string
    const claims = await decode({ token: updated, secret: made.config.secret as string, salt: "authjs.session-token" })
    expect((claims?.providerTokens as Record<string, { access_token: string }>).idp.access_token).toBe(fresh)
    // A late request with the old cookie gets the new tokens too: the spent refresh token is never sent again.
    expect(tokenOf(await request(made.url).get("/token?skew=0").set("Cookie", cookie))).toBe(fresh)
    expect(refreshes).toEqual({ count: 1, refused: 0 })
  })

  test("two app instances sharing Redis: 50 concurrent calls split between them make one refresh request", async () => {
    const prefix = `gh-tokens-${randomBytes(4).toString("hex")}:`
    const clients = [createClient({ url: REDIS_URL }), createClient({ url: REDIS_URL })]
    await Promise.all(clients.map((redis) => redis.connect()))
    try {
      const made = await site(() => ({ store: RedisStore({ client: clients[0] as never, prefix }) }))
      const refreshes = countRefreshes(made)
      // Instance B: its own configuration object (its own caches and single flight), its own Redis connection.
      const second = await reserve()
      const configB = testConfig({ providers: [oidc(made.idp, { authorization: { params: { scope: "openid email profile offline_access" } } })], store: RedisStore({ client: clients[1] as never, prefix }) })
      const appB = makeApp(configB)
      tokenRoute(appB, configB)
      second.attach(appB)
      try {
        const { cookie } = await signedIn(made)
        await sleep(ACCESS_TOKEN_TTL * 1000 + 1100)
        const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => request(i % 2 ? second.url : made.url).get("/token?skew=0").set("Cookie", cookie)))
        expect(new Set(answers.map(tokenOf)).size).toBe(1)
        expect(refreshes).toEqual({ count: 1, refused: 0 })
      } finally {
        await second.close()
      }
    } finally {
      const keys = await clients[0]!.keys(`${prefix}*`)
      if (keys.length) await clients[0]!.del(keys)
      await Promise.all(clients.map((redis) => redis.quit()))
    }
  })

  test("a revoked refresh token ends in RefreshTokenError; the session then says error: RefreshTokenError and the callbacks see it", async () => {
    const seen: unknown[] = []
    const made = await site(() => ({
      callbacks: {
        jwt: ({ token }) => token,
        session: ({ session, token }) => {
          seen.push(token?.error)
          return session
        },
      },
    }))
    const refreshes = countRefreshes(made)
    const { cookie } = await signedIn(made)
    // The refresh token, revoked at the IdP (RFC 7009) as an administrator or the user would.
    const home = (await import("../../lib/jwt/index.js")).decode
    const sessionValue = /authjs\.session-token=([^;]+)/.exec(cookie)?.[1] as string
    const token = await home({ token: sessionValue, secret: made.config.secret as string, salt: "authjs.session-token" })
    const refreshToken = (token?.providerTokens as Record<string, { refresh_token: string }>).idp.refresh_token
    const revoked = await fetch(`${made.idp.issuer}/token/revocation`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("gatehouse-client:client-secret-3f1e9a7b5c2d4e6f8a0b1c2d3e4f5a6b").toString("base64")}` },
      body: new URLSearchParams({ token: refreshToken, token_type_hint: "refresh_token" }),
    })
    expect(revoked.status).toBe(200)
    const refused = await request(made.url).get("/token?skew=3600").set("Cookie", cookie)
    expect(refused.status).toBe(409)
    expect(refused.body.error).toBe("RefreshTokenError")
    expect(refreshes).toEqual({ count: 1, refused: 1 })
    const marked = cookieHeader(cookieJar(refused))
    const session = await request(made.url).get("/auth/session").set("Cookie", marked)
    expect(session.body.error).toBe("RefreshTokenError")
    expect(session.body.user.email).toBe("alice@example.com")
    expect(seen).toContain("RefreshTokenError")
    // Again: refused without asking the IdP (no refresh token left).
    expect((await request(made.url).get("/token?skew=3600").set("Cookie", marked)).body.error).toBe("RefreshTokenError")
    expect(refreshes.count).toBe(1)
  })
})

describe("getAccessToken: account row (adapter)", () => {
  test("50 concurrent calls refresh once and the account row holds the new tokens", async () => {
    const adapter = MemoryAdapter()
    const made = await site(() => ({ adapter }))
    const refreshes = countRefreshes(made)
    const { cookie } = await signedIn(made)
    const [account] = [...adapter.store.accounts.values()]
    await sleep(ACCESS_TOKEN_TTL * 1000 + 1100)
    const answers = await Promise.all(Array.from({ length: 50 }, () => request(made.url).get("/token?skew=0").set("Cookie", cookie)))
    const tokens = new Set(answers.map(tokenOf))
    expect(tokens.size).toBe(1)
    expect(refreshes).toEqual({ count: 1, refused: 0 })
    const stored = [...adapter.store.accounts.values()][0]
    expect(stored?.access_token).toBe([...tokens][0])
    expect(stored?.refresh_token).not.toBe(account?.refresh_token)
    expect(stored?.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000))
  })

  test("an app's own fetch: a refused connection (Node's fetch, ECONNREFUSED) is retried once, a failure that may follow the send is not; the refresh token is kept", async () => {
    const closed = await reserve()
    const nowhere = `${closed.url}/token`
    await closed.close()
    const plan: Array<"refused" | "reset"> = []
    let sent = 0
    const failing: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      if (url.endsWith("/token") && String(init?.body ?? "").includes("refresh_token")) {
        const next = plan.shift()
        // A real refused connection: nothing is listening on that port any more.
        if (next === "refused") return fetch(nowhere, init)
        sent++
        if (next === "reset") throw new TypeError("fetch failed: other side closed")
      }
      return fetch(input, init)
    }
    const adapter = MemoryAdapter()
    const made = await site(() => ({ adapter }), { [customFetch]: failing })
    const refreshes = countRefreshes(made)
    const { cookie } = await signedIn(made)
    const stored = [...adapter.store.accounts.values()][0]?.refresh_token
    plan.push("refused", "refused")
    expect((await request(made.url).get("/token?skew=3600").set("Cookie", cookie)).body.error).toBe("TokenRefreshFailed")
    expect([sent, refreshes.count]).toEqual([0, 0])
    plan.push("reset")
    expect((await request(made.url).get("/token?skew=3600").set("Cookie", cookie)).body.error).toBe("TokenRefreshFailed")
    expect(sent).toBe(1)
    expect([...adapter.store.accounts.values()][0]?.refresh_token).toBe(stored)
    await sleep(DOUBT_TTL_SECONDS * 1000)
    plan.push("refused")
    tokenOf(await request(made.url).get("/token?skew=3600").set("Cookie", cookie))
    expect(sent).toBe(2)
    expect(refreshes).toEqual({ count: 1, refused: 0 })
  })

  test("a 5xx or a timeout at the token endpoint is not retried (the request reached the provider): TokenRefreshFailed after one request", async () => {
    const trouble: Array<"hang" | "503"> = []
    let sent = 0
    const flaky: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      if (url.endsWith("/token") && String(init?.body ?? "").includes("refresh_token")) {
        sent++
        const next = trouble.shift()
        // A provider that never answers (as fetch does, the call ends when its signal aborts).
        if (next === "hang") {
          return new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason ?? new Error("aborted"))))
        }
        if (next === "503") return new Response(JSON.stringify({ error: "temporarily_unavailable" }), { status: 503, headers: { "content-type": "application/json" } })
      }
      return fetch(input, init)
    }
    const adapter = MemoryAdapter()
    const made = await site(() => ({ adapter }), { [customFetch]: flaky, outbound: { timeout: 400 } })
    const { cookie } = await signedIn(made)
    trouble.push("503")
    expect((await request(made.url).get("/token?skew=3600").set("Cookie", cookie)).body.error).toBe("TokenRefreshFailed")
    expect(sent).toBe(1)
    trouble.push("hang")
    await sleep(DOUBT_TTL_SECONDS * 1000)
    expect((await request(made.url).get("/token?skew=3600").set("Cookie", cookie)).body.error).toBe("TokenRefreshFailed")
    expect(sent).toBe(2)
  })

  test("signed out: SessionRequired; an unknown provider: InvalidProvider", async () => {
    const made = await site(() => ({ adapter: MemoryAdapter() }))
    expect((await request(made.url).get("/token")).body.error).toBe("SessionRequired")
    const { cookie } = await signedIn(made)
    made.app.get("/token-of-nobody", (req, res) => {
      import("../../lib/index.js").then(({ getAccessToken }) =>
        getAccessToken(req, made.config, "nope").catch((error: { type: string }) => res.status(409).json({ error: error.type })),
      )
    })
    expect((await request(made.url).get("/token-of-nobody").set("Cookie", cookie)).body.error).toBe("InvalidProvider")
  })
})
