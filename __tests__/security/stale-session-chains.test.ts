/**
 * Issue #24, confirmed chains 1-3 replayed end to end with the software authenticator: a copy of
 * a session cookie (stolen, left on a shared computer, signed out or revoked since) must never
 * become a lasting way in, and an old session must never make itself look freshly signed in.
 * Before the fix, each of these ended with the copy's holder enrolled in two-factor sign-in or
 * holding a passkey of the account (and a fresh session).
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import Passkey from "../../lib/providers/passkey.js"
import { requireAuth, revokeUserSessions } from "../../lib/index.js"
import { Browser, TLS, buildApp, passkeySignIn, softFor, type Built } from "../webauthn/fixtures.js"
import { USERS, credentials } from "../helpers/app.js"

const ALICE_ID = USERS.alice!.id as string

/** Only the clock moves on (timers stay real). */
function moveClockOn(ms: number): void {
  jest.useFakeTimers({ doNotFake: ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"], now: Date.now() + ms })
}
afterEach(() => {
  jest.useRealTimers()
})

function site(strategy: "jwt" | "database"): Built {
  const built = buildApp({ providers: [Passkey(), credentials()], config: { session: { strategy }, twoFactor: { issuer: "Gatehouse Test" } } })
  // A page that needs a sign-in within 5 minutes (step-up).
  built.app.get("/billing", requireAuth(built.config, { maxAge: 300 }), (_req, res) => {
    res.json({ billing: true })
  })
  return built
}

async function signInAlice(browser: Browser): Promise<void> {
  const res = await browser.post("/auth/callback/credentials", { csrfToken: await browser.csrf(), username: "alice", password: USERS.alice!.password })
  expect(res.status).toBe(302)
  expect((await browser.session())?.user?.email).toBe(USERS.alice!.email)
}

async function signOut(browser: Browser): Promise<void> {
  expect((await browser.post("/auth/signout", { csrfToken: await browser.csrf() })).status).toBe(302)
}

describe.each(["jwt", "database"] as const)("a held session cookie never becomes a lasting way in (%s sessions)", (strategy) => {
  it("a signed-out copy cannot open two-factor enrolment (before: it enrolled its own TOTP and locked the owner out)", async () => {
    const built = site(strategy)
    const owner = new Browser(built.app)
    await signInAlice(owner)
    const copy = owner.clone()
    await signOut(owner)

    const page = await copy.get("/auth/two-factor/setup")
    expect(page.status).toBe(302)
    expect(new URL(page.headers.location as string, TLS.origin).pathname).toBe("/auth/signin")
    expect(page.text ?? "").not.toContain("two-factor-secret")
    expect(await built.adapter.getTwoFactor!(ALICE_ID)).toBeNull()
    expect(await copy.session()).toBeNull()
  })

  it("a copy ended with every session of the user (as a password reset does) cannot register a passkey (before: it did, and was signed in again)", async () => {
    const built = site(strategy)
    const owner = new Browser(built.app)
    await signInAlice(owner)
    const copy = owner.clone()
    await revokeUserSessions(ALICE_ID, built.config)

    const options = await copy.options("")
    expect(options.status).toBe(200)
    // Nobody is signed in: no registration for Alice's account is offered.
    expect(options.body.action).toBe("authenticate")
    const asked = await copy.options("action=register")
    expect(asked.status).toBe(400)
    expect(asked.body.error.type).toBe("WebAuthnVerificationError")
    expect(await built.adapter.listAuthenticatorsByUserId(ALICE_ID)).toEqual([])
    expect(await copy.session()).toBeNull()
  })

  it("a session older than the recent-sign-in window cannot add a passkey (before: the passkey gave it a fresh sign-in that passed step-up)", async () => {
    const built = site(strategy)
    const thief = new Browser(built.app)
    await signInAlice(thief)
    moveClockOn(11 * 60 * 1000)

    const options = await thief.options("")
    expect(options.status).toBe(403)
    expect(options.body.error.type).toBe("RecentSignInRequired")
    expect(await built.adapter.listAuthenticatorsByUserId(ALICE_ID)).toEqual([])
    const billing = await thief.get("/billing", { Accept: "application/json" })
    expect(billing.status).toBe(403)
    expect(billing.body.error.type).toBe("RecentSignInRequired")
  })

  it("a recent session adds a passkey and keeps its sign-in time: adding it reopens no step-up window", async () => {
    const built = site(strategy)
    const browser = new Browser(built.app)
    await signInAlice(browser)
    const before = (await browser.session()) as { authTime?: number; amr?: string[] }
    const soft = softFor()
    const options = await browser.options("")
    expect(options.body.action).toBe("register")
    const added = await browser.callback("register", soft.register(options.body.options))
    expect(added.status).toBe(302)
    expect((await built.adapter.listAuthenticatorsByUserId(ALICE_ID)).map((a) => a.credentialID)).toEqual([soft.id])
    const after = (await browser.session()) as { authTime?: number; amr?: string[] }
    expect(after.authTime).toBe(before.authTime)
    expect(after.amr).toEqual(["pwd"])

    // Six minutes on, the step-up page (5 minutes) refuses this session: the passkey changed nothing.
    moveClockOn(6 * 60 * 1000)
    const billing = await browser.get("/billing", { Accept: "application/json" })
    expect(billing.status).toBe(403)
    // The passkey itself works, as a sign-in of its own.
    jest.useRealTimers()
    const fresh = new Browser(built.app)
    const { res } = await passkeySignIn(fresh, soft)
    expect(res.status).toBe(302)
    expect((await fresh.session())?.user?.email).toBe(USERS.alice!.email)
  })
})
