/**
 * The full OpenID Connect authorization code flow against a real OpenID provider: PKCE, state and
 * nonce in the authorization request and in their own sealed 15-minute cookies, the callback that
 * clears them, and the session it starts with each store (MemoryAdapter with database or cookie
 * sessions, and no adapter), plus every token field the account keeps.
 */
import { createHash } from "node:crypto"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { findCookie, isCleared } from "../helpers/app.js"
import {
  CHECK_COOKIES,
  CLIENT_ID,
  SESSION_COOKIE,
  authorizationUrl,
  cookieValue,
  jwtPayload,
  oauthSuite,
  oidc,
  openCheck,
  sessionClaims,
  sessionOf,
  signInFlow,
  startSignIn,
  startSite,
} from "./support.js"

oauthSuite()

const ALL_CHECKS = { providers: (idp: Parameters<typeof oidc>[0]) => [oidc(idp, { checks: ["pkce", "state", "nonce"] })] }

describe("the authorization request", () => {
  test("carries the client, the redirect_uri, the OIDC scope and S256 PKCE, state and nonce", async () => {
    const site = await startSite(ALL_CHECKS)
    const url = authorizationUrl(await startSignIn(site.agent()))
    expect(url.origin + url.pathname).toBe(`${site.idp.issuer}/auth`)
    const params = url.searchParams
    expect(params.get("client_id")).toBe(CLIENT_ID)
    expect(params.get("response_type")).toBe("code")
    expect(params.get("redirect_uri")).toBe(site.callbackUrl())
    expect(params.get("scope")).toBe("openid profile email")
    expect(params.get("code_challenge_method")).toBe("S256")
    for (const name of ["code_challenge", "state", "nonce"]) expect(params.get(name)).toMatch(/^[\w-]{43,}$/)
  })

  test("keeps each check in its own sealed, HttpOnly, 15-minute cookie bound to the provider", async () => {
    const site = await startSite(ALL_CHECKS)
    const start = await startSignIn(site.agent())
    const params = authorizationUrl(start).searchParams
    for (const name of Object.values(CHECK_COOKIES)) {
      const cookie = findCookie(start, name)
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", maxAge: 900 })
      const payload = openCheck(cookie?.value, name)
      expect(payload).toMatchObject({ provider: "idp" })
      expect(Number(payload?.exp) - Number(payload?.iat)).toBe(900)
      // Sealed: the value itself never appears in the cookie.
      expect(cookie?.value).not.toContain(String(payload?.value))
    }
    expect(openCheck(cookieValue(start, CHECK_COOKIES.state), CHECK_COOKIES.state)?.value).toBe(params.get("state"))
    expect(openCheck(cookieValue(start, CHECK_COOKIES.nonce), CHECK_COOKIES.nonce)?.value).toBe(params.get("nonce"))
    const verifier = String(openCheck(cookieValue(start, CHECK_COOKIES.pkce), CHECK_COOKIES.pkce)?.value)
    expect(verifier).toMatch(/^[\w-]{43,128}$/)
    expect(createHash("sha256").update(verifier).digest("base64url")).toBe(params.get("code_challenge"))
  })

  test("by default uses PKCE only: no state, no nonce, one check cookie", async () => {
    const site = await startSite()
    const agent = site.agent()
    const flow = await signInFlow(site, agent)
    const params = authorizationUrl(flow.start).searchParams
    expect(params.get("code_challenge")).toBeTruthy()
    expect(params.has("state")).toBe(false)
    expect(params.has("nonce")).toBe(false)
    expect(cookieValue(flow.start, CHECK_COOKIES.pkce)).toBeDefined()
    expect(findCookie(flow.start, CHECK_COOKIES.state)).toBeUndefined()
    expect(findCookie(flow.start, CHECK_COOKIES.nonce)).toBeUndefined()
    expect(isCleared(findCookie(flow.callback, CHECK_COOKIES.pkce))).toBe(true)
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
  })

  test('checks: ["none"] sends no PKCE, state or nonce and sets no check cookie', async () => {
    const site = await startSite({ providers: (idp) => [oidc(idp, { checks: ["none"] })] })
    const agent = site.agent()
    const flow = await signInFlow(site, agent)
    const params = authorizationUrl(flow.start).searchParams
    for (const name of ["code_challenge", "code_challenge_method", "state", "nonce"]) expect(params.has(name)).toBe(false)
    for (const name of Object.values(CHECK_COOKIES)) expect(findCookie(flow.start, name)).toBeUndefined()
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
  })
})

type Store = { name: string; config: () => Partial<AuthConfig> & { adapter?: ReturnType<typeof MemoryAdapter> } }
const STORES: Store[] = [
  { name: "MemoryAdapter, database sessions", config: () => ({ adapter: MemoryAdapter() }) },
  { name: "MemoryAdapter, cookie sessions", config: () => ({ adapter: MemoryAdapter(), session: { strategy: "cookie" } }) },
  { name: "no adapter (cookie sessions)", config: () => ({}) },
]

describe.each(STORES)("full OIDC code flow with PKCE, state and nonce ($name)", ({ name, config }) => {
  test("the callback clears every check, starts alice's session and returns to callbackUrl", async () => {
    const settings = config()
    const site = await startSite({ ...ALL_CHECKS, config: () => settings })
    const issued: Record<string, unknown>[] = []
    site.idp.provider.on("grant.success", (ctx) => issued.push({ ...(ctx.body as Record<string, unknown>) }))
    const agent = site.agent()
    const flow = await signInFlow(site, agent, { fields: { callbackUrl: "/dashboard" } })
    const sent = authorizationUrl(flow.start).searchParams

    // The IdP answered the registered redirect_uri with the code, the same state and its issuer (RFC 9207).
    expect(flow.back.origin + flow.back.pathname).toBe(site.callbackUrl())
    expect(flow.back.searchParams.get("code")).toBeTruthy()
    expect(flow.back.searchParams.get("state")).toBe(sent.get("state"))
    expect(flow.back.searchParams.get("iss")).toBe(site.idp.issuer)
    // The ID token the IdP issued carries this flow's nonce.
    expect(issued).toHaveLength(1)
    expect(jwtPayload(issued[0]?.id_token)).toMatchObject({ nonce: sent.get("nonce"), sub: "alice", aud: CLIENT_ID })

    expect(flow.callback.status).toBe(302)
    expect(flow.callback.headers.location).toBe(`${site.url}/dashboard`)
    for (const cookie of Object.values(CHECK_COOKIES)) expect(isCleared(findCookie(flow.callback, cookie))).toBe(true)
    expect(cookieValue(flow.callback, SESSION_COOKIE)).toBeDefined()
    expect(site.idp.hits["/token"]).toBe(1)
    expect(site.idp.hits["/me"]).toBe(1)
    expect(site.errors).not.toHaveBeenCalled()

    expect(await sessionOf(agent)).toMatchObject({
      user: { name: "Alice Liddell", email: "alice@example.com", image: "https://img.example/alice.png" },
    })
    const page = await agent.get("/dashboard").expect(200)
    expect(page.text).toContain("Dashboard of Alice Liddell")

    const adapter = settings.adapter
    if (!adapter) {
      // Without an adapter the session's user id is the provider's account id.
      expect(await sessionClaims(flow.callback)).toMatchObject({ sub: "alice", name: "Alice Liddell", email: "alice@example.com" })
      return
    }
    const [user] = [...adapter.store.users.values()]
    expect(adapter.store.users.size).toBe(1)
    expect(user).toMatchObject({ name: "Alice Liddell", email: "alice@example.com", image: "https://img.example/alice.png" })
    expect(user?.id).not.toBe("alice")
    expect([...adapter.store.accounts.values()]).toEqual([
      expect.objectContaining({ provider: "idp", type: "oidc", providerAccountId: "alice", userId: user?.id }),
    ])
    if (name.includes("database")) {
      const [session] = [...adapter.store.sessions.values()]
      expect(adapter.store.sessions.size).toBe(1)
      expect(session?.userId).toBe(user?.id)
      expect(cookieValue(flow.callback, SESSION_COOKIE)).toBe(session?.sessionToken)
    } else {
      expect((await sessionClaims(flow.callback))?.sub).toBe(user?.id)
    }
  })
})

describe("the account", () => {
  test("stores every token field: token_type lowercased, expires_at in seconds from expires_in, the rest as sent", async () => {
    const adapter = MemoryAdapter()
    const site = await startSite({ config: () => ({ adapter }), configuration: { issueRefreshToken: async () => true } })
    const details = [{ type: "account_information", actions: ["read"] }]
    let sent: Record<string, unknown> = {}
    site.idp.provider.on("grant.success", (ctx) => {
      const body = ctx.body as Record<string, unknown>
      Object.assign(body, { authorization_details: details, session_state: "state-of-the-session" })
      sent = { ...body }
    })
    const before = Math.floor(Date.now() / 1000)
    const flow = await signInFlow(site, site.agent())
    const after = Math.floor(Date.now() / 1000)
    expect(flow.callback.headers.location).toBe(`${site.url}/`)

    expect(sent).toMatchObject({ token_type: "Bearer", expires_in: 3600 })
    const [account] = [...adapter.store.accounts.values()]
    expect(account).toMatchObject({
      access_token: sent.access_token,
      refresh_token: sent.refresh_token,
      id_token: sent.id_token,
      scope: "openid profile email",
      token_type: "bearer",
      authorization_details: details,
      session_state: "state-of-the-session",
    })
    expect(typeof sent.refresh_token).toBe("string")
    expect(account?.expires_at).toBeGreaterThanOrEqual(before + 3600)
    expect(account?.expires_at).toBeLessThanOrEqual(after + 3600)
    expect(Object.keys(account ?? {}).sort()).toEqual(
      [
        "access_token",
        "authorization_details",
        "expires_at",
        "id_token",
        "provider",
        "providerAccountId",
        "refresh_token",
        "scope",
        "session_state",
        "token_type",
        "type",
        "userId",
      ].sort(),
    )
  })
})
