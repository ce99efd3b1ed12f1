/**
 * Passkey registration over HTTP: the attestation verified for the expected challenge, origin and
 * RP id; the user (new, or the signed-in one), the webauthn account and the authenticator record
 * with every field of the spec's Authenticator table; events and callbacks as for other providers.
 */
import { describe, expect, it, jest } from "@jest/globals"
import { randomBytes } from "node:crypto"
import type { JWT } from "../../lib/types.js"
import type { SessionCallbackParams } from "../../lib/callbacks.js"
import { ALICE, BOB, Browser, TLS, buildApp, expectPasskeyAdded, expectRefused, expectSignedIn, passkeySignIn, passkeySignUp, seedPasskey, seedUser, softFor } from "./fixtures.js"
import { b64url, type RegistrationOverrides } from "./soft-authenticator.js"

const ORIGIN = "https://app.test:3443/"
const webauthnAccount = (providerAccountId: string, userId: string) => ({ type: "webauthn", provider: "passkey", providerAccountId, userId })

function recorders() {
  return {
    events: { createUser: jest.fn<(message: unknown) => void>(), linkAccount: jest.fn<(message: unknown) => void>(), signIn: jest.fn<(message: unknown) => void>() },
    callbacks: { signIn: jest.fn<(params: unknown) => boolean>(() => true), jwt: jest.fn(({ token }: { token: JWT }) => token) },
  }
}

describe("a new user registers a passkey", () => {
  it("stores the user, the webauthn account and every field of the Authenticator table; the session starts", async () => {
    const { app, adapter } = buildApp()
    const browser = new Browser(app)
    const soft = softFor(TLS, { signCount: 4 })
    const { res } = await passkeySignUp(browser, soft, "carol@example.com")
    expectSignedIn(res, TLS, ORIGIN)
    const users = [...adapter.store.users.values()]
    expect(users).toHaveLength(1)
    const user = users[0]!
    expect(user).toMatchObject({ email: "carol@example.com", emailVerified: null })
    expect([...adapter.store.accounts.values()]).toEqual([webauthnAccount(soft.id, user.id)])
    expect(adapter.store.authenticators.get(soft.id)).toEqual({
      credentialID: soft.id,
      credentialPublicKey: soft.cosePublicKey().toString("base64"),
      counter: 4,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      providerAccountId: soft.id,
      transports: "internal,hybrid",
      userId: user.id,
      // Passkey details (the memory adapter keeps them): no user agent, so no name; never used yet.
      name: null,
      createdAt: expect.any(Date),
      lastUsedAt: null,
    })
    expect(adapter.store.authenticators.get(soft.id)?.credentialPublicKey).toMatch(/^[A-Za-z0-9+/]+=*$/)
    expect((await browser.session())?.user?.email).toBe("carol@example.com")
  })

  it("a backed-up multi-device passkey without transports: multiDevice, credentialBackedUp true, transports null", async () => {
    const { app, adapter } = buildApp()
    const soft = softFor(TLS, { flags: { be: true, bs: true } })
    expectSignedIn((await passkeySignUp(new Browser(app), soft, "dee@example.com", { transports: undefined })).res)
    expect(adapter.store.authenticators.get(soft.id)).toMatchObject({ credentialDeviceType: "multiDevice", credentialBackedUp: true, transports: null })
  })

  it("the new passkey signs in afterwards: its user handle names the stored user, the counter is stored", async () => {
    const { app, adapter } = buildApp()
    const soft = softFor()
    await passkeySignUp(new Browser(app), soft, "eve@example.com")
    const browser = new Browser(app)
    expectSignedIn((await passkeySignIn(browser, soft)).res)
    expect((await browser.session())?.user?.email).toBe("eve@example.com")
    expect(adapter.store.authenticators.get(soft.id)?.counter).toBe(1)
  })

  it("fires createUser, linkAccount and signIn (isNewUser true); the signIn callback sees user and account; jwt trigger signUp (cookie strategy)", async () => {
    const { events, callbacks } = recorders()
    const { app, adapter } = buildApp({ config: { session: { strategy: "cookie" }, events, callbacks } })
    const soft = softFor()
    expectSignedIn((await passkeySignUp(new Browser(app), soft, "fay@example.com")).res)
    const user = [...adapter.store.users.values()][0]!
    const account = expect.objectContaining(webauthnAccount(soft.id, user.id))
    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(events.createUser).toHaveBeenCalledWith({ user: expect.objectContaining({ id: user.id, email: "fay@example.com" }) })
    expect(events.linkAccount).toHaveBeenCalledTimes(1)
    expect(events.linkAccount).toHaveBeenCalledWith(expect.objectContaining({ user: expect.objectContaining({ id: user.id }), account }))
    expect(events.signIn).toHaveBeenCalledTimes(1)
    expect(events.signIn).toHaveBeenCalledWith(expect.objectContaining({ user: expect.objectContaining({ id: user.id }), account, isNewUser: true }))
    expect(callbacks.signIn).toHaveBeenCalledWith(expect.objectContaining({ user: expect.objectContaining({ email: "fay@example.com" }), account }))
    expect(callbacks.jwt).toHaveBeenCalledWith(expect.objectContaining({ trigger: "signUp", token: expect.objectContaining({ sub: user.id, email: "fay@example.com" }), account }))
    expect(adapter.store.sessions.size).toBe(0)
  })

  it("an email taken between the options and the callback: AccountNotLinked (OAuthAccountNotLinked), nothing stored", async () => {
    const { app, adapter } = buildApp()
    const browser = new Browser(app)
    const soft = softFor()
    const options = await browser.options("email=alice%40example.com")
    expect(options.body.action).toBe("register")
    await seedUser(adapter, ALICE)
    const res = await browser.callback("register", soft.register(options.body.options))
    await expectRefused(res, browser, { type: "OAuthAccountNotLinked" })
    expect(adapter.store.users.size).toBe(1)
    expect(adapter.store.accounts.size).toBe(0)
    expect(adapter.store.authenticators.size).toBe(0)
  })

  it("the signIn callback decides before anything is stored: false is AccessDenied and writes nothing", async () => {
    const { events } = recorders()
    const { app, adapter } = buildApp({ config: { events, callbacks: { signIn: () => false } } })
    const { res } = await passkeySignUp(new Browser(app), softFor(), "gil@example.com")
    expect(res.status).toBe(302)
    expect(new URL(res.headers.location as string).pathname).toBe("/auth/error")
    expect(new URL(res.headers.location as string).searchParams.get("error")).toBe("AccessDenied")
    expect(adapter.store.users.size + adapter.store.accounts.size + adapter.store.authenticators.size).toBe(0)
    expect(events.createUser).not.toHaveBeenCalled()
  })
})

describe("a signed-in user adds passkeys", () => {
  it("each is stored for them (listAuthenticatorsByUserId shows all); linkAccount without createUser; no new sign-in: the session goes on with its sign-in time (issue #24)", async () => {
    const { events, callbacks } = recorders()
    const { app, adapter } = buildApp({ config: { session: { strategy: "cookie" }, events, callbacks } })
    const first = softFor()
    await seedUser(adapter, ALICE)
    await seedPasskey(adapter, ALICE.id, first, 2)
    const browser = new Browser(app)
    expectSignedIn((await passkeySignIn(browser, first)).res)
    const before = (await browser.session()) as { authTime?: number; amr?: string[] } | null
    expect(events.signIn).toHaveBeenCalledTimes(1)
    const added = [softFor(), softFor(TLS, { flags: { be: true, bs: false } })]
    for (const soft of added) {
      const options = await browser.options("")
      expect(options.body.action).toBe("register")
      expectPasskeyAdded(await browser.callback("register", soft.register(options.body.options)))
    }
    const listed = await adapter.listAuthenticatorsByUserId(ALICE.id)
    expect(listed.map((a) => a.credentialID).sort()).toEqual([first.id, ...added.map((s) => s.id)].sort())
    expect(listed.every((a) => a.userId === ALICE.id)).toBe(true)
    expect(adapter.store.authenticators.get(added[1]!.id)).toMatchObject({ credentialDeviceType: "multiDevice", credentialBackedUp: false })
    expect(adapter.store.users.size).toBe(1)
    expect(events.createUser).not.toHaveBeenCalled()
    expect(events.linkAccount).toHaveBeenCalledTimes(2)
    expect(events.linkAccount).toHaveBeenLastCalledWith(expect.objectContaining({ user: expect.objectContaining({ id: ALICE.id }), account: expect.objectContaining(webauthnAccount(added[1]!.id, ALICE.id)) }))
    // Adding a passkey is no sign-in: no signIn event, no new session, the sign-in time kept.
    expect(events.signIn).toHaveBeenCalledTimes(1)
    expect(callbacks.jwt).not.toHaveBeenCalledWith(expect.objectContaining({ trigger: "signIn", account: expect.objectContaining({ providerAccountId: added[0]!.id }) }))
    const after = (await browser.session()) as { user?: { email?: string | null }; authTime?: number; amr?: string[] } | null
    expect(after?.user?.email).toBe(ALICE.email)
    expect(after?.authTime).toBe(before?.authTime)
    expect(after?.amr).toEqual(before?.amr)
    for (const soft of added) expectSignedIn((await passkeySignIn(new Browser(app), soft)).res)
  })
})

describe("the session callback can reach the user's passkeys", () => {
  it.each(["cookie", "database"] as const)("%s strategy: authenticators() lists the signed-in user's passkeys, and the session shows them", async (strategy) => {
    const session = async ({ session, authenticators }: SessionCallbackParams) => ({
      ...session,
      passkeys: authenticators ? (await authenticators()).map((a) => a.credentialID).sort() : "none",
    })
    const { app, adapter } = buildApp({ config: { session: { strategy }, callbacks: { session } } })
    const first = softFor()
    await seedUser(adapter, ALICE)
    await seedPasskey(adapter, ALICE.id, first, 2)
    await seedUser(adapter, BOB)
    await seedPasskey(adapter, BOB.id, softFor(), 0)
    const browser = new Browser(app)
    expectSignedIn((await passkeySignIn(browser, first)).res)
    expect(((await browser.session()) as Record<string, unknown> | null)?.passkeys).toEqual([first.id])
    const second = softFor()
    const options = await browser.options("")
    expectPasskeyAdded(await browser.callback("register", second.register(options.body.options)))
    expect(((await browser.session()) as Record<string, unknown> | null)?.passkeys).toEqual([first.id, second.id].sort())
  })
})

describe("the attestation is verified for the expected challenge, origin and RP id", () => {
  const cases: Array<[string, RegistrationOverrides]> = [
    ["another challenge", { challenge: b64url(randomBytes(32)) }],
    ["another origin", { origin: "https://evil.example" }],
    ["another RP id hash", { rpId: "evil.example" }],
    ["clientDataJSON.type webauthn.get", { type: "webauthn.get" }],
    ["an unknown attestation format", { fmt: "evil" }],
    ["fmt none with a statement", { attStmt: { sig: new Uint8Array(8) } }],
    ["no user verification (Passkey requires it)", { flags: { uv: false } }],
    ["no user presence", { flags: { up: false } }],
    ["backed up but not backup-eligible (BE=0, BS=1)", { flags: { be: false, bs: true } }],
    ["a key algorithm that was not offered", { alg: -36 }],
    ["id and rawId that differ", { rawId: b64url(randomBytes(16)) }],
    ["a credential type other than public-key", { credentialType: "password" }],
  ]

  it.each(cases)("%s: refused with WebAuthnVerificationError, nothing stored, no event", async (_name, overrides) => {
    const { events } = recorders()
    const { app, adapter } = buildApp({ config: { events } })
    const browser = new Browser(app)
    const { res } = await passkeySignUp(browser, softFor(), "hal@example.com", overrides)
    await expectRefused(res, browser)
    expect(adapter.store.users.size + adapter.store.accounts.size + adapter.store.authenticators.size).toBe(0)
    expect(events.createUser).not.toHaveBeenCalled()
    expect(events.signIn).not.toHaveBeenCalled()
  })

})

describe("malformed registration data (WA-07 for registrations)", () => {
  it.each<[string, unknown]>([
    ["a string", "internal"],
    ["an object", { usb: true }],
    ["a number", 42],
  ])("response.transports as %s: never 5xx, and never a user left without its passkey", async (_name, transports) => {
    const { app, adapter } = buildApp()
    const browser = new Browser(app)
    const options = await browser.options("email=ida%40example.com")
    const data = softFor().register(options.body.options, { transports })
    const res = await browser.callback("register", data, {}, "passkey", { Accept: "application/json" })
    expect(res.status).toBeLessThan(500)
    if (res.status !== 302) expect(["InvalidRequest", "WebAuthnVerificationError"]).toContain(res.body.error.type)
    const { users, accounts, authenticators } = adapter.store
    expect([users.size, accounts.size]).toEqual([authenticators.size, authenticators.size])
  })
})
