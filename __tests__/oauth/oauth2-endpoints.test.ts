/**
 * OAuth 2.0 providers and endpoint configuration: explicit authorization/token/userinfo URLs (no
 * discovery, no ID token, the profile from userinfo through profile()), endpoints as
 * `{ url, params }`, discovery from `wellKnown` or (RFC 8414) from an OAuth issuer, and the
 * provider's customFetch replacing fetch for every request to its endpoints.
 */
import { jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { OAuthProviderConfig, ProfileUser } from "../../lib/providers/types.js"
import type { Profile, TokenSet } from "../../lib/types.js"
import {
  authorizationUrl,
  oauth2,
  oauthSuite,
  oidc,
  recordingFetch,
  sessionOf,
  signInFlow,
  startSite,
  type Site,
} from "./support.js"

oauthSuite()

/**
 * oidc-provider's userinfo endpoint only answers access tokens granted the `openid` scope, and it
 * issues an ID token whenever that scope is granted. To act as a plain OAuth 2.0 server, the IdP
 * here drops the ID token from its token responses.
 */
function withoutIdTokens(site: Site): void {
  site.idp.provider.on("grant.success", (ctx) => {
    delete (ctx.body as Record<string, unknown>).id_token
  })
}

function discoveryHits(site: Site): number {
  return Object.entries(site.idp.hits)
    .filter(([path]) => path.startsWith("/.well-known/"))
    .reduce((sum, [, count]) => sum + count, 0)
}

describe("an OAuth 2.0 provider with explicit endpoints", () => {
  test("signs in without discovery or ID token: the profile comes from userinfo through profile()", async () => {
    const adapter = MemoryAdapter()
    const profile = jest.fn(
      (userinfo: Profile, _tokens: TokenSet): ProfileUser => ({
        id: userinfo.sub as string,
        name: String(userinfo.name).toUpperCase(),
        email: userinfo.email as string,
        image: userinfo.picture as string,
      }),
    )
    const site = await startSite({ providers: (idp) => [oauth2(idp, { profile })], config: () => ({ adapter }) })
    withoutIdTokens(site)
    const agent = site.agent()
    const flow = await signInFlow(site, agent)

    const sent = authorizationUrl(flow.start)
    expect(sent.origin + sent.pathname).toBe(`${site.idp.issuer}/auth`)
    expect(sent.searchParams.get("scope")).toBe("openid email profile")
    expect(sent.searchParams.has("nonce")).toBe(false)
    expect(flow.callback.headers.location).toBe(`${site.url}/`)
    expect(discoveryHits(site)).toBe(0)
    expect(site.idp.hits["/token"]).toBe(1)
    expect(site.idp.hits["/me"]).toBe(1)

    expect(profile).toHaveBeenCalledTimes(1)
    const [userinfo, tokens] = profile.mock.calls[0] as [Profile, TokenSet]
    expect(userinfo).toEqual({ sub: "alice", email: "alice@example.com", email_verified: true, name: "Alice Liddell", picture: "https://img.example/alice.png" })
    expect(tokens).toMatchObject({ access_token: expect.any(String), token_type: "bearer" })
    expect(tokens.id_token).toBeUndefined()

    const [account] = [...adapter.store.accounts.values()]
    expect(account).toMatchObject({ provider: "idp", type: "oauth", providerAccountId: "alice", access_token: tokens.access_token })
    expect(account).not.toHaveProperty("id_token")
    expect(await sessionOf(agent)).toMatchObject({ user: { name: "ALICE LIDDELL", email: "alice@example.com", image: "https://img.example/alice.png" } })
  })

  test("without profile(), the userinfo's sub, name, email and picture make the user", async () => {
    const site = await startSite({ providers: (idp) => [oauth2(idp)] })
    withoutIdTokens(site)
    const agent = site.agent()
    await signInFlow(site, agent, { login: "bob" })
    expect((await sessionOf(agent))?.user).toEqual({ name: "Bob Builder", email: "bob@example.com", image: null })
  })

  test("authorization and userinfo given as { url, params }: the params reach those requests", async () => {
    const recorder = recordingFetch()
    const site = await startSite({
      providers: (idp) => [
        {
          ...oauth2(idp, {
            authorization: { url: `${idp.issuer}/auth`, params: { scope: "openid email profile", prompt: "consent" } },
            userinfo: { url: `${idp.issuer}/me`, params: { scope: "openid email" } },
          }),
          [recorder.symbol]: recorder.impl,
        },
      ],
    })
    withoutIdTokens(site)
    const agent = site.agent()
    const flow = await signInFlow(site, agent)
    expect(authorizationUrl(flow.start).searchParams.get("prompt")).toBe("consent")
    const userinfo = recorder.seen.find((entry) => new URL(entry.url).pathname === "/me")
    expect(new URL(String(userinfo?.url)).searchParams.get("scope")).toBe("openid email")
    // The IdP answered for the narrower scope: no name in the profile.
    expect((await sessionOf(agent))?.user).toEqual({ name: null, email: "alice@example.com", image: null })
  })

  test("the token endpoint given as { url, params }: the params reach the token request", async () => {
    const recorder = recordingFetch()
    const site = await startSite({
      providers: (idp) => [{ ...oauth2(idp, { token: { url: `${idp.issuer}/token`, params: { audience: "https://api.example" } } }), [recorder.symbol]: recorder.impl }],
    })
    withoutIdTokens(site)
    const flow = await signInFlow(site, site.agent())
    expect(flow.callback.headers.location).toBe(`${site.url}/`)
    const token = recorder.seen.find((entry) => new URL(entry.url).pathname === "/token")
    expect(token).toBeDefined()
    const sent = new URL(String(token?.url)).searchParams.get("audience") ?? token?.body.get("audience")
    expect(sent).toBe("https://api.example")
  })
})

describe("discovery", () => {
  test("an OIDC provider with only wellKnown is discovered from it, once for many sign-ins", async () => {
    const site = await startSite({
      providers: (idp) => [oidc(idp, { issuer: undefined, wellKnown: `${idp.issuer}/.well-known/openid-configuration` })],
    })
    for (const login of ["alice", "bob"]) {
      const agent = site.agent()
      await signInFlow(site, agent, { login })
      expect((await sessionOf(agent))?.user?.email).toBe(`${login}@example.com`)
    }
    expect(site.idp.hits["/.well-known/openid-configuration"]).toBe(1)
    expect(discoveryHits(site)).toBe(1)
  })

  test("an OAuth 2.0 provider with an issuer reads the RFC 8414 authorization server metadata", async () => {
    const site = await startSite({
      providers: (idp): OAuthProviderConfig[] => [
        { ...oauth2(idp, { issuer: idp.issuer }), authorization: { params: { scope: "openid email profile" } }, token: undefined, userinfo: undefined },
      ],
    })
    withoutIdTokens(site)
    const agent = site.agent()
    const flow = await signInFlow(site, agent)
    expect(authorizationUrl(flow.start).origin).toBe(site.idp.issuer)
    expect(site.idp.hits["/.well-known/oauth-authorization-server"]).toBe(1)
    expect(site.idp.hits["/.well-known/openid-configuration"]).toBeUndefined()
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
  })
})

describe("customFetch", () => {
  test("replaces fetch for discovery, token and userinfo requests of an OIDC provider", async () => {
    const recorder = recordingFetch()
    const site = await startSite({ providers: (idp) => [{ ...oidc(idp), [recorder.symbol]: recorder.impl }] })
    const agent = site.agent()
    await signInFlow(site, agent)
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
    expect(recorder.paths()).toEqual(expect.arrayContaining(["/.well-known/openid-configuration", "/token", "/me"]))
    expect(recorder.seen.every((entry) => entry.url.startsWith(site.idp.issuer))).toBe(true)
    // Every request Gatehouse made to the IdP (a JWKS fetch included, if any) went through it.
    for (const path of ["/.well-known/openid-configuration", "/token", "/me", "/jwks"]) {
      expect(recorder.paths().filter((seen) => seen === path)).toHaveLength(site.idp.hits[path] ?? 0)
    }
  })

  test("replaces fetch for the token and userinfo requests of explicit endpoints", async () => {
    const recorder = recordingFetch()
    const site = await startSite({ providers: (idp) => [{ ...oauth2(idp), [recorder.symbol]: recorder.impl }] })
    withoutIdTokens(site)
    await signInFlow(site, site.agent())
    expect(recorder.paths()).toEqual(["/token", "/me"])
  })

  test("is the fetch a custom userinfo request receives", async () => {
    const recorder = recordingFetch()
    const request = jest.fn(async ({ tokens, fetch }: { tokens: TokenSet; fetch: typeof globalThis.fetch }) => {
      const answer = await fetch(`${site.idp.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
      return (await answer.json()) as Profile
    })
    const site: Site = await startSite({
      providers: (idp) => [{ ...oauth2(idp, { userinfo: { request } }), [recorder.symbol]: recorder.impl }],
    })
    withoutIdTokens(site)
    const agent = site.agent()
    await signInFlow(site, agent)
    expect(request).toHaveBeenCalledTimes(1)
    // Issue #13: the app's fetch wrapped with the provider's outbound limits; its calls still go
    // through the app's fetch (the recorder sees /me).
    expect(request.mock.calls[0]?.[0]).toMatchObject({ provider: expect.objectContaining({ id: "idp" }), fetch: expect.any(Function) })
    expect(recorder.paths()).toEqual(["/token", "/me"])
    expect((await sessionOf(agent))?.user?.name).toBe("Alice Liddell")
  })
})
