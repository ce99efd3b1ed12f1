/**
 * The signIn callback (twice: when the link is asked for, with `email: { verificationRequest:
 * true }`, and when it is followed, without) and the events of a magic-link sign-in.
 */
import { describe, expect, it, jest } from "@jest/globals"
import type { AdapterUser } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import { ALICE, askForLink, expectError, follow, location, mailFor, sessionCookie, sessionOf, signInByEmail, startSite } from "./support.js"

type SignIn = NonNullable<NonNullable<AuthConfig["callbacks"]>["signIn"]>
type Verdict = boolean | string

function signInCallback(verdicts: Verdict[] | ((call: number) => Verdict)) {
  let call = 0
  return jest.fn<SignIn>(async () => {
    const index = call++
    return typeof verdicts === "function" ? verdicts(index) : (verdicts[index] ?? true)
  })
}

const account = (userId: unknown) => ({ type: "email", provider: "nodemailer", providerAccountId: ALICE, userId })

describe("the signIn callback", () => {
  it("runs with email.verificationRequest true when the link is asked for, and without it when followed", async () => {
    const signIn = signInCallback([true, true])
    const site = await startSite({ config: { callbacks: { signIn } } })
    const agent = site.agent()
    const { link } = await mailFor(site, agent, "  ALICE@example.com")
    expect(signIn).toHaveBeenCalledTimes(1)
    const first = signIn.mock.calls[0]![0] as unknown as Record<string, unknown>
    expect(first.email).toEqual({ verificationRequest: true })
    expect(first.user).toEqual(expect.objectContaining({ email: ALICE }))
    expect(first.account).toEqual(account((first.user as { id: unknown }).id))
    await follow(agent, link)
    expect(signIn).toHaveBeenCalledTimes(2)
    const second = signIn.mock.calls[1]![0] as unknown as Record<string, unknown>
    expect(second).not.toHaveProperty("email")
    expect(second.user).toEqual(expect.objectContaining({ email: ALICE }))
    expect(second.account).toEqual(account((second.user as { id: unknown }).id))
    expect((await sessionOf(agent))?.user?.email).toBe(ALICE)
  })

  it("for a stored user, both calls receive that user", async () => {
    const signIn = signInCallback([true, true])
    const site = await startSite({ config: { callbacks: { signIn } } })
    const stored = await site.memory.createUser({ id: "u-alice", email: ALICE, emailVerified: null, name: "Alice" } as AdapterUser)
    await signInByEmail(site, site.agent(), ALICE)
    for (const [args] of signIn.mock.calls) expect((args as { user: unknown }).user).toEqual(expect.objectContaining({ id: stored.id, email: ALICE }))
  })

  it("false when the link is asked for: AccessDenied, no mail, no token", async () => {
    const signIn = signInCallback([false])
    const site = await startSite({ config: { callbacks: { signIn } } })
    expectError(await askForLink(site.agent(), ALICE), "error", "AccessDenied")
    expect(site.smtp.messages).toHaveLength(0)
    expect(site.memory.store.tokens.size).toBe(0)
    expect(site.memory.store.users.size).toBe(0)
  })

  it("a URL when the link is asked for: redirect there, no mail, no token", async () => {
    const signIn = signInCallback(["/not-allowed?reason=domain"])
    const site = await startSite({ config: { callbacks: { signIn } } })
    const url = location(await askForLink(site.agent(), ALICE))
    expect(url.href).toBe(`${site.url}/not-allowed?reason=domain`)
    expect(site.smtp.messages).toHaveLength(0)
    expect(site.memory.store.tokens.size).toBe(0)
  })

  it("a foreign URL from the callback still goes through the redirect rules", async () => {
    const signIn = signInCallback(["https://evil.example/phish"])
    const site = await startSite({ config: { callbacks: { signIn } } })
    const url = location(await askForLink(site.agent(), ALICE))
    expect(url.origin).toBe(site.url)
    expect(site.smtp.messages).toHaveLength(0)
  })

  it("a throw when the link is asked for: AccessDenied, no mail, no token", async () => {
    const signIn = jest.fn<SignIn>(async () => {
      throw new Error("blocked domain")
    })
    const site = await startSite({ config: { callbacks: { signIn } } })
    expectError(await askForLink(site.agent(), ALICE), "error", "AccessDenied")
    expect(site.smtp.messages).toHaveLength(0)
    expect(site.memory.store.tokens.size).toBe(0)
  })

  it("false when the link is followed: AccessDenied, no session, no user", async () => {
    const signIn = signInCallback([true, false])
    const createUser = jest.fn<(message: unknown) => void>()
    const site = await startSite({ config: { callbacks: { signIn }, events: { createUser } } })
    const agent = site.agent()
    const response = await signInByEmail(site, agent, ALICE)
    expectError(response, "error", "AccessDenied")
    expect(sessionCookie(response)).toBeUndefined()
    expect(await sessionOf(agent)).toBeNull()
    expect(site.memory.store.users.size).toBe(0)
    expect(site.memory.store.sessions.size).toBe(0)
    expect(createUser).not.toHaveBeenCalled()
  })

  it("a URL when the link is followed: redirect there, no session", async () => {
    const signIn = signInCallback([true, "/pending-approval"])
    const site = await startSite({ config: { callbacks: { signIn } } })
    const agent = site.agent()
    const response = await signInByEmail(site, agent, ALICE)
    expect(location(response).href).toBe(`${site.url}/pending-approval`)
    expect(sessionCookie(response)).toBeUndefined()
    expect(await sessionOf(agent)).toBeNull()
    expect(site.memory.store.sessions.size).toBe(0)
  })
})

describe("events", () => {
  function spies() {
    const event = () => jest.fn<(message: unknown) => void>()
    return { createUser: event(), updateUser: event(), linkAccount: event(), signIn: event() }
  }

  it("a first sign-in fires createUser, linkAccount (type email, the address as providerAccountId) and signIn", async () => {
    const events = spies()
    const site = await startSite({ config: { events } })
    await signInByEmail(site, site.agent(), ALICE)
    const [user] = [...site.memory.store.users.values()]
    expect(user!.emailVerified).toBeInstanceOf(Date)
    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(events.createUser).toHaveBeenCalledWith({ user: expect.objectContaining({ id: user!.id, email: ALICE, emailVerified: expect.any(Date) }) })
    expect(events.linkAccount).toHaveBeenCalledTimes(1)
    expect(events.linkAccount).toHaveBeenCalledWith(expect.objectContaining({ user: expect.objectContaining({ id: user!.id }), account: account(user!.id) }))
    expect(events.updateUser).not.toHaveBeenCalled()
    expect(events.signIn).toHaveBeenCalledTimes(1)
    expect(events.signIn).toHaveBeenCalledWith(expect.objectContaining({ user: expect.objectContaining({ id: user!.id }), account: account(user!.id), isNewUser: true }))
  })

  it("a second sign-in fires updateUser and signIn (isNewUser false), no createUser or linkAccount", async () => {
    const events = spies()
    const site = await startSite({ config: { events } })
    await signInByEmail(site, site.agent(), ALICE)
    for (const spy of Object.values(events)) spy.mockClear()
    await signInByEmail(site, site.agent(), ALICE)
    expect(events.createUser).not.toHaveBeenCalled()
    expect(events.linkAccount).not.toHaveBeenCalled()
    expect(events.updateUser).toHaveBeenCalledTimes(1)
    expect(events.signIn).toHaveBeenCalledWith(expect.objectContaining({ isNewUser: false }))
  })

  it("a stored user without the email account is marked verified (updateUser) and gets it linked (linkAccount)", async () => {
    const events = spies()
    const site = await startSite({ config: { events } })
    await site.memory.createUser({ id: "u-alice", email: ALICE, emailVerified: null, name: "Alice" } as AdapterUser)
    const agent = site.agent()
    await signInByEmail(site, agent, ALICE)
    const stored = site.memory.store.users.get("u-alice")!
    expect(site.memory.store.users.size).toBe(1)
    expect(stored.emailVerified).toBeInstanceOf(Date)
    expect(stored.name).toBe("Alice")
    expect(events.createUser).not.toHaveBeenCalled()
    expect(events.updateUser).toHaveBeenCalledWith({ user: expect.objectContaining({ id: "u-alice", emailVerified: expect.any(Date) }) })
    expect(events.linkAccount).toHaveBeenCalledWith(expect.objectContaining({ account: account("u-alice") }))
    expect([...site.memory.store.accounts.values()]).toEqual([account("u-alice")])
    expect(events.signIn).toHaveBeenCalledWith(expect.objectContaining({ user: expect.objectContaining({ id: "u-alice" }), isNewUser: false }))
    expect((await sessionOf(agent))?.user).toEqual(expect.objectContaining({ email: ALICE, name: "Alice" }))
  })

  it("under the cookie strategy the jwt callback sees trigger signUp, then signIn", async () => {
    const jwt = jest.fn(async ({ token }: { token: Record<string, unknown> }) => token)
    const site = await startSite({ config: { session: { strategy: "cookie" }, callbacks: { jwt } } })
    await signInByEmail(site, site.agent(), ALICE)
    await signInByEmail(site, site.agent(), ALICE)
    const triggers = jwt.mock.calls.map(([args]) => (args as { trigger?: string }).trigger).filter(Boolean)
    expect(triggers).toEqual(["signUp", "signIn"])
  })

  it("pages.newUser receives a first sign-in, with the callbackUrl", async () => {
    const site = await startSite({ config: { pages: { newUser: "/welcome" } } })
    const first = location(await signInByEmail(site, site.agent(), ALICE, { callbackUrl: "/dashboard" }))
    expect(`${first.origin}${first.pathname}`).toBe(`${site.url}/welcome`)
    expect(first.searchParams.get("callbackUrl")).toBe(`${site.url}/dashboard`)
    const second = location(await signInByEmail(site, site.agent(), ALICE, { callbackUrl: "/dashboard" }))
    expect(second.href).toBe(`${site.url}/dashboard`)
  })
})
