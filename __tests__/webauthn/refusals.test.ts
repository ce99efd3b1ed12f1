/**
 * WA-01 … WA-04 (SECURITY-CATALOG.md §10): wrong origin, wrong RP id (and RP settings never taken
 * from the request's host), challenges replayed / missing / swapped / expired / of the wrong
 * ceremony or provider, and signature counter regression. Every refusal: 302 to
 * /auth/signin?error=WebAuthnVerificationError, the challenge cookie cleared, no session
 * (SIGNED-OUT), the stored counter unchanged, no signIn event; and the same passkey then signs
 * in with a genuine response (so only the one wrong field made the difference).
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { randomBytes } from "node:crypto"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import Passkey from "../../lib/providers/passkey.js"
import WebAuthn from "../../lib/providers/webauthn.js"
import { OTHER_SECRET } from "../helpers/app.js"
import {
  ALICE, Browser, buildApp, expectRefused, expectSignedIn, names, passkeySignIn, seedPasskey, seedUser, softFor, storedCounter, type BuildOptions,
} from "./fixtures.js"
import { b64url, type AuthenticationOverrides } from "./soft-authenticator.js"

const CHALLENGE = names().challenge

afterEach(() => {
  jest.restoreAllMocks()
})

async function setup(options: BuildOptions = {}, counter = 5) {
  const signIn = jest.fn<(message: unknown) => void>()
  const built = buildApp({ ...options, config: { events: { signIn }, ...options.config } })
  const soft = softFor()
  await seedUser(built.adapter, ALICE)
  await seedPasskey(built.adapter, ALICE.id, soft, counter)
  /** The refusal oracle for `res`, then proof that a genuine response still signs in. */
  const refused = async (res: Awaited<ReturnType<Browser["post"]>>, browser: Browser, opts: { cleared?: boolean } = {}) => {
    await expectRefused(res, browser, opts)
    expect(storedCounter(built.adapter, soft.id)).toBe(counter)
    expect(signIn).not.toHaveBeenCalled()
    expectSignedIn((await passkeySignIn(new Browser(built.app), soft, { signCount: counter + 100 })).res)
  }
  return { ...built, soft, signIn, refused }
}

describe("WA-01 wrong origin in clientDataJSON", () => {
  it.each<[string, AuthenticationOverrides]>([
    ["https://evil.example", { origin: "https://evil.example" }],
    ["http://app.test:3443 (other scheme)", { origin: "http://app.test:3443" }],
    ["https://app.test (other port)", { origin: "https://app.test" }],
    ["https://app.test:3443/ (trailing slash)", { origin: "https://app.test:3443/" }],
    ["https://sub.app.test:3443", { origin: "https://sub.app.test:3443" }],
    ["https://app.test:3443.evil.example", { origin: "https://app.test:3443.evil.example" }],
    ["null", { origin: "null" }],
    ["crossOrigin with topOrigin https://evil.example", { crossOrigin: true, topOrigin: "https://evil.example" }],
  ])("%s is refused", async (_name, overrides) => {
    const { app, soft, refused } = await setup()
    const browser = new Browser(app)
    await refused((await passkeySignIn(browser, soft, overrides)).res, browser)
  })
})

describe("WA-02 wrong RP id hash; RP settings never from the request's host", () => {
  it.each(["evil.example", "sub.app.test", "test"])("rpIdHash = SHA-256(%s) is refused", async (rpId) => {
    const { app, soft, refused } = await setup()
    const browser = new Browser(app)
    await refused((await passkeySignIn(browser, soft, { rpId })).res, browser)
  })

  it.each([
    ["Host: evil.example (trustHost off)", { trustHost: false }, { Host: "evil.example" }],
    ["X-Forwarded-Host: evil.example (trustHost on, AUTH_URL set)", { trustHost: true }, { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" }],
  ])("%s: the options keep rpId app.test and a credential of evil.example is refused", async (_name, config, headers) => {
    const { app, adapter, refused } = await setup({ config })
    const evil = softFor(undefined, { rpId: "evil.example", origin: "https://evil.example" })
    await seedPasskey(adapter, ALICE.id, evil, 0)
    const browser = new Browser(app)
    const options = await browser.options("action=authenticate", "passkey", headers)
    expect(options.body.options.rpId).toBe("app.test")
    const res = await browser.callback("authenticate", evil.authenticate(options.body.options), {}, "passkey", headers)
    await refused(res, browser)
    expect(storedCounter(adapter, evil.id)).toBe(0)
  })
})

describe("WA-03 challenge replayed, missing, swapped, expired or of the wrong ceremony", () => {
  it("(a) a replayed (challenge cookie, response) pair fails from a fresh jar, even with a counter that stays 0", async () => {
    const { app, adapter, soft, signIn } = await setup({}, 0)
    soft.counting = false
    const victim = new Browser(app)
    const options = await victim.options()
    const captured = victim.jar.get(CHALLENGE)!
    const data = soft.authenticate(options.body.options)
    expectSignedIn(await victim.callback("authenticate", data))
    const attacker = new Browser(app)
    attacker.jar.set(CHALLENGE, captured)
    await expectRefused(await attacker.callback("authenticate", data), attacker)
    expect(signIn).toHaveBeenCalledTimes(1)
    expect(storedCounter(adapter, soft.id)).toBe(0)
  })

  it("(b) without the challenge cookie", async () => {
    const { app, soft, refused } = await setup()
    const browser = new Browser(app)
    const options = await browser.options()
    browser.jar.delete(CHALLENGE)
    await refused(await browser.callback("authenticate", soft.authenticate(options.body.options)), browser, { cleared: false })
  })

  it("(c) a response over challenge X with the cookie of another options call (challenge Y)", async () => {
    const { app, soft, refused } = await setup()
    const browser = new Browser(app)
    const x = await browser.options()
    await browser.options()
    await refused(await browser.callback("authenticate", soft.authenticate(x.body.options)), browser)
  })

  it("(c') a response over a challenge the server never issued", async () => {
    const { app, soft, refused } = await setup()
    const browser = new Browser(app)
    await refused((await passkeySignIn(browser, soft, { challenge: b64url(randomBytes(32)) })).res, browser)
  })

  it("(d) an expired challenge (15 minutes by default): accepted just before, refused after", async () => {
    const { app, adapter, soft, signIn } = await setup()
    const start = Date.now()
    const early = new Browser(app)
    const earlyOptions = await early.options()
    const late = new Browser(app)
    const lateOptions = await late.options()
    jest.spyOn(Date, "now").mockReturnValue(start + 14 * 60_000)
    expectSignedIn(await early.callback("authenticate", soft.authenticate(earlyOptions.body.options, { signCount: 6 })))
    jest.spyOn(Date, "now").mockReturnValue(start + 16 * 60_000)
    await expectRefused(await late.callback("authenticate", soft.authenticate(lateOptions.body.options, { signCount: 7 })), late)
    expect(storedCounter(adapter, soft.id)).toBe(6)
    expect(signIn).toHaveBeenCalledTimes(1)
  })

  it("(d) a challenge lifetime configured to 2 s is refused 3 s later (catalog WA-03 d)", async () => {
    const { app, soft, refused } = await setup({ config: { cookies: { webauthnChallenge: { options: { maxAge: 2 } } } } })
    const browser = new Browser(app)
    const options = await browser.options()
    expect(browser.jar.has(CHALLENGE)).toBe(true)
    const start = Date.now()
    jest.spyOn(Date, "now").mockReturnValue(start + 3_000)
    const res = await browser.callback("authenticate", soft.authenticate(options.body.options))
    jest.restoreAllMocks()
    await refused(res, browser)
  })

  it("(e) a registration challenge cookie with an authentication response", async () => {
    const { app, soft, refused } = await setup()
    const browser = new Browser(app)
    const registration = await browser.options("email=new%40example.com")
    expect(registration.body.action).toBe("register")
    await refused(await browser.callback("authenticate", soft.authenticate(registration.body.options)), browser)
  })

  it("(e') an authentication challenge cookie with action=register", async () => {
    const { app, adapter, refused } = await setup()
    const browser = new Browser(app)
    const authentication = await browser.options()
    await refused(await browser.callback("register", softFor().register(authentication.body.options)), browser)
    expect(adapter.store.users.size).toBe(1)
    expect(adapter.store.authenticators.size).toBe(1)
  })

  it("(f) clientDataJSON.type webauthn.create on an authentication", async () => {
    const { app, soft, refused } = await setup()
    const browser = new Browser(app)
    await refused((await passkeySignIn(browser, soft, { type: "webauthn.create" })).res, browser)
  })

  it("a challenge issued for another passkey provider of the same app", async () => {
    const { app, soft, refused } = await setup({ providers: [Passkey(), WebAuthn()] })
    const browser = new Browser(app)
    const foreign = await browser.options("action=authenticate", "webauthn")
    await refused(await browser.callback("authenticate", soft.authenticate(foreign.body.options)), browser)
  })

  it("a challenge cookie sealed by an app with another secret", async () => {
    const { app, soft, refused } = await setup()
    const other = new Browser(buildApp({ config: { secret: OTHER_SECRET } }).app)
    const foreign = await other.options()
    const browser = new Browser(app)
    browser.jar.set(CHALLENGE, other.jar.get(CHALLENGE)!)
    await refused(await browser.callback("authenticate", soft.authenticate(foreign.body.options)), browser)
  })
})

describe("WA-04 signature counter regression (stored counter 5)", () => {
  it.each([3, 5, 0])("signCount %i is refused as a cloned authenticator", async (signCount) => {
    const { app, soft, refused } = await setup()
    const browser = new Browser(app)
    await refused((await passkeySignIn(browser, soft, { signCount })).res, browser)
  })

  it("then 6 is accepted and stored", async () => {
    const { app, adapter, soft } = await setup()
    expectSignedIn((await passkeySignIn(new Browser(app), soft, { signCount: 6 })).res)
    expect(storedCounter(adapter, soft.id)).toBe(6)
  })

  it("the refusal is logged with the credential id, never the public key", async () => {
    const error = jest.fn()
    const { app, adapter, soft } = await setup({ config: { logger: { error } } })
    const browser = new Browser(app)
    await expectRefused((await passkeySignIn(browser, soft, { signCount: 3 })).res, browser)
    const text = error.mock.calls.map(([e]) => describeError(e)).join("\n")
    expect(text).toContain("WebAuthnVerificationError")
    expect(text).not.toContain(adapter.store.authenticators.get(soft.id)!.credentialPublicKey)
    expect(text).toContain(soft.id)
  })

  it("two parallel assertions (7 and 8): the stored counter ends at 8, no lost update", async () => {
    const adapter = MemoryAdapter()
    const original = adapter.updateAuthenticator.bind(adapter)
    let eightWritten!: () => void
    const written = new Promise<void>((resolve) => (eightWritten = resolve))
    // Calls through; only orders the writes the way a slow request 7 and a fast request 8 would.
    jest.spyOn(adapter, "updateAuthenticator").mockImplementation(async (id, update) => {
      if (update.counter === 7) await Promise.race([written, new Promise((resolve) => setTimeout(resolve, 1_000))])
      const result = await original(id, update)
      if (update.counter === 8) eightWritten()
      return result
    })
    const { app, soft } = await setup({ adapter }, 6)
    const [a, b] = [new Browser(app), new Browser(app)]
    const [optionsA, optionsB] = [await a.options(), await b.options()]
    const [resA, resB] = await Promise.all([
      a.callback("authenticate", soft.authenticate(optionsA.body.options, { signCount: 7 })),
      b.callback("authenticate", soft.authenticate(optionsB.body.options, { signCount: 8 })),
    ])
    expect(resA.status).toBeLessThan(500)
    expectSignedIn(resB)
    expect(storedCounter(adapter, soft.id)).toBe(8)
  })
})

function describeError(error: unknown, depth = 0): string {
  if (!(error instanceof Error) || depth > 4) return String(error)
  const cause = (error as Error & { cause?: { err?: unknown } | unknown }).cause
  const inner = cause && typeof cause === "object" && "err" in cause ? (cause as { err: unknown }).err : cause
  return `${error.name}: ${error.message}${inner ? `\n${describeError(inner, depth + 1)}` : ""}`
}
