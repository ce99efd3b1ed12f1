/**
 * What the callback refuses: a tampered or missing state, missing, expired or foreign check
 * cookies (before any token request), a replayed code, an ID token with another nonce, an expired
 * one, one for another audience and one whose signature does not verify. Each ends on the sign-in
 * page with error=OAuthCallbackError, starts no session, and logs the cause.
 */
import { jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { AuthError } from "../../lib/errors.js"
import { findCookie, isCleared } from "../helpers/app.js"
import type { TestIdp } from "../helpers/idp.js"
import {
  CHECK_COOKIES,
  SESSION_COOKIE,
  atIdp,
  callbackWith,
  client,
  cookieJar,
  cookieValue,
  expectSignInError,
  local,
  loggedTypes,
  oauthSuite,
  oidc,
  sessionOf,
  signInFlow,
  startSignIn,
  startSite,
  type Site,
} from "./support.js"

oauthSuite()

const allChecks = (idp: TestIdp) => [oidc(idp, { checks: ["pkce", "state", "nonce"] })]

/** The callback was refused: sign-in page, no session, the logged error names the cause. */
function expectRefused(site: Site, response: Parameters<typeof expectSignInError>[1], logged: string) {
  expectSignInError(site, response, "OAuthCallbackError")
  expect(cookieValue(response, SESSION_COOKIE)).toBeUndefined()
  expect(loggedTypes(site)).toEqual([logged])
}

/** The logged error's cause chain as text: messages, codes, OAuth error codes and failed claims. */
function loggedCause(site: Site): string {
  const parts: string[] = []
  let next: unknown = ((site.errors.mock.calls[0]?.[0] as AuthError | undefined)?.cause as { err?: unknown } | undefined)?.err
  for (let depth = 0; next && typeof next === "object" && depth < 5; depth++) {
    const { message, code, error, claim } = next as Record<string, unknown>
    parts.push(...[message, code, error, claim].filter((part): part is string => typeof part === "string"))
    next = (next as { cause?: unknown }).cause
  }
  return parts.join(" | ")
}

/** Replaces the payload of a JWT, keeping its header and signature. */
function withClaims(jwt: string, change: (claims: Record<string, unknown>) => void): string {
  const [header, payload, signature] = jwt.split(".")
  const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8")) as Record<string, unknown>
  change(claims)
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`
}

/** Makes the IdP's token endpoint answer with a modified ID token. */
function rewriteIdToken(site: Site, rewrite: (idToken: string) => string) {
  site.idp.provider.on("grant.success", (ctx) => {
    const body = ctx.body as Record<string, string>
    body.id_token = rewrite(body.id_token as string)
  })
}

describe("state", () => {
  test("a tampered state is refused before any token request, and the checks are spent", async () => {
    const site = await startSite({ providers: allChecks })
    const agent = site.agent()
    const start = await startSignIn(agent)
    const back = await atIdp(site, start)
    const tampered = new URL(back)
    tampered.searchParams.set("state", `${back.searchParams.get("state")}x`)
    const refused = await agent.get(local(tampered))
    expectRefused(site, refused, "InvalidCheck")
    expect(site.idp.hits["/token"]).toBeUndefined()
    for (const name of Object.values(CHECK_COOKIES)) expect(isCleared(findCookie(refused, name))).toBe(true)
    // The genuine callback now finds no checks either: they were deleted once used.
    expectSignInError(site, await agent.get(local(back)), "OAuthCallbackError")
    expect(site.idp.hits["/token"]).toBeUndefined()
    expect(await sessionOf(agent)).toBeNull()
  })

  test("a response without state is refused when state is configured", async () => {
    const site = await startSite({ providers: allChecks })
    const agent = site.agent()
    const back = await atIdp(site, await startSignIn(agent))
    back.searchParams.delete("state")
    expectRefused(site, await agent.get(local(back)), "InvalidCheck")
    expect(site.idp.hits["/token"]).toBeUndefined()
  })

  test("a state given twice reads as absent and is refused", async () => {
    const site = await startSite({ providers: allChecks })
    const agent = site.agent()
    const back = await atIdp(site, await startSignIn(agent))
    back.searchParams.append("state", back.searchParams.get("state") as string)
    expectRefused(site, await agent.get(local(back)), "InvalidCheck")
    expect(site.idp.hits["/token"]).toBeUndefined()
  })

  test("an iss response parameter naming another issuer (RFC 9207) is refused before any token request", async () => {
    const site = await startSite({ providers: allChecks })
    const agent = site.agent()
    const back = await atIdp(site, await startSignIn(agent))
    back.searchParams.set("iss", "https://impostor.example")
    expectRefused(site, await agent.get(local(back)), "OAuthCallbackError")
    expect(site.idp.hits["/token"]).toBeUndefined()
  })
})

describe("check cookies", () => {
  test.each([
    ["pkce", CHECK_COOKIES.pkce, "pkceCodeVerifier"],
    ["state", CHECK_COOKIES.state, "state"],
    ["nonce", CHECK_COOKIES.nonce, "nonce"],
  ])("a missing %s cookie is refused before any token request", async (_check, name, label) => {
    const site = await startSite({ providers: allChecks })
    const start = await startSignIn(site.agent())
    const back = await atIdp(site, start)
    const jar = cookieJar(start)
    expect(jar.has(name)).toBe(true)
    jar.delete(name)
    expectRefused(site, await callbackWith(site, back, jar), "InvalidCheck")
    expect((site.errors.mock.calls[0]?.[0] as Error).message).toContain(`The ${label} cookie is missing`)
    expect(site.idp.hits["/token"]).toBeUndefined()
  })

  test("check cookies older than 15 minutes are refused, even when the browser still sends them", async () => {
    const site = await startSite({ providers: allChecks })
    const start = await startSignIn(site.agent())
    const back = await atIdp(site, start)
    const now = Date.now()
    const clock = jest.spyOn(Date, "now").mockReturnValue(now + 16 * 60 * 1000)
    try {
      expectRefused(site, await callbackWith(site, back, cookieJar(start)), "InvalidCheck")
    } finally {
      clock.mockRestore()
    }
    expect(site.idp.hits["/token"]).toBeUndefined()
  })

  test("a check cookie from a sign-in with another provider is refused", async () => {
    const site = await startSite({
      clients: (url) => [client(url), client(url, { client_id: "second" }, "other")],
      providers: (idp) => [oidc(idp), oidc(idp, { id: "other", clientId: "second" })],
    })
    const foreign = await startSignIn(site.agent(), "other")
    const start = await startSignIn(site.agent())
    const back = await atIdp(site, start)
    const jar = cookieJar(start)
    jar.set(CHECK_COOKIES.pkce, cookieValue(foreign, CHECK_COOKIES.pkce) as string)
    expectRefused(site, await callbackWith(site, back, jar), "InvalidCheck")
    expect((site.errors.mock.calls[0]?.[0] as Error).message).toMatch(/another provider/)
    expect(site.idp.hits["/token"]).toBeUndefined()
  })
})

describe("code and ID token", () => {
  test("a replayed code is refused: no second session, the first one stays valid", async () => {
    const adapter = MemoryAdapter()
    const site = await startSite({ providers: allChecks, config: () => ({ adapter }) })
    const agent = site.agent()
    const start = await startSignIn(agent)
    const back = await atIdp(site, start)
    const beforeCallback = cookieJar(start)
    const first = await agent.get(local(back))
    expect(first.headers.location).toBe(`${site.url}/`)
    expect(adapter.store.sessions.size).toBe(1)

    const replay = await callbackWith(site, back, beforeCallback)
    expectRefused(site, replay, "OAuthCallbackError")
    expect(loggedCause(site)).toMatch(/invalid_grant/)
    expect(site.idp.hits["/token"]).toBe(2)
    expect(adapter.store.sessions.size).toBe(1)
    expect(adapter.store.users.size).toBe(1)
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
  })

  test("a PKCE verifier from another sign-in is refused by the IdP (invalid_grant)", async () => {
    const site = await startSite({ providers: allChecks })
    const mine = await startSignIn(site.agent())
    const theirs = await startSignIn(site.agent())
    const back = await atIdp(site, mine)
    const jar = cookieJar(mine)
    jar.set(CHECK_COOKIES.pkce, cookieValue(theirs, CHECK_COOKIES.pkce) as string)
    expectRefused(site, await callbackWith(site, back, jar), "OAuthCallbackError")
    expect(loggedCause(site)).toMatch(/invalid_grant/)
    expect(site.idp.hits["/token"]).toBe(1)
  })

  test("an ID token with the nonce of another sign-in is refused", async () => {
    const site = await startSite({ providers: allChecks })
    const mine = await startSignIn(site.agent())
    const theirs = await startSignIn(site.agent())
    const back = await atIdp(site, mine)
    const jar = cookieJar(mine)
    jar.set(CHECK_COOKIES.nonce, cookieValue(theirs, CHECK_COOKIES.nonce) as string)
    expectRefused(site, await callbackWith(site, back, jar), "OAuthCallbackError")
    expect(loggedCause(site)).toMatch(/\bnonce\b/)
    expect(site.idp.hits["/token"]).toBe(1)
  })

  test("an expired ID token is refused", async () => {
    const site = await startSite({ providers: allChecks, configuration: { ttl: { IdToken: 1 } } })
    const real = Date.now.bind(Date)
    let skew = 0
    // Once the IdP has issued the token, the clock moves past its expiry and openid-client's 30s tolerance.
    site.idp.provider.on("grant.success", () => {
      skew = 5 * 60 * 1000
    })
    const agent = site.agent()
    const start = await startSignIn(agent)
    const back = await atIdp(site, start)
    const clock = jest.spyOn(Date, "now").mockImplementation(() => real() + skew)
    try {
      expectRefused(site, await agent.get(local(back)), "OAuthCallbackError")
    } finally {
      clock.mockRestore()
    }
    expect(loggedCause(site)).toMatch(/\bexp\b/)
    expect(site.idp.hits["/token"]).toBe(1)
  })

  test("an ID token for another audience is refused", async () => {
    const site = await startSite({ providers: allChecks })
    rewriteIdToken(site, (jwt) => withClaims(jwt, (claims) => (claims.aud = "someone-else")))
    const flow = await signInFlow(site, site.agent())
    expectRefused(site, flow.callback, "OAuthCallbackError")
    expect(loggedCause(site)).toMatch(/\baud\b/)
  })

  test("an ID token whose signature does not verify with the IdP's keys is refused", async () => {
    const site = await startSite({ providers: allChecks })
    // Claims untouched, signature replaced: only a signature check can tell.
    rewriteIdToken(site, (jwt) => `${jwt.split(".").slice(0, 2).join(".")}.${Buffer.alloc(256, 7).toString("base64url")}`)
    const agent = site.agent()
    const flow = await signInFlow(site, agent)
    expectRefused(site, flow.callback, "OAuthCallbackError")
    expect(await sessionOf(agent)).toBeNull()
  })
})
