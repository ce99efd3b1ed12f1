/**
 * WA-06 (SECURITY-CATALOG.md §10): a registration can never attach a passkey to someone else's
 * account: not for an existing user while signed out, not by re-registering a credential id
 * someone already has, not with a challenge another session asked for; malformed registration
 * responses are refused with a named error, never a 5xx. The authenticator table grows only for
 * the legitimate registration.
 */
import { describe, expect, it } from "@jest/globals"
import { ALICE, BOB, Browser, buildApp, expectPasskeyAdded, expectRefused, expectSignedIn, names, passkeySignIn, passkeySignUp, seedPasskey, seedUser, softFor } from "./fixtures.js"

const { challenge: CHALLENGE } = names()

/** alice and mallory (bob's record), each with one passkey; mallory signed in in her own browser. */
async function setup() {
  const built = buildApp()
  const alicePasskey = softFor()
  const malloryPasskey = softFor()
  await seedUser(built.adapter, ALICE)
  await seedPasskey(built.adapter, ALICE.id, alicePasskey, 1)
  await seedUser(built.adapter, BOB)
  await seedPasskey(built.adapter, BOB.id, malloryPasskey, 1)
  const alice = new Browser(built.app)
  expectSignedIn((await passkeySignIn(alice, alicePasskey)).res)
  const mallory = new Browser(built.app)
  expectSignedIn((await passkeySignIn(mallory, malloryPasskey)).res)
  const owned = async (userId: string) => (await built.adapter.listAuthenticatorsByUserId(userId)).map((a) => a.credentialID).sort()
  return { ...built, alicePasskey, malloryPasskey, alice, mallory, owned }
}

describe("WA-06 (a) signed out, no registration for an existing user", () => {
  it.each(["bob%40example.com", "BOB%40Example.com", "bob%40example.com%20", "%20bob%40example.com"])(
    "?action=register&email=%s is refused with a named error and no challenge",
    async (email) => {
      const { app, adapter } = await setup()
      const res = await new Browser(app).options(`action=register&email=${email}`)
      expect(res.status).toBe(400)
      expect(res.body.error.type).toBe("WebAuthnVerificationError")
      expect(res.body.options).toBeUndefined()
      expect(res.headers["set-cookie"] ?? []).not.toEqual(expect.arrayContaining([expect.stringContaining(CHALLENGE)]))
      expect(adapter.store.authenticators.size).toBe(2)
    },
  )

  it("without action, bob's email (any case) authenticates: the options carry no user and no registration", async () => {
    const { app } = await setup()
    const res = await new Browser(app).options("email=BOB%40Example.com")
    expect(res.body.action).toBe("authenticate")
    expect(res.body.options.user).toBeUndefined()
  })
})

describe("WA-06 (b) a credential id already registered", () => {
  it("alice's new passkey re-registered from mallory's session is refused and stays alice's only", async () => {
    const { app, adapter, alice, mallory, alicePasskey, malloryPasskey, owned } = await setup()
    const shared = softFor()
    const forAlice = await alice.options("")
    expect(forAlice.body.action).toBe("register")
    expectPasskeyAdded(await alice.callback("register", shared.register(forAlice.body.options)))
    const forMallory = await mallory.options("")
    expect(forMallory.body.options.user.id).not.toBe(forAlice.body.options.user.id)
    const res = await mallory.callback("register", shared.register(forMallory.body.options))
    await expectRefused(res, mallory, { signedOut: false })
    expect((await mallory.session())?.user?.email).toBe(BOB.email)
    expect(await owned(ALICE.id)).toEqual([alicePasskey.id, shared.id].sort())
    expect(await owned(BOB.id)).toEqual([malloryPasskey.id])
    expect([...adapter.store.accounts.values()].filter((a) => a.providerAccountId === shared.id).map((a) => a.userId)).toEqual([ALICE.id])
    // The authenticator answers with the handle of the registration that was stored (alice's).
    shared.userHandle = forAlice.body.options.user.id
    const signedIn = new Browser(app)
    expectSignedIn((await passkeySignIn(signedIn, shared)).res)
    expect((await signedIn.session())?.user?.email).toBe(ALICE.email)
  })

  it("alice's credential registered again as a new user is refused, and no user is created", async () => {
    const { app, adapter, alicePasskey } = await setup()
    const browser = new Browser(app)
    const { res } = await passkeySignUp(browser, alicePasskey, "newcomer@example.com")
    await expectRefused(res, browser)
    expect(adapter.store.users.size).toBe(2)
    expect(adapter.store.authenticators.get(alicePasskey.id)?.userId).toBe(ALICE.id)
  })
})

describe("WA-06 (c) a challenge bound to the session that asked for it", () => {
  it("alice posting a registration over mallory's challenge cookie is refused; nothing is stored for either", async () => {
    const { adapter, alice, mallory, alicePasskey, malloryPasskey, owned } = await setup()
    const forMallory = await mallory.options("")
    expect(forMallory.body.action).toBe("register")
    alice.jar.set(CHALLENGE, mallory.jar.get(CHALLENGE)!)
    const attacker = softFor()
    const res = await alice.callback("register", attacker.register(forMallory.body.options))
    await expectRefused(res, alice, { signedOut: false })
    expect((await alice.session())?.user?.email).toBe(ALICE.email)
    expect(await owned(ALICE.id)).toEqual([alicePasskey.id])
    expect(await owned(BOB.id)).toEqual([malloryPasskey.id])
    expect(adapter.store.authenticators.has(attacker.id)).toBe(false)
  })

  it("a signed-in registration challenge replayed without the session is refused", async () => {
    const { app, adapter, mallory } = await setup()
    const forMallory = await mallory.options("")
    const stranger = new Browser(app)
    stranger.jar.set(CHALLENGE, mallory.jar.get(CHALLENGE)!)
    const attacker = softFor()
    await expectRefused(await stranger.callback("register", attacker.register(forMallory.body.options)), stranger)
    expect(adapter.store.authenticators.has(attacker.id)).toBe(false)
  })
})

describe("WA-06 (d) malformed registration responses", () => {
  it.each<[string, Parameters<typeof passkeySignUp>[3]]>([
    ["clientDataJSON.type webauthn.get", { type: "webauthn.get" }],
    ["an unknown attestation fmt", { fmt: "x-unknown" }],
  ])("%s: the WebAuthnVerificationError redirect, nothing stored", async (_name, overrides) => {
    const { app, adapter } = await setup()
    const browser = new Browser(app)
    const { res } = await passkeySignUp(browser, softFor(), "ned@example.com", overrides)
    await expectRefused(res, browser)
    expect([adapter.store.users.size, adapter.store.authenticators.size]).toEqual([2, 2])
  })

  it("a 70 kB attestationObject: a named 4xx, never 5xx, nothing stored", async () => {
    const { app, adapter } = await setup()
    const browser = new Browser(app)
    const options = await browser.options("email=olive%40example.com")
    const data = softFor().register(options.body.options, { extraAttestation: { pad: new Uint8Array(70 * 1024) } })
    expect(data.response.attestationObject.length).toBeGreaterThan(90_000)
    const res = await browser.callback("register", data)
    expect([400, 413]).toContain(res.status)
    expect(["InvalidRequest", "PayloadTooLarge"]).toContain(res.body.error.type)
    expect([adapter.store.users.size, adapter.store.authenticators.size]).toEqual([2, 2])
  })
})
