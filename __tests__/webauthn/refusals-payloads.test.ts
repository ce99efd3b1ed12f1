/**
 * WA-05 (user presence / verification / backup flags) and WA-07 (malformed and mismatched
 * assertion payloads), SECURITY-CATALOG.md §10. Unparseable `data` is 400 InvalidRequest (JSON,
 * for every client), anything else that fails is the WebAuthnVerificationError redirect; never a
 * 5xx, never a session, the stored counter unchanged.
 */
import { describe, expect, it, jest } from "@jest/globals"
import Passkey from "../../lib/providers/passkey.js"
import WebAuthn from "../../lib/providers/webauthn.js"
import {
  ALICE, BOB, Browser, buildApp, expectRefused, expectSignedIn, expectSignedOut, findCookie, isCleared, names, passkeySignIn,
  seedPasskey, seedUser, softFor, storedCounter, type BuildOptions, type Res,
} from "./fixtures.js"
import { b64url, type AuthenticationOverrides } from "./soft-authenticator.js"

/** 16 bytes whose base64 has "+", "/" and "=" padding, so base64 and base64url spellings differ. */
const ALICE_CREDENTIAL = new Uint8Array([0xfb, 0xff, 0xbf, ...Array.from({ length: 13 }, (_, i) => i + 1)])

async function setup(options: BuildOptions = {}, provider = "passkey") {
  const signIn = jest.fn<(message: unknown) => void>()
  const built = buildApp({ ...options, config: { events: { signIn }, ...options.config } })
  const soft = softFor(undefined, { credentialId: ALICE_CREDENTIAL })
  await seedUser(built.adapter, ALICE)
  await seedPasskey(built.adapter, ALICE.id, soft, 5, provider)
  const bob = softFor()
  await seedUser(built.adapter, BOB)
  await seedPasskey(built.adapter, BOB.id, bob, 1, provider)
  /** Nothing changed, and alice's passkey still signs in with a genuine response (the control). */
  const unchanged = async () => {
    expect(storedCounter(built.adapter, soft.id)).toBe(5)
    expect(storedCounter(built.adapter, bob.id)).toBe(1)
    expect(signIn).not.toHaveBeenCalled()
    if (provider === "passkey") expectSignedIn((await passkeySignIn(new Browser(built.app), soft, { signCount: 50 })).res)
  }
  return { ...built, soft, bob, signIn, unchanged }
}

describe("WA-05 user presence and user verification flags", () => {
  it.each<[string, AuthenticationOverrides]>([
    ["UV=0 (UP=1)", { flags: { uv: false } }],
    ["UP=0", { flags: { up: false } }],
    ["BE=0 with BS=1", { flags: { be: false, bs: true } }],
  ])("Passkey (user verification required): %s is refused", async (_name, overrides) => {
    const { app, soft, unchanged } = await setup()
    const browser = new Browser(app)
    await expectRefused((await passkeySignIn(browser, soft, overrides)).res, browser)
    await unchanged()
  })

  it("WebAuthn (preferred): UV=0 with UP=1 is accepted, UP=0 is still refused", async () => {
    const { app, adapter, soft } = await setup({ providers: [WebAuthn()] }, "webauthn")
    const refusedBrowser = new Browser(app)
    const options = await refusedBrowser.options("action=authenticate", "webauthn")
    const absent = soft.authenticate(options.body.options, { flags: { up: false, uv: false } })
    await expectRefused(await refusedBrowser.callback("authenticate", absent, {}, "webauthn"), refusedBrowser)
    expect(storedCounter(adapter, soft.id)).toBe(5)
    const browser = new Browser(app)
    const again = await browser.options("action=authenticate", "webauthn")
    expectSignedIn(await browser.callback("authenticate", soft.authenticate(again.body.options, { flags: { uv: false } }), {}, "webauthn"))
    expect((await browser.session())?.user?.email).toBe(ALICE.email)
  })

  it("a passkey registered with Passkey (UV required) cannot skip user verification by posting to another WebAuthn provider", async () => {
    const { app, soft, unchanged } = await setup({ providers: [Passkey(), WebAuthn()] }, "passkey")
    const browser = new Browser(app)
    const options = await browser.options("action=authenticate", "webauthn")
    const res = await browser.callback("authenticate", soft.authenticate(options.body.options, { flags: { uv: false } }), {}, "webauthn")
    await expectRefused(res, browser)
    await unchanged()
  })
})

describe("WA-07 malformed and mismatched assertion payloads", () => {
  it.each<[string, string]>([
    ["not json", "not json"],
    ["{}", "{}"],
    ["[]", "[]"],
    ["null", "null"],
    ['{"id":123}', '{"id":123}'],
    ["a JSON string", '"a string"'],
    ["empty", ""],
    ["70 kB of JSON (over the 64 kB data limit)", JSON.stringify({ id: "x", pad: "y".repeat(70_000) })],
  ])(
    "data %s: 400 InvalidRequest, the challenge cleared, SIGNED-OUT",
    async (_name, data) => {
      const { app, unchanged } = await setup()
      const browser = new Browser(app)
      await browser.options()
      const res = await browser.callback("authenticate", data)
      expect(res.status).toBe(400)
      expect(res.body.error.type).toBe("InvalidRequest")
      expect(isCleared(findCookie(res, names().challenge))).toBe(true)
      await expectSignedOut(browser)
      await unchanged()
    },
  )

  it("1 MB of JSON: 413 PayloadTooLarge, SIGNED-OUT", async () => {
    const { app, unchanged } = await setup()
    const browser = new Browser(app)
    await browser.options()
    const res = await browser.callback("authenticate", { id: "x", pad: "z".repeat(1024 * 1024) })
    expect(res.status).toBe(413)
    expect(res.body.error.type).toBe("PayloadTooLarge")
    await expectSignedOut(browser)
    await unchanged()
  })

  it.each<[string, (id: string) => unknown]>([
    ["an unknown credential id", () => ({ id: b64url("nobody"), rawId: b64url("nobody"), type: "public-key", response: {} })],
    ["no response", (id) => ({ id, rawId: id, type: "public-key" })],
    ["a response that is a string", (id) => ({ id, rawId: id, type: "public-key", response: "x" })],
    ["clientDataJSON that is not base64 JSON", (id) => ({ id, rawId: id, type: "public-key", response: { clientDataJSON: "%%%", authenticatorData: "", signature: "" } })],
    ["fields of the wrong types", (id) => ({ id, rawId: id, type: "public-key", response: { clientDataJSON: 1, authenticatorData: [], signature: {} } })],
  ])("%s: the WebAuthnVerificationError redirect, never 5xx", async (_name, build) => {
    const { app, soft, unchanged } = await setup()
    const browser = new Browser(app)
    await browser.options()
    await expectRefused(await browser.callback("authenticate", build(soft.id)), browser)
    await unchanged()
  })

  it("an unknown credential id answers exactly like a bad signature (no credential enumeration)", async () => {
    const { app, soft, unchanged } = await setup()
    const answer = async (overrides: AuthenticationOverrides) => {
      const browser = new Browser(app)
      const { res } = await passkeySignIn(browser, soft, overrides)
      await expectRefused(res, browser)
      return { status: res.status, location: res.headers.location, body: res.text, cookies: findCookie(res, names().challenge) }
    }
    const unknown = b64url(new Uint8Array(16).fill(7))
    expect(await answer({ id: unknown, rawId: unknown })).toEqual(await answer({ corruptSignature: true }))
    await unchanged()
  })

  it.each<[string, AuthenticationOverrides]>([
    ["a flipped signature byte", { corruptSignature: true }],
    ["id and rawId that differ", { rawId: b64url(new Uint8Array(16).fill(9)) }],
    ["type other than public-key", { credentialType: "public-key " }],
    ["alice's assertion with bob's userHandle", { userHandle: b64url(BOB.id) }],
    ["an empty userHandle", { userHandle: "" }],
  ])("%s is refused", async (_name, overrides) => {
    const { app, soft, unchanged } = await setup()
    const browser = new Browser(app)
    await expectRefused((await passkeySignIn(browser, soft, overrides)).res, browser)
    await unchanged()
  })

  it.each<[string, (id: string) => string]>([
    ["base64 with + / and padding", () => Buffer.from(ALICE_CREDENTIAL).toString("base64")],
    ["base64url with padding", (id) => `${id}==`],
    ["base64 without padding", () => Buffer.from(ALICE_CREDENTIAL).toString("base64").replace(/=+$/, "")],
  ])("alice's credential id as %s finds alice's passkey or fails, never another user's", async (_name, spell) => {
    const { app, soft, unchanged } = await setup()
    const browser = new Browser(app)
    const id = spell(soft.id)
    expect(id).not.toBe(soft.id)
    const { res } = await passkeySignIn(browser, soft, { id, rawId: id })
    expect(res.status).toBe(302)
    if (new URL(res.headers.location as string).searchParams.has("error")) {
      await expectRefused(res, browser)
      await unchanged()
    } else {
      expect((await browser.session())?.user?.email).toBe(ALICE.email)
    }
  })

  it.each([
    ["__proto__", 400, "InvalidRequest"],
    ["", 400, "InvalidRequest"],
  ])("action=%p: %i %s", async (action, status, type) => {
    const { app, soft, unchanged } = await setup()
    const browser = new Browser(app)
    const options = await browser.options()
    const res: Res = await browser.callback(action, soft.authenticate(options.body.options))
    expect(res.status).toBe(status)
    expect(res.body.error.type).toBe(type)
    await expectSignedOut(browser)
    await unchanged()
  })

  it("action=register while signed out, with no user data in the challenge: refused", async () => {
    const { app, adapter, soft, unchanged } = await setup()
    const browser = new Browser(app)
    const options = await browser.options("action=authenticate")
    await expectRefused(await browser.callback("register", soft.register(options.body.options)), browser)
    expect(adapter.store.users.size).toBe(2)
    await unchanged()
  })

  it("GET on the callback is 405 with Allow: POST", async () => {
    const { app } = await setup()
    const res = await new Browser(app).get("/auth/callback/passkey?action=authenticate&data=%7B%7D")
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe("POST")
  })
})
