/**
 * Issue #15, the account page's passkeys: each listed with its name, when it was added and when it
 * last signed in (in the page's language); `POST account/passkey-rename` and its refusals (a bad
 * name, someone else's or an unknown passkey, a missing or wrong CSRF token, a signed-out caller);
 * a new passkey's default name from the browser that made it; the last use recorded by each
 * passkey sign-in; and an adapter without passkey details (an `@auth/*` adapter) still working.
 */
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import type { Adapter, AdapterAuthenticator } from "../../lib/adapters.js"
import Passkey from "../../lib/providers/passkey.js"
import { USERS, credentials, csrfToken, makeApp, request, signInAs, testConfig, type Agent } from "../helpers/app.js"
import { ALICE as PASSKEY_ALICE, Browser, buildApp, expectSignedIn, passkeySignIn, seedPasskey as seedSoftPasskey, seedUser, softFor } from "../webauthn/fixtures.js"

const ALICE = USERS.alice!
const BOB = USERS.bob!
const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

function site(adapter: Adapter = MemoryAdapter()) {
  const app = makeApp(testConfig({ adapter, providers: [credentials(), Passkey()] }))
  return { app, adapter: adapter as MemoryAdapterInstance }
}

async function signedIn(app: ReturnType<typeof site>["app"], who = "alice"): Promise<Agent> {
  const agent = request.agent(app)
  expect((await signInAs(agent, who)).status).toBe(302)
  return agent
}

async function rename(agent: Agent, form: Record<string, string>, json = false) {
  const token = await csrfToken(agent)
  let test = agent.post("/auth/account/passkey-rename").type("form")
  if (json) test = test.set("Accept", "application/json")
  return test.send({ csrfToken: token, ...form })
}

const at = (iso: string) => new Date(iso)

async function seedPasskey(adapter: Adapter, userId: string, id: string, details: Partial<AdapterAuthenticator> = {}) {
  const full = adapter as Required<Adapter>
  await full.linkAccount({ type: "webauthn", provider: "passkey", providerAccountId: id, userId })
  await full.createAuthenticator({
    credentialID: id,
    userId,
    providerAccountId: id,
    credentialPublicKey: Buffer.from(`key-${id}`).toString("base64"),
    counter: 0,
    credentialDeviceType: "multiDevice",
    credentialBackedUp: true,
    transports: "internal",
    ...details,
  })
}

const storedName = async (adapter: Adapter, id: string) => (await (adapter as Required<Adapter>).getAuthenticator(id))?.name

describe("the Passkeys section", () => {
  it("lists each passkey's name, when it was added and when it was last used, in the page's language", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    await seedPasskey(adapter, ALICE.id!, "alice-key-laptop", { name: "Chrome on Linux", createdAt: at("2026-03-04T10:15:00Z"), lastUsedAt: at("2026-11-20T08:05:00Z") })
    await seedPasskey(adapter, ALICE.id!, "alice-key-phone1", { name: "Phone", createdAt: at("2026-06-01T12:00:00Z"), lastUsedAt: null })
    const en = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" })
    const page = await agent.get("/auth/account").set("Accept-Language", "en")
    expect(page.status).toBe(200)
    expect(page.text).toContain("<strong id=\"passkey-0-label\">Chrome on Linux</strong>")
    expect(page.text).toContain(`Added ${en.format(at("2026-03-04T10:15:00Z"))}`)
    expect(page.text).toContain(`Last used ${en.format(at("2026-11-20T08:05:00Z"))}`)
    expect(page.text).toContain("Phone")
    expect(page.text).toContain("Not used to sign in yet")
    // A Rename form per passkey, its field labelled and holding the current name.
    expect(page.text.match(/action="[^"]*\/auth\/account\/passkey-rename"/g)).toHaveLength(2)
    expect(page.text).toContain('<label for="passkey-0-name">Name of this passkey</label>')
    expect(page.text).toMatch(/id="passkey-0-name" name="name" type="text"[^>]*maxlength="64" required value="Chrome on Linux"/)
    expect(page.text).toContain("Remove passkey Phone")

    const de = new Intl.DateTimeFormat("de", { dateStyle: "medium", timeStyle: "short" })
    const german = await agent.get("/auth/account").set("Accept-Language", "de")
    expect(german.text).toContain(`Hinzugefügt am ${de.format(at("2026-03-04T10:15:00Z"))}`)
    expect(german.text).toContain(`Zuletzt verwendet am ${de.format(at("2026-11-20T08:05:00Z"))}`)
    expect(german.text).toContain("Umbenennen")
  })
})

describe("the Passkeys section with another adapter's dates", () => {
  it("a date given as a string is shown, an invalid one left out; the page never fails on them", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    const odd = { name: "Odd dates", createdAt: "2026-03-04T10:15:00Z", lastUsedAt: "not a date" } as unknown as Partial<AdapterAuthenticator>
    await seedPasskey(adapter, ALICE.id!, "alice-key-odd01", odd)
    const page = await agent.get("/auth/account").set("Accept-Language", "en")
    expect(page.status).toBe(200)
    expect(page.text).toContain(`Added ${new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }).format(at("2026-03-04T10:15:00Z"))}`)
    expect(page.text).not.toContain("Last used ")
    expect(page.text).toContain("Not used to sign in yet")
  })
})

describe("POST account/passkey-rename", () => {
  it("renames her passkey (trimmed) and goes back to the page, which shows the new name; API calls get JSON", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    await seedPasskey(adapter, ALICE.id!, "alice-key-0001", { name: "Chrome on Linux", createdAt: at("2026-03-04T10:15:00Z"), lastUsedAt: null })
    const res = await rename(agent, { credentialID: "alice-key-0001", name: "  Work laptop  " })
    expect(res.status).toBe(302)
    expect(String(res.headers.location)).toMatch(/\/auth\/account\?saved=passkey-rename$/)
    expect(await storedName(adapter, "alice-key-0001")).toBe("Work laptop")
    const page = await agent.get(String(new URL(String(res.headers.location)).pathname + "?saved=passkey-rename"))
    expect(page.text).toContain("Saved.")
    expect(page.text).toContain("Work laptop")
    expect(page.text).not.toContain("Chrome on Linux")

    const json = await rename(agent, { credentialID: "alice-key-0001", name: "Ключ ✓" }, true)
    expect(json.status).toBe(200)
    expect(json.body).toEqual({ ok: true })
    expect(await storedName(adapter, "alice-key-0001")).toBe("Ключ ✓")
  })

  it("an empty, 65-character or control-character name is InvalidPasskeyName, explained on the page; the stored name is kept", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    await seedPasskey(adapter, ALICE.id!, "alice-key-0002", { name: "Phone", createdAt: at("2026-06-01T12:00:00Z"), lastUsedAt: null })
    for (const name of ["   ", "x".repeat(65), "bad\u0007name"]) {
      const res = await rename(agent, { credentialID: "alice-key-0002", name })
      expect(String(res.headers.location)).toMatch(/\/auth\/account\?error=InvalidPasskeyName$/)
      const json = await rename(agent, { credentialID: "alice-key-0002", name }, true)
      expect(json.status).toBe(400)
      expect(json.body.error).toEqual({ type: "InvalidPasskeyName", message: "Enter a passkey name of 1 to 64 characters." })
    }
    // No name at all, too.
    expect((await rename(agent, { credentialID: "alice-key-0002" }, true)).body.error.type).toBe("InvalidPasskeyName")
    const page = await agent.get("/auth/account?error=InvalidPasskeyName")
    expect(page.text).toContain('role="alert">Enter a passkey name of 1 to 64 characters.')
    expect(await storedName(adapter, "alice-key-0002")).toBe("Phone")
    // 64 characters is fine.
    expect((await rename(agent, { credentialID: "alice-key-0002", name: "y".repeat(64) }, true)).status).toBe(200)
    expect(await storedName(adapter, "alice-key-0002")).toBe("y".repeat(64))
  })

  it("someone else's passkey or an unknown id: SignInMethodNotFound (404), the same answer for both; nothing renamed", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    await signedIn(app, "bob")
    await seedPasskey(adapter, ALICE.id!, "alice-key-0003", { name: "Alice's key", createdAt: at("2026-06-01T12:00:00Z"), lastUsedAt: null })
    await seedPasskey(adapter, BOB.id!, "bob-key-0003", { name: "Bob's key", createdAt: at("2026-06-01T12:00:00Z"), lastUsedAt: null })
    const answers = []
    for (const credentialID of ["bob-key-0003", "nobody-key-0003", ""]) {
      const res = await rename(agent, { credentialID, name: "Mine now" }, true)
      expect(res.status).toBe(404)
      answers.push(res.body)
    }
    expect(answers[0]).toEqual({ error: { type: "SignInMethodNotFound", message: "That sign-in method is not part of your account." } })
    expect(answers[1]).toEqual(answers[0])
    expect(answers[2]).toEqual(answers[0])
    const form = await rename(agent, { credentialID: "bob-key-0003", name: "Mine now" })
    expect(String(form.headers.location)).toMatch(/\/auth\/account\?error=SignInMethodNotFound$/)
    expect(await storedName(adapter, "bob-key-0003")).toBe("Bob's key")
    expect(await storedName(adapter, "alice-key-0003")).toBe("Alice's key")
  })

  it("without the CSRF token, or with a wrong one: MissingCSRF, nothing renamed", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    await seedPasskey(adapter, ALICE.id!, "alice-key-0004", { name: "Phone", createdAt: at("2026-06-01T12:00:00Z"), lastUsedAt: null })
    const none = await agent.post("/auth/account/passkey-rename").type("form").send({ credentialID: "alice-key-0004", name: "Forged" })
    expect(String(none.headers.location)).toContain("error=MissingCSRF")
    const wrong = await agent.post("/auth/account/passkey-rename").type("form").send({ credentialID: "alice-key-0004", name: "Forged", csrfToken: "0".repeat(64) })
    expect(String(wrong.headers.location)).toContain("error=MissingCSRF")
    const json = await agent.post("/auth/account/passkey-rename").set("Accept", "application/json").type("form").send({ credentialID: "alice-key-0004", name: "Forged" })
    expect(json.status).toBe(403)
    expect(json.body.error.type).toBe("MissingCSRF")
    expect(await storedName(adapter, "alice-key-0004")).toBe("Phone")
  })

  it("signed out: 401 SessionRequired, nothing renamed", async () => {
    const { app, adapter } = site()
    await signedIn(app)
    await seedPasskey(adapter, ALICE.id!, "alice-key-0005", { name: "Phone", createdAt: at("2026-06-01T12:00:00Z"), lastUsedAt: null })
    const res = await rename(request.agent(app), { credentialID: "alice-key-0005", name: "Nobody's" }, true)
    expect(res.status).toBe(401)
    expect(res.body.error.type).toBe("SessionRequired")
    expect(await storedName(adapter, "alice-key-0005")).toBe("Phone")
  })
})

describe("passkey details from the ceremonies", () => {
  it("a new passkey is named after the browser that made it, in that page's language; each sign-in with it records its last use, shown on the page", async () => {
    const { app, adapter } = buildApp()
    const soft = softFor()
    const browser = new Browser(app)
    const headers = { "User-Agent": CHROME_LINUX, "Accept-Language": "de" }
    const options = await browser.options("email=dora%40example.com", "passkey", headers)
    expect(options.body.action).toBe("register")
    const before = Date.now()
    expectSignedIn(await browser.callback("register", soft.register(options.body.options), {}, "passkey", headers))
    const made = adapter.store.authenticators.get(soft.id)!
    expect(made.name).toBe("Chrome unter Linux")
    expect(made.createdAt!.getTime()).toBeGreaterThanOrEqual(before)
    expect(made.lastUsedAt).toBeNull()
    expect((await browser.get("/auth/account", { "Accept-Language": "en" })).text).toContain("Not used to sign in yet")

    // Signing in with it (another browser) records the use, and moves it on each time.
    const other = new Browser(app)
    expectSignedIn((await passkeySignIn(other, soft)).res)
    const first = adapter.store.authenticators.get(soft.id)!.lastUsedAt!
    expect(first.getTime()).toBeGreaterThanOrEqual(made.createdAt!.getTime())
    await new Promise((resume) => setTimeout(resume, 5))
    expectSignedIn((await passkeySignIn(new Browser(app), soft)).res)
    const second = adapter.store.authenticators.get(soft.id)!
    expect(second.lastUsedAt!.getTime()).toBeGreaterThan(first.getTime())
    expect(second.counter).toBeGreaterThan(made.counter)
    const page = await other.get("/auth/account", { "Accept-Language": "en" })
    const en = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" })
    expect(page.text).toContain(`Last used ${en.format(second.lastUsedAt!)}`)
    expect(page.text).toContain("Chrome unter Linux")
  })

  it("a user agent naming neither browser nor system gives no name: the page shows the end of the credential id", async () => {
    const { app, adapter } = buildApp()
    const soft = softFor()
    const browser = new Browser(app)
    const headers = { "User-Agent": "curl/8.5.0" }
    const options = await browser.options("email=erin%40example.com", "passkey", headers)
    expectSignedIn(await browser.callback("register", soft.register(options.body.options), {}, "passkey", headers))
    expect(adapter.store.authenticators.get(soft.id)?.name).toBeNull()
    expect((await browser.get("/auth/account")).text).toContain(`Passkey ${soft.id.slice(-8)}`)
  })
})

describe("an adapter without passkey details (like an @auth/* adapter)", () => {
  /** A memory adapter without updateAuthenticator, whose createAuthenticator keeps only Auth.js's fields (and records what it was given). */
  function authJsLike() {
    const inner = MemoryAdapter()
    const given: AdapterAuthenticator[] = []
    // Neither updateAuthenticator nor transaction (Auth.js adapters have no transaction either).
    const { updateAuthenticator: _omitted, transaction: _none, ...rest } = inner
    const adapter: Adapter = {
      ...rest,
      async createAuthenticator(authenticator) {
        given.push(authenticator)
        return inner.createAuthenticator(authenticator)
      },
    }
    return { adapter, inner, given }
  }

  it("registration passes exactly Auth.js's fields, sign-in still stores the counter, the page falls back to the id and offers no Rename; renaming is MissingAdapterMethods (501)", async () => {
    const { adapter, inner, given } = authJsLike()
    const { app } = buildApp({ adapter })
    const soft = softFor()
    const browser = new Browser(app)
    const options = await browser.options("email=frank%40example.com", "passkey", { "User-Agent": CHROME_LINUX })
    expectSignedIn(await browser.callback("register", soft.register(options.body.options), {}, "passkey", { "User-Agent": CHROME_LINUX }))
    expect(Object.keys(given[0]!).sort()).toEqual(["counter", "credentialBackedUp", "credentialDeviceType", "credentialID", "credentialPublicKey", "providerAccountId", "transports", "userId"])

    const counter = inner.store.authenticators.get(soft.id)!.counter
    expectSignedIn((await passkeySignIn(new Browser(app), soft)).res)
    expect(inner.store.authenticators.get(soft.id)!.counter).toBeGreaterThan(counter)
    expect(inner.store.authenticators.get(soft.id)).not.toHaveProperty("lastUsedAt")

    const page = await browser.get("/auth/account", { "Accept-Language": "en" })
    expect(page.status).toBe(200)
    expect(page.text).toContain(`Passkey ${soft.id.slice(-8)}`)
    expect(page.text).not.toContain("passkey-rename")
    expect(page.text).not.toMatch(/Added |Last used |Not used to sign in yet/)

    const res = await browser.post("/auth/account/passkey-rename", { csrfToken: await browser.csrf(), credentialID: soft.id, name: "Laptop" }, { Accept: "application/json" })
    expect(res.status).toBe(501)
    expect(res.body.error.type).toBe("MissingAdapterMethods")
  })

  it("a passkey seeded the Auth.js way signs in on the page's app as before", async () => {
    const { adapter, inner } = authJsLike()
    const { app } = buildApp({ adapter })
    await seedUser(adapter, PASSKEY_ALICE)
    const soft = softFor()
    await seedSoftPasskey(adapter, PASSKEY_ALICE.id, soft, 2)
    expectSignedIn((await passkeySignIn(new Browser(app), soft)).res)
    expect(inner.store.authenticators.get(soft.id)?.counter).toBe(3)
  })
})
