/**
 * Every failure of an OAuth sign-in ends on the sign-in page with the spec's error value
 * (OAuthSignin when the sign-in cannot start, OAuthCallbackError at the callback), starts no
 * session, never reflects the provider's words to the user, and logs the cause.
 */
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { AuthError } from "../../lib/errors.js"
import { customFetch } from "../../lib/core/symbols.js"
import { findCookie, isCleared, reserve } from "../helpers/app.js"
import {
  CHECK_COOKIES,
  SESSION_COOKIE,
  atIdp,
  cookieValue,
  expectSignInError,
  local,
  loggedTypes,
  oauth2,
  oauthSuite,
  oidc,
  sessionOf,
  signInFlow,
  startSignIn,
  startSite,
  type Site,
} from "./support.js"

oauthSuite()

/** An http URL nothing listens on. */
async function deadUrl(): Promise<string> {
  const server = await reserve()
  await server.close()
  return server.url
}

/** The logged error and its cause. */
function logged(site: Site): { error: AuthError; cause: { err?: Error & Record<string, unknown> } & Record<string, unknown> } {
  const error = site.errors.mock.calls[0]?.[0] as AuthError
  return { error, cause: (error?.cause ?? {}) as never }
}

function expectNoSession(response: Parameters<typeof cookieValue>[0]) {
  expect(cookieValue(response, SESSION_COOKIE)).toBeUndefined()
}

describe("at the sign-in start", () => {
  test("an unreachable discovery document: OAuthSignin, no check cookies, the cause logged", async () => {
    const dead = await deadUrl()
    const site = await startSite({ providers: (idp) => [oidc(idp, { issuer: dead })] })
    const start = await startSignIn(site.agent())
    expectSignInError(site, start, "OAuthSignin")
    for (const name of Object.values(CHECK_COOKIES)) expect(findCookie(start, name)).toBeUndefined()
    expect(loggedTypes(site)).toEqual(["OAuthSignInError"])
    expect(logged(site).cause.err).toBeInstanceOf(Error)
  })

  test("a failed discovery is not cached: the next sign-in retries and succeeds", async () => {
    let failures = 1
    const flaky = ((input: RequestInfo | URL, init?: RequestInit) =>
      failures-- > 0 ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init)) as typeof fetch
    const site = await startSite({ providers: (idp) => [{ ...oidc(idp), [customFetch]: flaky }] })
    const agent = site.agent()
    expectSignInError(site, await startSignIn(agent), "OAuthSignin")
    const flow = await signInFlow(site, agent)
    expect(flow.callback.headers.location).toBe(`${site.url}/`)
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
  })

  test("a discovery document that names another issuer (mix-up): OAuthSignin", async () => {
    const site = await startSite({
      providers: (idp) => [oidc(idp, { issuer: "https://impostor.example", wellKnown: `${idp.issuer}/.well-known/openid-configuration` })],
    })
    expectSignInError(site, await startSignIn(site.agent()), "OAuthSignin")
    expect(logged(site).error.message).toContain("https://impostor.example")
    expect(site.idp.hits["/auth"]).toBeUndefined()
  })
})

describe("at the callback", () => {
  test("the provider answers error=…: OAuthCallbackError, no token request, the provider's words only in the log", async () => {
    const site = await startSite()
    const agent = site.agent()
    // prompt=none without a session at the IdP: it sends the user back with error=login_required.
    const start = await startSignIn(agent, "idp", { authorizationParams: "prompt=none" })
    const back = await atIdp(site, start)
    expect(back.searchParams.get("error")).toBe("login_required")
    const callback = await agent.get(local(back))
    expectSignInError(site, callback, "OAuthCallbackError")
    expect(String(callback.headers.location)).not.toContain("login_required")
    expect(isCleared(findCookie(callback, CHECK_COOKIES.pkce))).toBe(true)
    expectNoSession(callback)
    expect(site.idp.hits["/token"]).toBeUndefined()
    expect(loggedTypes(site)).toEqual(["OAuthCallbackError"])
    expect(logged(site).cause).toMatchObject({ error: "login_required" })
  })

  test("the token endpoint refuses the client (wrong secret): OAuthCallbackError with invalid_client logged", async () => {
    const site = await startSite({ providers: (idp) => [oidc(idp, { clientSecret: "not-the-secret" })] })
    const agent = site.agent()
    const flow = await signInFlow(site, agent)
    expectSignInError(site, flow.callback, "OAuthCallbackError")
    expectNoSession(flow.callback)
    // A 401 with a Basic challenge naming the error.
    expect(logged(site).cause.err).toMatchObject({ status: 401 })
    expect(JSON.stringify(logged(site).cause.err?.cause)).toContain("invalid_client")
    expect(await sessionOf(agent)).toBeNull()
  })

  test("an unreachable token endpoint: OAuthCallbackError with the cause logged", async () => {
    const dead = await deadUrl()
    const site = await startSite({ providers: (idp) => [oauth2(idp, { token: `${dead}/token` })] })
    const flow = await signInFlow(site, site.agent())
    expectSignInError(site, flow.callback, "OAuthCallbackError")
    expectNoSession(flow.callback)
    expect(loggedTypes(site)).toEqual(["OAuthCallbackError"])
    expect(logged(site).cause.err).toBeInstanceOf(Error)
  })

  test("an ID token that is not a JWT: OAuthCallbackError", async () => {
    const site = await startSite()
    site.idp.provider.on("grant.success", (ctx) => {
      ;(ctx.body as Record<string, unknown>).id_token = "not-a-jwt"
    })
    const flow = await signInFlow(site, site.agent())
    expectSignInError(site, flow.callback, "OAuthCallbackError")
    expectNoSession(flow.callback)
    expect(loggedTypes(site)).toEqual(["OAuthCallbackError"])
  })

  test("an OIDC provider whose token response has no ID token: OAuthCallbackError", async () => {
    const site = await startSite()
    site.idp.provider.on("grant.success", (ctx) => {
      delete (ctx.body as Record<string, unknown>).id_token
    })
    const flow = await signInFlow(site, site.agent())
    expectSignInError(site, flow.callback, "OAuthCallbackError")
    expectNoSession(flow.callback)
  })

  test("a userinfo endpoint that answers an error: OAuthCallbackError", async () => {
    const site = await startSite({ providers: (idp) => [oauth2(idp, { userinfo: `${idp.issuer}/no-such-endpoint` })] })
    const flow = await signInFlow(site, site.agent())
    expectSignInError(site, flow.callback, "OAuthCallbackError")
    expectNoSession(flow.callback)
    expect(site.idp.hits["/no-such-endpoint"]).toBe(1)
  })

  test("profile() throwing: OAuthCallbackError, OAuthProfileParseError logged with the thrown error, nothing stored", async () => {
    const adapter = MemoryAdapter()
    const broken = new Error("cannot map this profile")
    const site = await startSite({
      providers: (idp) => [
        oidc(idp, {
          profile: () => {
            throw broken
          },
        }),
      ],
      config: () => ({ adapter }),
    })
    const flow = await signInFlow(site, site.agent())
    expectSignInError(site, flow.callback, "OAuthCallbackError")
    expectNoSession(flow.callback)
    expect(loggedTypes(site)).toEqual(["OAuthProfileParseError"])
    expect(logged(site).cause.err).toBe(broken)
    expect(adapter.store.users.size).toBe(0)
  })

  test("a profile without an id: OAuthCallbackError, OAuthProfileParseError logged", async () => {
    const site = await startSite({ providers: (idp) => [oidc(idp, { profile: (profile) => ({ name: String(profile.name), email: String(profile.email) }) })] })
    const flow = await signInFlow(site, site.agent())
    expectSignInError(site, flow.callback, "OAuthCallbackError")
    expectNoSession(flow.callback)
    expect(loggedTypes(site)).toEqual(["OAuthProfileParseError"])
    expect(logged(site).error.message).toMatch(/id/)
  })

  test("a JSON client gets 400 with the error type instead of a redirect", async () => {
    const site = await startSite({ providers: (idp) => [oidc(idp, { checks: ["pkce", "state"] })] })
    const agent = site.agent()
    const back = await atIdp(site, await startSignIn(agent))
    back.searchParams.set("state", "forged")
    const answer = await agent.get(local(back)).set("Accept", "application/json")
    expect(answer.status).toBe(400)
    expect(answer.body.error.type).toBe("OAuthCallbackError")
    expect(JSON.stringify(answer.body)).not.toMatch(/stack|forged/)
  })
})

describe("storing a new account", () => {
  test("an adapter that fails to store the user of a new account: OAuthCreateAccount, nothing half-written, the cause logged", async () => {
    const adapter = MemoryAdapter()
    const failing = { ...adapter, transaction: undefined, createUser: async () => Promise.reject(new Error("disk full")) }
    const site = await startSite({ config: () => ({ adapter: failing }) })
    const { callback } = await signInFlow(site, site.agent())
    expectSignInError(site, callback, "OAuthCreateAccount")
    expectNoSession(callback)
    expect(adapter.store.users.size).toBe(0)
    expect(adapter.store.accounts.size).toBe(0)
    expect(loggedTypes(site)).toEqual(["OAuthCreateAccount"])
    expect(String((logged(site).cause.err as { cause?: { err?: Error } })?.cause?.err?.message)).toBe("disk full")
  })
})
