/**
 * Passkey sign-in over HTTP: the passkey found by credential id, the assertion verified, the new
 * counter stored, the session started for its user (database and cookie strategies), callbacks
 * and events as for other providers, and FIX-01 b (a planted session is never adopted).
 */
import { describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import WebAuthn from "../../lib/providers/webauthn.js"
import type { JWT } from "../../lib/types.js"
import { ALICE, BOB, Browser, buildApp, expectSignedIn, findCookie, isCleared, names, passkeySignIn, seedPasskey, seedUser, softFor, storedCounter } from "./fixtures.js"

const ORIGIN = "https://app.test:3443/"
const { session: SESSION, csrf: CSRF } = names()

async function withAlice(config: Parameters<typeof buildApp>[0] = {}, counter = 5) {
  const built = buildApp(config)
  const soft = softFor()
  await seedUser(built.adapter, ALICE)
  await seedPasskey(built.adapter, ALICE.id, soft, counter)
  return { ...built, soft }
}

describe("a passkey sign-in", () => {
  it("finds the passkey by credential id, stores the new counter and starts a database session for its user", async () => {
    const adapter = MemoryAdapter()
    const getAuthenticator = jest.spyOn(adapter, "getAuthenticator")
    const recordUse = jest.spyOn(adapter, "updateAuthenticator")
    const { app, soft } = await withAlice({ adapter })
    const browser = new Browser(app)
    const { res } = await passkeySignIn(browser, soft)
    expectSignedIn(res, undefined, ORIGIN)
    expect(getAuthenticator).toHaveBeenCalledWith(soft.id)
    // The counter and the time of this use, in one write (the account page shows "last used").
    expect(recordUse).toHaveBeenCalledTimes(1)
    expect(recordUse).toHaveBeenCalledWith(soft.id, { counter: 6, lastUsedAt: expect.any(Date) })
    expect(storedCounter(adapter, soft.id)).toBe(6)
    expect(Date.now() - adapter.store.authenticators.get(soft.id)!.lastUsedAt!.getTime()).toBeLessThan(10_000)
    const token = findCookie(res, SESSION)!.value!
    expect(adapter.store.sessions.get(token)?.userId).toBe(ALICE.id)
    expect((await browser.session())?.user).toMatchObject({ email: ALICE.email, name: ALICE.name })
    expect((await browser.get("/api/me", { Accept: "application/json" })).status).toBe(200)
  })

  it("the signIn callback and event get the user and the webauthn account (not a new user); the csrf token rotates", async () => {
    const signInCallback = jest.fn<(params: unknown) => boolean>(() => true)
    const signInEvent = jest.fn<(message: unknown) => void>()
    const { app, soft } = await withAlice({ config: { callbacks: { signIn: signInCallback }, events: { signIn: signInEvent } } })
    const browser = new Browser(app)
    const before = await browser.csrf()
    const { res } = await passkeySignIn(browser, soft)
    expectSignedIn(res)
    const account = expect.objectContaining({ type: "webauthn", provider: "passkey", providerAccountId: soft.id, userId: ALICE.id })
    expect(signInCallback).toHaveBeenCalledTimes(1)
    expect(signInCallback).toHaveBeenCalledWith(expect.objectContaining({ user: expect.objectContaining({ id: ALICE.id, email: ALICE.email }), account }))
    expect(signInEvent).toHaveBeenCalledTimes(1)
    expect(signInEvent).toHaveBeenCalledWith(expect.objectContaining({ user: expect.objectContaining({ id: ALICE.id }), account }))
    expect(signInEvent.mock.calls[0]![0]).not.toMatchObject({ isNewUser: true })
    const rotated = findCookie(res, CSRF)
    expect(rotated?.value).toBeTruthy()
    expect(rotated?.value?.split("|")[0]).not.toBe(before)
  })

  it("cookie strategy: the jwt callback runs with trigger signIn and the user's sub; no session row", async () => {
    const jwt = jest.fn(({ token }: { token: JWT }) => token)
    const { app, adapter, soft } = await withAlice({ config: { session: { strategy: "cookie" }, callbacks: { jwt } } })
    const browser = new Browser(app)
    expectSignedIn((await passkeySignIn(browser, soft)).res)
    expect(jwt).toHaveBeenCalledWith(expect.objectContaining({ trigger: "signIn", token: expect.objectContaining({ sub: ALICE.id, email: ALICE.email }) }))
    expect(adapter.store.sessions.size).toBe(0)
    expect((await browser.session())?.user?.email).toBe(ALICE.email)
  })

  it("a same-site callbackUrl is honoured; another site's goes to the origin", async () => {
    const { app, soft } = await withAlice()
    expectSignedIn((await passkeySignIn(new Browser(app), soft, {}, { callbackUrl: "/dashboard" })).res, undefined, "https://app.test:3443/dashboard")
    expectSignedIn((await passkeySignIn(new Browser(app), soft, {}, { callbackUrl: "https://evil.example/x" })).res, undefined, ORIGIN)
  })

  it("passkeys whose counter stays 0 sign in again and again with new challenges (WA-04 true negative)", async () => {
    const { app, adapter, soft } = await withAlice({}, 0)
    soft.counting = false
    for (let round = 0; round < 3; round++) {
      const browser = new Browser(app)
      expectSignedIn((await passkeySignIn(browser, soft)).res)
      expect((await browser.session())?.user?.email).toBe(ALICE.email)
    }
    expect(storedCounter(adapter, soft.id)).toBe(0)
  })

  it("a response without userHandle (a non-discoverable credential) is identified by its credential id", async () => {
    const { app, adapter } = buildApp({ providers: [WebAuthn()] })
    const soft = softFor()
    await seedUser(adapter, ALICE)
    await seedPasskey(adapter, ALICE.id, soft, 0, "webauthn")
    const browser = new Browser(app)
    const options = await browser.options("action=authenticate", "webauthn")
    const res = await browser.callback("authenticate", soft.authenticate(options.body.options, { userHandle: null }), {}, "webauthn")
    expectSignedIn(res)
    expect((await browser.session())?.user?.email).toBe(ALICE.email)
  })
})

describe("FIX-01 b: a passkey sign-in never adopts a planted session", () => {
  it("mallory's genuine session in alice's browser: alice gets a new token, mallory's still maps to mallory only", async () => {
    const { app, adapter, soft } = await withAlice()
    const mallory = softFor()
    await seedUser(adapter, BOB)
    await seedPasskey(adapter, BOB.id, mallory, 0)
    const attacker = new Browser(app)
    expectSignedIn((await passkeySignIn(attacker, mallory)).res)
    const planted = attacker.jar.get(SESSION)!
    const victim = new Browser(app)
    victim.jar.set(SESSION, planted)
    const { res } = await passkeySignIn(victim, soft)
    expectSignedIn(res)
    const token = findCookie(res, SESSION)!.value!
    expect(token).not.toBe(planted)
    expect((await victim.session())?.user?.email).toBe(ALICE.email)
    expect(adapter.store.sessions.get(planted)?.userId).toBe(BOB.id)
    expect(adapter.store.sessions.get(token)?.userId).toBe(ALICE.id)
    expect((await attacker.session())?.user?.email).toBe(BOB.email)
    expect((await adapter.listAuthenticatorsByUserId(ALICE.id)).map((a) => a.credentialID)).toEqual([soft.id])
    expect([...adapter.store.accounts.values()].filter((a) => a.userId === ALICE.id).map((a) => a.providerAccountId)).toEqual([soft.id])
  })

  it("a planted unknown token is replaced by a fresh random one, never stored", async () => {
    const { app, adapter, soft } = await withAlice()
    const browser = new Browser(app)
    const planted = "0".repeat(64)
    browser.jar.set(SESSION, planted)
    const { res } = await passkeySignIn(browser, soft)
    expectSignedIn(res)
    expect(findCookie(res, SESSION)!.value).not.toBe(planted)
    expect(adapter.store.sessions.has(planted)).toBe(false)
  })

  it("signing in again as the same user replaces the previous database session", async () => {
    const { app, adapter, soft } = await withAlice()
    const browser = new Browser(app)
    expectSignedIn((await passkeySignIn(browser, soft)).res)
    const first = browser.jar.get(SESSION)!
    const again = (await passkeySignIn(browser, soft)).res
    expectSignedIn(again)
    expect(findCookie(again, SESSION)!.value).not.toBe(first)
    expect(isCleared(findCookie(again, SESSION))).toBe(false)
    expect(adapter.store.sessions.has(first)).toBe(false)
    expect(storedCounter(adapter, soft.id)).toBe(7)
  })
})
