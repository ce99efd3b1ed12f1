/**
 * Issue #12 for OAuth/OIDC, against the real OpenID provider: an address counts as proven only when
 * the provider vouches for it (`email_verified: true`, or a provider's documented rule). A missing
 * claim is "not verified": it never links to another user, even with
 * `allowDangerousEmailAccountLinking`, and the user it creates stays unproven until a vouched
 * sign-in takes the address back (the squatter's account removed, their session ended).
 */
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { client, cookieValue, expectSignInError, oauthSuite, oidc, sessionOf, signInFlow, startSite, SESSION_COOKIE } from "./support.js"

oauthSuite()

const VICTIM = "victim@example.com"
const ACCOUNTS = {
  // Says nothing about the address: an IdP (or a multi-tenant one) where anyone can type it.
  squatter: { email: VICTIM, name: "Squatter" },
  // The real owner, at a provider that vouches for the address.
  owner: { email: VICTIM, email_verified: true, name: "Owner" },
}

async function trustSite(options: { linking?: boolean; strategy?: "database" | "jwt"; config?: Partial<AuthConfig> } = {}) {
  const adapter = MemoryAdapter()
  const site = await startSite({
    clients: (url) => [client(url)],
    providers: (idp) => [oidc(idp, { allowDangerousEmailAccountLinking: options.linking ?? false })],
    accounts: ACCOUNTS,
    config: () => ({ adapter, session: { strategy: options.strategy ?? "database" }, ...options.config }),
  })
  return { site, adapter }
}

const userOf = async (adapter: MemoryAdapterInstance) => (await adapter.getUserByEmail(VICTIM))!

describe("what a profile's email_verified means", () => {
  test("missing: the new user is stored unproven (emailVerified null); true: proven", async () => {
    const { site, adapter } = await trustSite()
    await signInFlow(site, site.agent(), { login: "squatter" })
    expect((await userOf(adapter)).emailVerified).toBeNull()

    const other = await trustSite()
    await signInFlow(other.site, other.site.agent(), { login: "owner" })
    expect((await userOf(other.adapter)).emailVerified).toBeInstanceOf(Date)
  })

  test("missing, with allowDangerousEmailAccountLinking: never linked to the proven user who has that address", async () => {
    const { site, adapter } = await trustSite({ linking: true })
    await adapter.createUser({ id: "proven", email: VICTIM, emailVerified: new Date(), name: "Victim", image: null })
    const flow = await signInFlow(site, site.agent(), { login: "squatter" })
    expectSignInError(site, flow.callback, "OAuthAccountNotLinked")
    expect(cookieValue(flow.callback, SESSION_COOKIE)).toBeUndefined()
    expect(adapter.store.accounts.size).toBe(0)
  })

  test("true, with allowDangerousEmailAccountLinking: linked to the proven user (the documented opt-in)", async () => {
    const { site, adapter } = await trustSite({ linking: true })
    await adapter.createUser({ id: "proven", email: VICTIM, emailVerified: new Date(), name: "Victim", image: null })
    const agent = site.agent()
    await signInFlow(site, agent, { login: "owner" })
    expect([...adapter.store.accounts.values()].map((account) => account.userId)).toEqual(["proven"])
    expect((await sessionOf(agent))?.user?.email).toBe(VICTIM)
  })
})

describe.each(["database", "jwt"] as const)("a squatter's unvouched OAuth account meets the owner's vouched sign-in (%s sessions)", (strategy) => {
  test("reclaim: the squatter's account is removed and their session ended; the owner is told, and the squatter cannot get back in", async () => {
    const { site, adapter } = await trustSite({ strategy })
    const squatter = site.agent()
    await signInFlow(site, squatter, { login: "squatter" })
    expect((await sessionOf(squatter))?.user?.email).toBe(VICTIM)
    const squatted = await userOf(adapter)

    const owner = site.agent()
    const flow = await signInFlow(site, owner, { login: "owner" })
    const to = new URL(flow.callback.headers.location!, site.url)
    expect(to.pathname).toBe("/auth/notice")
    expect(to.searchParams.get("type")).toBe("AccountReclaimed")
    expect((await sessionOf(owner))?.user?.email).toBe(VICTIM)
    const user = await userOf(adapter)
    expect(user.id).toBe(squatted.id)
    expect(user.emailVerified).toBeInstanceOf(Date)
    expect((await adapter.listAccountsByUserId(user.id)).map((account) => account.providerAccountId)).toEqual(["owner"])

    expect(await sessionOf(squatter)).toBeNull()
    const back = await signInFlow(site, site.agent(), { login: "squatter" })
    expectSignInError(site, back.callback, "OAuthAccountNotLinked")
  })

  test("refuse: the owner gets UnverifiedAccountExists and the squatter's account stays", async () => {
    const { site, adapter } = await trustSite({ strategy, config: { accountLinking: { unverifiedEmail: "refuse" } } })
    await signInFlow(site, site.agent(), { login: "squatter" })
    const flow = await signInFlow(site, site.agent(), { login: "owner" })
    expectSignInError(site, flow.callback, "UnverifiedAccountExists")
    expect([...adapter.store.accounts.values()].map((account) => account.providerAccountId)).toEqual(["squatter"])
  })
})

test("an unproven user with no other way in is simply proven by the vouched sign-in (no notice, no OAuthAccountNotLinked for ever)", async () => {
  const { site, adapter } = await trustSite()
  await adapter.createUser({ id: "unproven", email: VICTIM, emailVerified: null, name: null, image: null })
  const agent = site.agent()
  const flow = await signInFlow(site, agent, { login: "owner" })
  expect(new URL(flow.callback.headers.location!, site.url).pathname).toBe("/")
  expect((await userOf(adapter)).emailVerified).toBeInstanceOf(Date)
  expect((await sessionOf(agent))?.user?.email).toBe(VICTIM)
})
