/**
 * OAUTH-03 (SECURITY-CATALOG.md §7): authorization-code injection and code replay. A stolen code
 * redeemed in the attacker's own browser session must not sign the attacker in as the victim,
 * whichever check binds the code to the victim's browser: PKCE (with or without nonce) or the
 * nonce alone (`checks: ["state", "nonce"]`). A used code cannot be redeemed again.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import type { Server } from "node:http"
import type { TestIdp } from "../../helpers/idp.js"
import { credentials } from "../../helpers/app.js"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../../adapters/memory/index.js"
import { AUTH_URL, assertSignedOut, buildApp, listen, preserveEnv, sessionCookie, sessionOf } from "../fixtures.js"
import {
  accountsOf, callback, checkNames, expectChecksCleared, expectOAuthError, hitsOf, loginAt, oidcProvider, quietIdp, rows, setsSession,
  signInWithIdp, startFlow, startHonestIdp,
} from "./support.js"

jest.setTimeout(60_000)
preserveEnv("AUTH_URL")
quietIdp()

/** Each provider relies on a different check to bind the code to the browser that asked for it. */
const PROVIDERS = {
  idp: ["pkce", "state", "nonce"],
  idppkce: ["pkce", "state"],
  idpnonce: ["state", "nonce"],
} as const

let idp: TestIdp
let adapter: MemoryAdapterInstance
let app: Server
let closeApp: () => Promise<void>

beforeAll(async () => {
  idp = await startHonestIdp(Object.keys(PROVIDERS))
  adapter = MemoryAdapter()
  const providers = Object.entries(PROVIDERS).map(([id, checks]) => oidcProvider(id, idp.issuer, { checks: [...checks] }))
  const listening = await listen(buildApp(AUTH_URL, { adapter, providers: [credentials(), ...providers] }).app)
  app = listening.server
  closeApp = listening.close
})
afterAll(async () => {
  await closeApp()
  await idp.close()
})

describe("OAUTH-03 a: injection of the victim's code into the attacker's flow", () => {
  it.each(Object.entries(PROVIDERS))("%s (checks %j): the attacker is not signed in as the victim", async (id) => {
    // V logs in at the IdP as bob; the redirect back is intercepted and V's code kept.
    const victim = await startFlow(app, id)
    const stolen = await loginAt(idp, victim, id, "bob")
    expect(victim.location.searchParams.get("state")).toBe(stolen.searchParams.get("state"))

    // A runs a flow of their own and delivers V's code with A's state, in A's browser.
    const attacker = await startFlow(app, id)
    const injected = new URL(stolen)
    injected.searchParams.set("state", attacker.location.searchParams.get("state") as string)
    const sent = checkNames(attacker.jar)
    const before = { token: hitsOf(idp, "/token"), rows: rows(adapter) }
    const res = attacker.jar.absorb(await callback(app, injected, attacker.jar))

    expectOAuthError(res)
    expect(sent).toHaveLength(PROVIDERS[id as keyof typeof PROVIDERS].length)
    expectChecksCleared(res, sent)
    // The code did reach the token endpoint: the refusal comes from PKCE (invalid_grant) or the nonce.
    expect(hitsOf(idp, "/token")).toBe(before.token + 1)
    expect(rows(adapter)).toEqual(before.rows)
    expect(accountsOf(adapter, id).some((account) => account.providerAccountId === "bob")).toBe(false)
    await assertSignedOut(app, attacker.jar.header())
  })

  it.each(Object.keys(PROVIDERS))("%s: control: the same kind of flow completed by its own browser signs in", async (id) => {
    const { res, jar } = await signInWithIdp(app, idp, id, "mallory")
    expect(setsSession(res)).toBe(true)
    expect((await sessionOf(app, jar.header()))?.user).toMatchObject({ email: "mallory@example.com" })
    // Clean up the identity for the next control (one stored user per email).
    const account = accountsOf(adapter, id).find((a) => a.providerAccountId === "mallory")
    await adapter.deleteUser(account?.userId as string)
  })
})

describe("OAUTH-03 b: replay of a used code", () => {
  it("resending the callback with the pre-callback cookies: the IdP refuses, no second session or account, S1 intact", async () => {
    const started = await startFlow(app, "idp")
    const back = await loginAt(idp, started, "idp", "alice")
    const preCallback = started.jar.clone()
    const first = started.jar.absorb(await callback(app, back, started.jar))
    expect(first.status).toBe(302)
    const s1 = sessionCookie(first)
    expect(s1).not.toBe("")
    expect((await sessionOf(app, s1))?.user).toMatchObject({ email: "alice@example.com" })

    const before = { token: hitsOf(idp, "/token"), rows: rows(adapter) }
    const replay = await callback(app, back, preCallback)
    expectOAuthError(replay)
    expectChecksCleared(replay, checkNames(preCallback))
    expect(hitsOf(idp, "/token")).toBe(before.token + 1)
    expect(rows(adapter)).toEqual(before.rows)
    await assertSignedOut(app, preCallback.header())
    expect((await sessionOf(app, s1))?.user).toMatchObject({ email: "alice@example.com" })
  })

  it("resending the callback in the same browser after success (check cookies gone) is refused before the token request", async () => {
    const { back, jar } = await signInWithIdp(app, idp, "idp", "alice")
    const before = { token: hitsOf(idp, "/token"), rows: rows(adapter) }
    const replay = await callback(app, back, jar)
    expectOAuthError(replay)
    expect(hitsOf(idp, "/token")).toBe(before.token)
    expect(rows(adapter)).toEqual(before.rows)
    // The browser's own session stays what it was.
    expect((await sessionOf(app, jar.header()))?.user).toMatchObject({ email: "alice@example.com" })
  })
})
