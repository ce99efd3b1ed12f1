/**
 * GET /auth/webauthn-options/<provider>: { action, options }, the challenge in its sealed cookie,
 * the relying party from configuration (never from a request header), the provider's options, the
 * getUserInfo hook, and the configuration checks (README "Passkeys (WebAuthn)").
 */
import { describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { authRouter } from "../../lib/index.js"
import { MissingAdapter, MissingAdapterMethods } from "../../lib/errors.js"
import Passkey from "../../lib/providers/passkey.js"
import WebAuthn from "../../lib/providers/webauthn.js"
import type { Adapter } from "../../lib/adapters.js"
import type { WebAuthnProviderConfig } from "../../lib/providers/types.js"
import { testConfig } from "../helpers/app.js"
import { ALICE, Browser, DEV, TLS, buildApp, expectSignedIn, findCookie, names, passkeySignIn, passkeySignUp, seedPasskey, seedUser, softFor } from "./fixtures.js"
import { b64url } from "./soft-authenticator.js"

const fromB64url = (value: string) => Buffer.from(value, "base64url")

describe("authentication options", () => {
  it("?action=authenticate: {action, options} with the site's rpId, UV required, no credential ids; the challenge only in a sealed __Secure- cookie", async () => {
    const { app } = buildApp()
    const res = await new Browser(app).options("action=authenticate")
    expect(res.status).toBe(200)
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8")
    expect(res.headers["cache-control"]).toBe("no-store")
    expect(res.body.action).toBe("authenticate")
    const { options } = res.body
    expect(options.rpId).toBe("app.test")
    expect(options.userVerification).toBe("required")
    expect(options.allowCredentials ?? []).toEqual([])
    expect(fromB64url(options.challenge).length).toBeGreaterThanOrEqual(16)
    const cookie = findCookie(res, names(TLS).challenge)
    expect(cookie?.value).toBeTruthy()
    expect(cookie?.value).not.toContain(options.challenge)
    expect(cookie?.value?.split(".")).toHaveLength(5)
    expect(cookie?.maxAge).toBe(900)
  })

  it("every call has its own challenge and its own cookie", async () => {
    const { app } = buildApp()
    const browser = new Browser(app)
    const first = await browser.options()
    const second = await browser.options()
    expect(second.body.options.challenge).not.toBe(first.body.options.challenge)
    expect(findCookie(second, names().challenge)?.value).not.toBe(findCookie(first, names().challenge)?.value)
  })

  it("without action, the default getUserInfo decides by email: a stored user authenticates, a new email registers, no email authenticates", async () => {
    const { app, adapter } = buildApp()
    await seedUser(adapter, ALICE)
    const browser = new Browser(app)
    expect((await browser.options("email=alice%40example.com")).body.action).toBe("authenticate")
    expect((await browser.options("email=ALICE%40Example.com")).body.action).toBe("authenticate")
    expect((await browser.options("email=new%40example.com")).body.action).toBe("register")
    expect((await browser.options("")).body.action).toBe("authenticate")
    expect(adapter.store.users.size).toBe(1)
  })
})

describe("registration options", () => {
  it("a new user: rp from AUTH_URL, the email as user name, a user handle that becomes the stored user's id, attestation none, resident key and UV required", async () => {
    const { app, adapter } = buildApp()
    const browser = new Browser(app)
    const soft = softFor()
    const { options, res } = await passkeySignUp(browser, soft, "carol@example.com")
    const creation = options.body.options
    expect(creation.rp).toEqual({ name: "app.test", id: "app.test" })
    expect(creation.user.name).toBe("carol@example.com")
    expect(creation.attestation).toBe("none")
    expect(creation.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" })
    expect(creation.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toContain(-7)
    expect(creation.excludeCredentials).toEqual([])
    expect(findCookie(options, names().challenge)?.maxAge).toBe(900)
    expectSignedIn(res, TLS, "https://app.test:3443/")
    const [stored] = [...adapter.store.users.values()]
    expect(fromB64url(creation.user.id).toString("utf8")).toBe(stored?.id)
  })

  it("a signed-in user registers another passkey: the handle names them and excludeCredentials lists their passkeys", async () => {
    const { app, adapter } = buildApp()
    const first = softFor()
    await seedUser(adapter, ALICE)
    await seedPasskey(adapter, ALICE.id, first, 3)
    const browser = new Browser(app)
    expectSignedIn((await passkeySignIn(browser, first)).res, TLS, "https://app.test:3443/")
    const res = await browser.options("")
    expect(res.body.action).toBe("register")
    expect(res.body.options.user.id).toBe(b64url(ALICE.id))
    expect(res.body.options.user.name).toBe(ALICE.email)
    expect(res.body.options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([first.id])
  })

  it.each([
    ["an existing user, signed out", "action=register&email=alice%40example.com", "WebAuthnVerificationError", 400],
    ["no user details", "action=register", "WebAuthnVerificationError", 400],
    ["an unknown action", "action=delete", "InvalidRequest", 400],
  ])("refuses %s with a named JSON error and no challenge cookie", async (_name, query, type, status) => {
    const { app, adapter } = buildApp()
    await seedUser(adapter, ALICE)
    const res = await new Browser(app).options(query, "passkey", { Accept: "text/html" })
    expect(res.status).toBe(status)
    expect(res.body.error.type).toBe(type)
    expect(findCookie(res, names().challenge)).toBeUndefined()
  })
})

describe("provider options", () => {
  it("WebAuthn(): id webauthn, user verification and resident key preferred", async () => {
    const { app } = buildApp({ providers: [WebAuthn()] })
    const browser = new Browser(app)
    const auth = await browser.options("action=authenticate", "webauthn")
    expect(auth.body.options.userVerification).toBe("preferred")
    const reg = await browser.options("email=dan%40example.com", "webauthn")
    expect(reg.body.options.authenticatorSelection).toMatchObject({ residentKey: "preferred", userVerification: "preferred" })
  })

  it("userVerification, attestationType, registrationOptions and authenticationOptions reach the options", async () => {
    const provider = Passkey({
      userVerification: "discouraged",
      attestationType: "direct",
      registrationOptions: { timeout: 123_456 },
      authenticationOptions: { timeout: 654_321 },
    })
    const { app } = buildApp({ providers: [provider] })
    const browser = new Browser(app)
    const auth = (await browser.options("action=authenticate")).body.options
    expect(auth).toMatchObject({ userVerification: "discouraged", timeout: 654_321 })
    const reg = (await browser.options("email=erin%40example.com")).body.options
    expect(reg).toMatchObject({ attestation: "direct", timeout: 123_456 })
  })

  it("verifyRegistrationOptions and verifyAuthenticationOptions are merged into the verification", async () => {
    const relaxed = Passkey({ verifyRegistrationOptions: { requireUserVerification: false }, verifyAuthenticationOptions: { requireUserVerification: false } })
    const { app } = buildApp({ providers: [relaxed] })
    const soft = softFor(TLS, { flags: { uv: false } })
    expectSignedIn((await passkeySignUp(new Browser(app), soft, "kim@example.com")).res)
    expectSignedIn((await passkeySignIn(new Browser(app), soft)).res)
    const strict = buildApp()
    const browser = new Browser(strict.app)
    expect((await passkeySignUp(browser, softFor(TLS, { flags: { uv: false } }), "kim@example.com")).res.headers.location).toContain("error=WebAuthnVerificationError")
  })

  it("relayingParty id, name and origin replace the site's, for the options and for verification", async () => {
    const rp = { id: "example.org", name: "Example Org", origin: "https://login.example.org" }
    const { app, adapter } = buildApp({ providers: [Passkey({ relayingParty: rp })] })
    const browser = new Browser(app)
    expect((await browser.options("action=authenticate")).body.options.rpId).toBe("example.org")
    const good = softFor(TLS, { rpId: rp.id })
    const { options, res } = await passkeySignUp(browser, good, "faye@example.com", { origin: rp.origin })
    expect(options.body.options.rp).toEqual({ id: "example.org", name: "Example Org" })
    expectSignedIn(res)
    expect(adapter.store.authenticators.has(good.id)).toBe(true)
    const siteOrigin = await passkeySignUp(new Browser(app), softFor(TLS, { rpId: rp.id }), "gus@example.com")
    expect(siteOrigin.res.headers.location).toContain("error=WebAuthnVerificationError")
  })
})

describe("the relying party comes from the site's URL, never from an untrusted header", () => {
  it.each([
    ["Host", { trustHost: false }, { Host: "evil.example" }],
    ["X-Forwarded-Host (trustHost on)", { trustHost: true }, { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" }],
  ])("with AUTH_URL set, a forged %s leaves rpId and rp at app.test", async (_name, config, headers) => {
    const { app } = buildApp({ config })
    const browser = new Browser(app)
    expect((await browser.options("action=authenticate", "passkey", headers)).body.options.rpId).toBe("app.test")
    expect((await browser.options("email=hal%40example.com", "passkey", headers)).body.options.rp).toEqual({ name: "app.test", id: "app.test" })
  })

  it("in development on http://localhost: rpId localhost, unprefixed cookie, a full sign-up and sign-in", async () => {
    const { app, adapter } = buildApp({ site: DEV })
    const browser = new Browser(app, DEV)
    const soft = softFor(DEV)
    const { options, res } = await passkeySignUp(browser, soft, "ivy@example.com")
    expect(options.body.options.rp).toEqual({ name: "localhost", id: "localhost" })
    expect(findCookie(options, "authjs.challenge")?.secure).toBeFalsy()
    expectSignedIn(res, DEV, "http://localhost/")
    const again = await passkeySignIn(new Browser(app, DEV), soft)
    expectSignedIn(again.res, DEV, "http://localhost/")
    expect(adapter.store.authenticators.get(soft.id)?.counter).toBe(1)
  })
})

describe("getUserInfo decides between register and authenticate", () => {
  it("is called with the provider, the request and the adapter; its answer picks the ceremony", async () => {
    const getUserInfo = jest.fn(async ({ request }: { provider: WebAuthnProviderConfig; request: Request; adapter: Adapter }) => {
      const handle = new URL(request.url).searchParams.get("handle")
      if (handle === "new") return { user: { email: "jo@example.com", name: "Jo" }, exists: false }
      if (handle === "alice") return { user: { id: ALICE.id, email: ALICE.email }, exists: true }
      return null
    })
    const { app, adapter } = buildApp({ providers: [Passkey({ getUserInfo })] })
    await seedUser(adapter, ALICE)
    const browser = new Browser(app)
    const reg = await browser.options("handle=new")
    expect(reg.body.action).toBe("register")
    expect(reg.body.options.user).toMatchObject({ name: "jo@example.com", displayName: "Jo" })
    expect((await browser.options("handle=alice")).body.action).toBe("authenticate")
    expect((await browser.options("handle=none&email=new%40example.com")).body.action).toBe("authenticate")
    expect(getUserInfo).toHaveBeenCalledTimes(3)
    const [params] = getUserInfo.mock.calls[0]!
    expect(params.provider.id).toBe("passkey")
    expect(new URL(params.request.url).searchParams.get("handle")).toBe("new")
    expect(typeof params.adapter.getUserByEmail).toBe("function")
  })
})

describe("configuration", () => {
  it("a passkey provider without an adapter throws MissingAdapter when the router is built", () => {
    expect(() => authRouter(testConfig({ providers: [Passkey()] }))).toThrow(MissingAdapter)
  })

  it("an adapter without the authenticator methods throws MissingAdapterMethods naming them", () => {
    const partial: Record<string, unknown> = { ...MemoryAdapter() }
    delete partial.getAuthenticator
    delete partial.updateAuthenticatorCounter
    const build = () => authRouter(testConfig({ providers: [Passkey()], adapter: partial as Adapter }))
    expect(build).toThrow(MissingAdapterMethods)
    expect(build).toThrow(/getAuthenticator.*updateAuthenticatorCounter/)
    expect(build).not.toThrow(/createAuthenticator/)
  })

  it("enableConditionalUI: the sign-in page offers autofill by default and not when turned off", async () => {
    const page = async (provider: WebAuthnProviderConfig) => {
      const { app } = buildApp({ providers: [provider] })
      const res = await new Browser(app).get("/auth/signin")
      expect(res.status).toBe(200)
      return res.text
    }
    expect(await page(Passkey())).toMatch(/data-gatehouse-webauthn[^>]*data-conditional="true"/)
    expect(await page(Passkey({ enableConditionalUI: false }))).toMatch(/data-gatehouse-webauthn[^>]*data-conditional="false"/)
  })
})
