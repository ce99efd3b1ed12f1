/**
 * Users and accounts through an adapter: the first sign-in creates the user with the account, a
 * new account whose email belongs to a stored user is refused (OAuthAccountNotLinked) unless the
 * provider allows dangerous email linking, and a signed-in user who signs in with another
 * provider gets that account linked, with both session strategies.
 */
import { jest } from "@jest/globals"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import type { EventCallbacks } from "../../lib/types.js"
import type { TestIdp } from "../helpers/idp.js"
import { client, cookieValue, expectSignInError, loggedTypes, oauthSuite, oidc, sessionOf, signInFlow, startSite, SESSION_COOKIE, type SiteOptions } from "./support.js"

oauthSuite()

/** Two providers on the same IdP ("idp" and "other"), two clients. */
function twoProviders(idp: TestIdp, linking = false) {
  return [oidc(idp, { allowDangerousEmailAccountLinking: linking }), oidc(idp, { id: "other", name: "Other", clientId: "other-client" })]
}

async function linkingSite(options: { strategy?: "database" | "cookie"; linking?: boolean; accounts?: SiteOptions["accounts"] } = {}) {
  const adapter = MemoryAdapter()
  const events = { createUser: jest.fn(), linkAccount: jest.fn(), signIn: jest.fn() }
  const site = await startSite({
    clients: (url) => [client(url), client(url, { client_id: "other-client" }, "other")],
    providers: (idp) => twoProviders(idp, options.linking),
    accounts: options.accounts,
    config: () => ({ adapter, events: events as EventCallbacks, session: { strategy: options.strategy ?? "database" } }),
  })
  return { site, adapter, events }
}

/**
 * A user who signed up some other way (say, by email, which proves the address) with alice's
 * address. (An unproven one is reclaimed by a vouched sign-in: __tests__/security/account-takeover.test.ts.)
 */
async function existingAlice(adapter: MemoryAdapterInstance) {
  return adapter.createUser({ id: "stored-alice", name: "Alice (stored)", email: "alice@example.com", emailVerified: new Date(), image: null })
}

describe("first and later sign-ins", () => {
  test("the first sign-in creates the user with the account; the next finds that user", async () => {
    const { site, adapter, events } = await linkingSite()
    await signInFlow(site, site.agent())
    await signInFlow(site, site.agent())
    expect(adapter.store.users.size).toBe(1)
    expect(adapter.store.accounts.size).toBe(1)
    expect(adapter.store.sessions.size).toBe(2)
    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(events.linkAccount).toHaveBeenCalledTimes(1)
    expect(events.signIn.mock.calls.map(([message]) => (message as { isNewUser?: boolean }).isNewUser)).toEqual([true, false])
  })
})

describe("an account whose email belongs to a stored user", () => {
  test("is refused with OAuthAccountNotLinked: nothing linked, no session", async () => {
    const { site, adapter, events } = await linkingSite()
    await existingAlice(adapter)
    const agent = site.agent()
    const flow = await signInFlow(site, agent)
    expectSignInError(site, flow.callback, "OAuthAccountNotLinked")
    expect(cookieValue(flow.callback, SESSION_COOKIE)).toBeUndefined()
    expect(loggedTypes(site)).toEqual(["OAuthAccountNotLinked"])
    expect(adapter.store.accounts.size).toBe(0)
    expect(adapter.store.users.size).toBe(1)
    expect(adapter.store.sessions.size).toBe(0)
    expect(events.linkAccount).not.toHaveBeenCalled()
    expect(events.signIn).not.toHaveBeenCalled()
    expect(await sessionOf(agent)).toBeNull()
  })

  test("is linked to that user when the provider sets allowDangerousEmailAccountLinking", async () => {
    const { site, adapter, events } = await linkingSite({ linking: true })
    const stored = await existingAlice(adapter)
    const agent = site.agent()
    const flow = await signInFlow(site, agent)
    expect(flow.callback.headers.location).toBe(`${site.url}/`)
    expect([...adapter.store.accounts.values()]).toEqual([expect.objectContaining({ provider: "idp", providerAccountId: "alice", userId: stored.id })])
    expect(adapter.store.users.size).toBe(1)
    expect(events.createUser).not.toHaveBeenCalled()
    expect(events.linkAccount).toHaveBeenCalledTimes(1)
    expect(events.linkAccount).toHaveBeenCalledWith({
      user: expect.objectContaining({ id: stored.id, email: "alice@example.com" }),
      account: expect.objectContaining({ provider: "idp", providerAccountId: "alice", userId: stored.id }),
      profile: expect.objectContaining({ sub: "alice", email: "alice@example.com" }),
    })
    expect((await sessionOf(agent))?.user).toMatchObject({ name: "Alice (stored)", email: "alice@example.com" })
  })

  test("is still refused with allowDangerousEmailAccountLinking when the provider marks the email unverified", async () => {
    const { site, adapter } = await linkingSite({ linking: true, accounts: { alice: { email: "alice@example.com", email_verified: false, name: "Alice" } } })
    await existingAlice(adapter)
    const flow = await signInFlow(site, site.agent())
    expectSignInError(site, flow.callback, "OAuthAccountNotLinked")
    expect(adapter.store.accounts.size).toBe(0)
  })
})

describe.each(["database", "cookie"] as const)("a signed-in user (%s sessions)", (strategy) => {
  test("who signs in with another provider gets that account linked and stays signed in", async () => {
    const { site, adapter, events } = await linkingSite({ strategy })
    const agent = site.agent()
    await signInFlow(site, agent)
    const [user] = [...adapter.store.users.values()]
    // Another provider, another identity at the IdP (another email): linked to the signed-in user.
    const second = await signInFlow(site, agent, { id: "other", login: "bob" })
    expect(second.callback.headers.location).toBe(`${site.url}/`)
    expect(adapter.store.users.size).toBe(1)
    expect([...adapter.store.accounts.values()].map(({ provider, providerAccountId, userId }) => ({ provider, providerAccountId, userId }))).toEqual([
      { provider: "idp", providerAccountId: "alice", userId: user?.id },
      { provider: "other", providerAccountId: "bob", userId: user?.id },
    ])
    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(events.linkAccount).toHaveBeenCalledTimes(2)
    expect(events.linkAccount).toHaveBeenLastCalledWith({
      user: expect.objectContaining({ id: user?.id, email: "alice@example.com" }),
      account: expect.objectContaining({ provider: "other", providerAccountId: "bob", userId: user?.id }),
      profile: expect.objectContaining({ sub: "bob", email: "bob@example.com" }),
    })
    expect(events.signIn).toHaveBeenLastCalledWith(expect.objectContaining({ isNewUser: false, user: expect.objectContaining({ id: user?.id }) }))
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")

    // Either account now signs in as that user.
    const fresh = site.agent()
    await signInFlow(site, fresh, { id: "other", login: "bob" })
    expect((await sessionOf(fresh))?.user?.email).toBe("alice@example.com")
  })

  test("is refused (OAuthAccountNotLinked) an account already linked to someone else, and keeps their session", async () => {
    const { site, adapter } = await linkingSite({ strategy })
    await signInFlow(site, site.agent(), { login: "alice" })
    const agent = site.agent()
    await signInFlow(site, agent, { login: "bob" })
    const again = await signInFlow(site, agent, { login: "alice" })
    expectSignInError(site, again.callback, "OAuthAccountNotLinked")
    expect(adapter.store.accounts.size).toBe(2)
    expect((await sessionOf(agent))?.user?.email).toBe("bob@example.com")
  })
})
