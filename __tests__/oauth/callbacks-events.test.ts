/**
 * The callbacks and events of an OAuth sign-in with their documented arguments: signIn (user,
 * account, profile; false, a URL), jwt (token, user, account, profile, trigger "signUp"/"signIn"),
 * redirect (url, baseUrl), and the createUser, linkAccount and signIn events, in order.
 */
import { jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { AuthConfig, CallbacksOptions, EventCallbacks } from "../../lib/types.js"
import { SESSION_COOKIE, cookieValue, oauthSuite, sessionClaims, sessionOf, signInFlow, startSite } from "./support.js"

oauthSuite()

type Call = [string, Record<string, unknown>]

/** Spies on every callback and event (the callbacks keep the default behaviour), recording the order. */
function spies(overrides: { signIn?: (params: Record<string, unknown>) => unknown; redirect?: (params: { url: string; baseUrl: string }) => string } = {}) {
  const calls: Call[] = []
  const record = (name: string) => (params: unknown) => void calls.push([name, { ...(params as Record<string, unknown>) }])
  const signIn = jest.fn(async (params: Record<string, unknown>) => {
    record("callbacks.signIn")(params)
    return overrides.signIn ? overrides.signIn(params) : true
  })
  const jwt = jest.fn(async (params: Record<string, unknown>) => {
    record("callbacks.jwt")(params)
    return params.token
  })
  const redirect = jest.fn(async (params: { url: string; baseUrl: string }) => {
    record("callbacks.redirect")(params)
    return overrides.redirect ? overrides.redirect(params) : params.url
  })
  const events = Object.fromEntries(["signIn", "createUser", "linkAccount", "updateUser"].map((name) => [name, jest.fn(record(`events.${name}`))]))
  const config: Partial<AuthConfig> = {
    callbacks: { signIn, jwt, redirect } as unknown as CallbacksOptions,
    events: events as EventCallbacks,
  }
  const named = (name: string) => calls.filter(([call]) => call === name).map(([, params]) => params)
  return { calls, config, named, order: () => calls.map(([name]) => name).filter((name) => name !== "callbacks.redirect") }
}

describe("a first sign-in with an adapter (cookie sessions)", () => {
  test("calls signIn, then createUser, linkAccount, jwt (signUp) and the signIn event, with their arguments", async () => {
    const adapter = MemoryAdapter()
    const spy = spies({ signIn: () => adapter.store.users.size === 0 })
    const site = await startSite({ config: () => ({ adapter, session: { strategy: "cookie" }, ...spy.config }) })
    const flow = await signInFlow(site, site.agent())
    expect(flow.callback.headers.location).toBe(`${site.url}/`)
    expect(spy.order()).toEqual(["callbacks.signIn", "events.createUser", "events.linkAccount", "callbacks.jwt", "events.signIn"])
    const [stored] = [...adapter.store.users.values()]
    const profile = expect.objectContaining({ sub: "alice", email: "alice@example.com", name: "Alice Liddell", email_verified: true })
    const account = expect.objectContaining({ provider: "idp", type: "oidc", providerAccountId: "alice", access_token: expect.any(String), token_type: "bearer" })
    const linked = expect.objectContaining({ provider: "idp", providerAccountId: "alice", userId: stored?.id })
    const user = expect.objectContaining({ id: stored?.id, email: "alice@example.com", name: "Alice Liddell" })

    // signIn decides before anything is stored (the callback returned true only while no user existed).
    expect(spy.named("callbacks.signIn")).toEqual([
      { user: expect.objectContaining({ email: "alice@example.com", name: "Alice Liddell", image: "https://img.example/alice.png" }), account, profile },
    ])
    expect(spy.named("events.createUser")).toEqual([{ user }])
    expect(spy.named("events.linkAccount")).toEqual([{ user, account: linked, profile }])
    const [jwt] = spy.named("callbacks.jwt")
    expect(jwt).toMatchObject({ user, account: linked, profile, trigger: "signUp" })
    // Issue #16: the sign-in facts (amr, authTime) are in the token the jwt callback receives.
    expect(jwt?.token).toEqual({ name: "Alice Liddell", email: "alice@example.com", picture: "https://img.example/alice.png", sub: stored?.id, amr: ["oauth"], authTime: expect.any(Number) })
    expect(spy.named("events.signIn")).toEqual([{ user, account: linked, profile, isNewUser: true }])
    expect((await sessionClaims(flow.callback))?.sub).toBe(stored?.id)
  })

  test("a returning user: signIn sees the stored user, jwt gets trigger signIn, no createUser or linkAccount", async () => {
    const adapter = MemoryAdapter()
    const spy = spies()
    const site = await startSite({ config: () => ({ adapter, session: { strategy: "cookie" }, ...spy.config }) })
    await signInFlow(site, site.agent())
    const [stored] = [...adapter.store.users.values()]
    spy.calls.length = 0
    await signInFlow(site, site.agent())
    expect(spy.order()).toEqual(["callbacks.signIn", "callbacks.jwt", "events.signIn"])
    expect(spy.named("callbacks.signIn")[0]?.user).toMatchObject({ id: stored?.id, email: "alice@example.com" })
    expect(spy.named("callbacks.jwt")[0]).toMatchObject({ trigger: "signIn", user: { id: stored?.id } })
    expect(spy.named("events.signIn")[0]).toMatchObject({ isNewUser: false, user: { id: stored?.id }, account: { userId: stored?.id } })
  })
})

describe("pages.newUser", () => {
  test("a first sign-in lands on the newUser page with the callbackUrl; a later one on the callbackUrl", async () => {
    const site = await startSite({ config: () => ({ adapter: MemoryAdapter(), pages: { newUser: "/welcome" } }) })
    const first = await signInFlow(site, site.agent(), { fields: { callbackUrl: "/dashboard" } })
    const to = new URL(String(first.callback.headers.location))
    expect(to.origin + to.pathname).toBe(`${site.url}/welcome`)
    expect(to.searchParams.get("callbackUrl")).toBe(`${site.url}/dashboard`)
    const later = await signInFlow(site, site.agent(), { fields: { callbackUrl: "/dashboard" } })
    expect(later.callback.headers.location).toBe(`${site.url}/dashboard`)
  })
})

describe("without an adapter", () => {
  test("the user id is the provider's account id; jwt gets trigger signIn; no user events", async () => {
    const spy = spies()
    const site = await startSite({ config: () => spy.config })
    const flow = await signInFlow(site, site.agent())
    expect(spy.order()).toEqual(["callbacks.signIn", "callbacks.jwt", "events.signIn"])
    const user = { id: "alice", name: "Alice Liddell", email: "alice@example.com", image: "https://img.example/alice.png" }
    const account = expect.objectContaining({ provider: "idp", providerAccountId: "alice", id_token: expect.any(String) })
    expect(spy.named("callbacks.signIn")).toEqual([{ user, account, profile: expect.objectContaining({ sub: "alice" }) }])
    expect(spy.named("callbacks.jwt")[0]).toMatchObject({ user, trigger: "signIn", token: { sub: "alice", email: "alice@example.com" } })
    expect(spy.named("events.signIn")[0]).toMatchObject({ user, account: { providerAccountId: "alice" }, profile: { sub: "alice" } })
    expect((await sessionClaims(flow.callback))?.sub).toBe("alice")
  })
})

describe("with database sessions", () => {
  test("the jwt callback never runs", async () => {
    const spy = spies()
    const site = await startSite({ config: () => ({ adapter: MemoryAdapter(), ...spy.config }) })
    const agent = site.agent()
    await signInFlow(site, agent)
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
    expect(spy.named("callbacks.jwt")).toEqual([])
    expect(spy.order()).toEqual(["callbacks.signIn", "events.createUser", "events.linkAccount", "events.signIn"])
  })
})

describe("the signIn callback's verdict", () => {
  test("false: /auth/error?error=AccessDenied, nothing stored, no session, no signIn event", async () => {
    const adapter = MemoryAdapter()
    const spy = spies({ signIn: () => false })
    const site = await startSite({ config: () => ({ adapter, ...spy.config }) })
    const agent = site.agent()
    const flow = await signInFlow(site, agent)
    const to = new URL(String(flow.callback.headers.location))
    expect(to.pathname + to.search).toBe("/auth/error?error=AccessDenied")
    expect(cookieValue(flow.callback, SESSION_COOKIE)).toBeUndefined()
    expect(adapter.store.users.size + adapter.store.accounts.size + adapter.store.sessions.size).toBe(0)
    expect(spy.order()).toEqual(["callbacks.signIn"])
    expect(await sessionOf(agent)).toBeNull()
  })

  test("a URL: the browser goes there and no session starts", async () => {
    const adapter = MemoryAdapter()
    const spy = spies({ signIn: () => "/not-yet" })
    const site = await startSite({ config: () => ({ adapter, ...spy.config }) })
    const flow = await signInFlow(site, site.agent())
    expect(flow.callback.headers.location).toBe(`${site.url}/not-yet`)
    expect(cookieValue(flow.callback, SESSION_COOKIE)).toBeUndefined()
    expect(adapter.store.users.size).toBe(0)
    expect(spy.named("events.signIn")).toEqual([])
  })
})

describe("the redirect callback", () => {
  test("gets the callbackUrl remembered from the start and the site's origin, and decides where the user lands", async () => {
    const spy = spies({ redirect: ({ url, baseUrl }) => (url.endsWith("/dashboard") ? `${baseUrl}/welcome` : url) })
    const site = await startSite({ config: () => spy.config })
    const flow = await signInFlow(site, site.agent(), { fields: { callbackUrl: "/dashboard" } })
    expect(flow.callback.headers.location).toBe(`${site.url}/welcome`)
    const calls = spy.named("callbacks.redirect")
    expect(calls.length).toBeGreaterThanOrEqual(2)
    for (const call of calls) expect(call.baseUrl).toBe(site.url)
    expect(calls[0]?.url).toMatch(/\/dashboard$/)
    expect(calls).toContainEqual({ url: `${site.url}/welcome`, baseUrl: site.url })
  })
})
