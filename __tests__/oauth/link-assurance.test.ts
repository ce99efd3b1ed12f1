/**
 * Issue #24, chain 1 (the OAuth link flow's "started by") replayed against the real OpenID
 * provider: linking a provider account to the signed-in user is a new way into that account, so
 * only a live, recent session may do it. Before the fix, a signed-out copy of a cookie session
 * linked its holder's own provider account to the user (a permanent way in), and an old session
 * linked one at any age.
 */
import { jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { TestIdp } from "../helpers/idp.js"
import { plant } from "../email/support.js"
import { client, cookieValue, expectSignInError, oauthSuite, oidc, sessionOf, signInFlow, startSite, SESSION_COOKIE } from "./support.js"

oauthSuite()
afterEach(() => {
  jest.useRealTimers()
})

function twoProviders(idp: TestIdp) {
  return [oidc(idp), oidc(idp, { id: "other", name: "Other", clientId: "other-client" })]
}

async function linkingSite(strategy: "database" | "cookie") {
  const adapter = MemoryAdapter()
  const site = await startSite({
    clients: (url) => [client(url), client(url, { client_id: "other-client" }, "other")],
    providers: (idp) => twoProviders(idp),
    config: () => ({ adapter, session: { strategy } }),
  })
  return { site, adapter }
}

const linked = (adapter: ReturnType<typeof MemoryAdapter>) => [...adapter.store.accounts.values()].map(({ provider, providerAccountId, userId }) => ({ provider, providerAccountId, userId }))

describe.each(["database", "cookie"] as const)("linking a provider to the signed-in user (%s sessions)", (strategy) => {
  test("a signed-out copy of the session cookie links nothing: the holder's provider account signs in as its own user", async () => {
    const { site, adapter } = await linkingSite(strategy)
    const owner = site.agent()
    const first = await signInFlow(site, owner)
    const copied = cookieValue(first.callback, SESSION_COOKIE)
    expect(copied).toBeTruthy()
    const alice = [...adapter.store.users.values()][0]!
    const csrf = (await owner.get("/auth/csrf").expect(200)).body.csrfToken as string
    await owner.post("/auth/signout").type("form").send({ csrfToken: csrf }).expect(302)

    // The thief's browser holds the copy and signs in with his own account at the other provider.
    const thief = site.agent()
    plant(thief, SESSION_COOKIE, copied as string)
    const flow = await signInFlow(site, thief, { id: "other", login: "bob" })
    expect(flow.callback.status).toBe(302)
    expect(linked(adapter).filter((account) => account.userId === alice.id)).toEqual([{ provider: "idp", providerAccountId: "alice", userId: alice.id }])
    // Bob is signed in as himself, never as Alice.
    expect((await sessionOf(thief))?.user?.email).toBe("bob@example.com")
  })

  test("a session older than the recent-sign-in window is refused the link (RecentSignInRequired); a recent one links", async () => {
    const { site, adapter } = await linkingSite(strategy)
    const agent = site.agent()
    await signInFlow(site, agent)
    const alice = [...adapter.store.users.values()][0]!

    // Eleven minutes on (the IdP and the app share the clock): the link is refused, nothing stored.
    jest.useFakeTimers({ doNotFake: ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"], now: Date.now() + 11 * 60 * 1000 })
    const stale = await signInFlow(site, agent, { id: "other", login: "bob" })
    expectSignInError(site, stale.callback, "RecentSignInRequired")
    expect(linked(adapter)).toEqual([{ provider: "idp", providerAccountId: "alice", userId: alice.id }])
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
    jest.useRealTimers()

    // Signed in again just now: the same link goes through.
    const fresh = site.agent()
    await signInFlow(site, fresh)
    const linkedNow = await signInFlow(site, fresh, { id: "other", login: "bob" })
    expect(linkedNow.callback.headers.location).toBe(`${site.url}/`)
    expect(linked(adapter)).toEqual([
      { provider: "idp", providerAccountId: "alice", userId: alice.id },
      { provider: "other", providerAccountId: "bob", userId: alice.id },
    ])
  })
})
