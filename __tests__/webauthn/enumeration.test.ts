/**
 * WA-08 (SECURITY-CATALOG.md §10, without the rate-limit part): the options endpoint does not tell
 * which emails have passkeys or what their credential ids are, names its refusals, writes nothing
 * and is never cached. (The README documents that, without `action`, the default getUserInfo
 * answers "register" for an unknown email: that is the sign-up path, see options.test.ts.)
 */
import { describe, expect, it } from "@jest/globals"
import { credentials, request } from "../helpers/app.js"
import Passkey from "../../lib/providers/passkey.js"
import { ALICE, Browser, buildApp, expectSignedIn, passkeySignIn, seedPasskey, seedUser, softFor, type Res } from "./fixtures.js"

async function setup() {
  const built = buildApp({ providers: [Passkey(), credentials()] })
  const alice = softFor()
  await seedUser(built.adapter, ALICE)
  await seedPasskey(built.adapter, ALICE.id, alice, 2)
  return { ...built, alice }
}

/** The answer with its random parts (the challenge) taken out. */
function shape(res: Res) {
  const { challenge, ...options } = res.body.options as Record<string, unknown>
  expect(typeof challenge).toBe("string")
  return { status: res.status, action: res.body.action, options, cookies: (res.headers["set-cookie"] as unknown as string[] | undefined)?.map((l) => l.split("=")[0]) }
}

describe("WA-08 the options endpoint does not enumerate users or credentials", () => {
  it("signed out, action=authenticate answers alice's email and an unknown one alike, without credential ids", async () => {
    const { app, alice } = await setup()
    const browser = new Browser(app)
    const known = await browser.options("action=authenticate&email=alice%40example.com")
    const unknown = await browser.options("action=authenticate&email=nobody%40example.com")
    const none = await browser.options("action=authenticate")
    expect(shape(known)).toEqual(shape(unknown))
    expect(shape(known)).toEqual(shape(none))
    expect(known.body.options.allowCredentials ?? []).toEqual([])
    for (const res of [known, unknown, none]) {
      expect(res.text).not.toContain(alice.id)
      expect(res.headers["cache-control"]).toBe("no-store")
    }
  })

  it("without action, a stored user's email authenticates with the same answer as a plain passkey sign-in", async () => {
    const { app, alice } = await setup()
    const browser = new Browser(app)
    const byEmail = await browser.options("email=alice%40example.com")
    expect(shape(byEmail)).toEqual(shape(await browser.options("action=authenticate")))
    expect(byEmail.text).not.toContain(alice.id)
    expect(byEmail.text).not.toContain(ALICE.id)
  })

  it("a signed-in user's registration options exclude their own passkeys only", async () => {
    const { app, adapter, alice } = await setup()
    const other = softFor()
    await seedUser(adapter, { id: "user-other", email: "other@example.com" })
    await seedPasskey(adapter, "user-other", other, 0)
    const browser = new Browser(app)
    expectSignedIn((await passkeySignIn(browser, alice)).res)
    const res = await browser.options("email=other%40example.com")
    expect(res.body.action).toBe("register")
    expect(res.body.options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([alice.id])
    expect(res.text).not.toContain(other.id)
    expect(res.text).not.toContain("other@example.com")
  })

  it("options calls write nothing: no user, account, session or authenticator", async () => {
    const { app, adapter } = await setup()
    const before = [adapter.store.users.size, adapter.store.accounts.size, adapter.store.sessions.size, adapter.store.authenticators.size]
    const browser = new Browser(app)
    for (const query of ["action=authenticate", "email=new1%40example.com", "email=new2%40example.com", "email=alice%40example.com", ""]) {
      expect((await browser.options(query)).status).toBe(200)
    }
    expect([adapter.store.users.size, adapter.store.accounts.size, adapter.store.sessions.size, adapter.store.authenticators.size]).toEqual(before)
  })

  it.each([
    ["a provider that is not a passkey provider", "/auth/webauthn-options/credentials", 400, "InvalidRequest"],
    ["an unknown provider", "/auth/webauthn-options/nope", 404, "InvalidProvider"],
    ["no provider", "/auth/webauthn-options", 404, "InvalidProvider"],
    ["a provider id in another case", "/auth/webauthn-options/Passkey", 404, "InvalidProvider"],
  ])("%s (%s): %i %s as JSON, no challenge cookie", async (_name, path, status, type) => {
    const { app } = await setup()
    const res = await new Browser(app).get(path, { Accept: "text/html" })
    expect(res.status).toBe(status)
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8")
    expect(res.body.error.type).toBe(type)
    expect(res.headers["set-cookie"]).toBeUndefined()
  })

  it("POST and HEAD are 405 with Allow: GET", async () => {
    const { app } = await setup()
    const browser = new Browser(app)
    const post = await browser.post("/auth/webauthn-options/passkey", { action: "authenticate" })
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe("GET")
    const head = await request(app).head("/auth/webauthn-options/passkey").set("Host", "app.test:3443")
    expect(head.status).toBe(405)
    expect(head.headers["set-cookie"]).toBeUndefined()
  })
})
