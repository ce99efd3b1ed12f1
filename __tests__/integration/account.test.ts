/**
 * Issue #15, the account page's actions and their refusals, over HTTP (supertest) with the memory
 * adapter: the page (signed out, no adapter, signed in), changing the name, unlinking a provider,
 * removing a passkey, deleting the account, and every refusal: the last way to sign in, someone
 * else's account or passkey, a missing or wrong CSRF token, a stale sign-in for deletion, a
 * signed-out caller. The server helpers `unlinkAccount` and `deleteAccount` on an app's route.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import { deleteAccount, unlinkAccount } from "../../lib/index.js"
import { encode } from "../../lib/jwt/index.js"
import OIDC from "../../lib/providers/oidc.js"
import Passkey from "../../lib/providers/passkey.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Password from "../../lib/providers/password.js"
import { linkIn, startSmtp, type SmtpSink } from "../helpers/smtp.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET, USERS, credentials, csrfToken, findCookie, isCleared, makeApp, request, signInAs, testConfig, type Agent } from "../helpers/app.js"

const ALICE = USERS.alice!
const BOB = USERS.bob!

afterEach(() => {
  jest.restoreAllMocks()
})

function site(overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const events = { updateUser: jest.fn(), unlinkAccount: jest.fn(), deleteUser: jest.fn() }
  const config = testConfig({
    adapter,
    providers: [credentials(), OIDC({ id: "idp", name: "Test IdP", issuer: "https://idp.example", clientId: "c", clientSecret: "s" }), Passkey()],
    events: events as NonNullable<AuthConfig["events"]>,
    ...overrides,
  })
  const app = makeApp(config)
  app.post("/settings/unlink", async (req, res, next) => {
    try {
      await unlinkAccount(req, res, config, String(req.query.provider))
      res.json({ ok: true })
    } catch (error) {
      res.status(409).json({ type: (error as { type?: string }).type })
      void next
    }
  })
  app.post("/settings/delete", async (req, res) => {
    try {
      await deleteAccount(req, res, config)
      res.json({ ok: true })
    } catch (error) {
      res.status(403).json({ type: (error as { type?: string }).type })
    }
  })
  return { app, adapter, events, config }
}

async function signedIn(app: ReturnType<typeof site>["app"], who = "alice"): Promise<Agent> {
  const agent = request.agent(app)
  const res = await signInAs(agent, who)
  expect(res.status).toBe(302)
  expect(String(res.headers.location)).not.toContain("error=")
  return agent
}

async function post(agent: Agent, action: string, form: Record<string, string>, json = false) {
  const token = await csrfToken(agent)
  let test = agent.post(`/auth/account/${action}`).type("form")
  if (json) test = test.set("Accept", "application/json")
  return test.send({ csrfToken: token, ...form })
}

const passkeyOf = (userId: string, id: string) => ({
  credentialID: id,
  userId,
  providerAccountId: id,
  credentialPublicKey: Buffer.from(`key-${id}`).toString("base64"),
  counter: 0,
  credentialDeviceType: "multiDevice",
  credentialBackedUp: true,
  transports: "internal",
})

async function seedPasskey(adapter: MemoryAdapterInstance, userId: string, id: string) {
  await adapter.linkAccount({ type: "webauthn", provider: "passkey", providerAccountId: id, userId })
  await adapter.createAuthenticator(passkeyOf(userId, id))
}

describe("GET account", () => {
  it("signed out: the sign-in page, coming back to the account page", async () => {
    const res = await request(site().app).get("/auth/account")
    expect(res.status).toBe(302)
    const to = new URL(String(res.headers.location))
    expect(to.pathname).toBe("/auth/signin")
    expect(new URL(to.searchParams.get("callbackUrl")!).pathname).toBe("/auth/account")
  })

  it("without an adapter: AccountPageUnavailable, a page that says so (501), never a 500", async () => {
    const app = makeApp(testConfig())
    const agent = request.agent(app)
    await signInAs(agent, "alice")
    const page = await agent.get("/auth/account")
    expect(page.status).toBe(302)
    expect(String(page.headers.location)).toContain("error=AccountPageUnavailable")
    const json = await agent.get("/auth/account").set("Accept", "application/json")
    expect(json.status).toBe(501)
    expect(json.body.error.type).toBe("AccountPageUnavailable")
  })

  it("signed in: profile, the providers to connect, passkeys, this device, delete; every form posts with the CSRF token", async () => {
    const { app } = site()
    const agent = await signedIn(app)
    const page = await agent.get("/auth/account")
    expect(page.status).toBe(200)
    expect(page.text).toContain(ALICE.email)
    expect(page.text).toContain('value="Alice"')
    expect(page.text).toContain("Connect Test IdP")
    expect(page.text).toContain("You have no passkey yet.")
    expect(page.text).toContain("This device")
    expect(page.text).toContain("Delete my account")
    const forms = page.text.match(/<form method="post"/g) ?? []
    const tokens = page.text.match(/name="csrfToken" value="[0-9a-f]{64}"/g) ?? []
    expect(forms.length).toBeGreaterThanOrEqual(3)
    expect(tokens.length).toBe(forms.length)
  })

  it("a sub-path is no page", async () => {
    const { app } = site()
    const agent = await signedIn(app)
    expect((await agent.get("/auth/account/name")).status).toBe(404)
  })
})

describe("POST account/name", () => {
  it("changes the name (updateUser fires) and goes back to the page", async () => {
    const { app, adapter, events } = site()
    const agent = await signedIn(app)
    const res = await post(agent, "name", { name: "  Alice L.  " })
    expect(res.status).toBe(302)
    expect(String(res.headers.location)).toMatch(/\/auth\/account\?saved=name$/)
    expect((await adapter.getUser(ALICE.id!))?.name).toBe("Alice L.")
    expect(events.updateUser).toHaveBeenCalledWith({ user: expect.objectContaining({ id: ALICE.id, name: "Alice L." }) })
  })

  it("an empty or 101-character name is refused on the page (InvalidRequest), nothing changes", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    for (const name of ["   ", "x".repeat(101)]) {
      const res = await post(agent, "name", { name })
      expect(String(res.headers.location)).toMatch(/\/auth\/account\?error=InvalidRequest$/)
    }
    const page = await agent.get("/auth/account?error=InvalidRequest")
    expect(page.text).toContain("Enter a name of 1 to 100 characters.")
    expect((await post(agent, "name", { name: "" }, true)).status).toBe(400)
    expect((await adapter.getUser(ALICE.id!))?.name).toBe("Alice")
  })

  it("without the CSRF token, or with another's, nothing changes (MissingCSRF)", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    const none = await agent.post("/auth/account/name").type("form").send({ name: "Mallory" })
    expect(String(none.headers.location)).toContain("error=MissingCSRF")
    const wrong = await agent.post("/auth/account/name").type("form").send({ name: "Mallory", csrfToken: "0".repeat(64) })
    expect(String(wrong.headers.location)).toContain("error=MissingCSRF")
    expect((await adapter.getUser(ALICE.id!))?.name).toBe("Alice")
  })

  it("signed out: 401 SessionRequired, nothing changes", async () => {
    const { app } = site()
    const agent = request.agent(app)
    const res = await post(agent, "name", { name: "Nobody" }, true)
    expect(res.status).toBe(401)
    expect(res.body.error.type).toBe("SessionRequired")
  })
})

describe("POST account/unlink and account/passkey-remove", () => {
  it("the last way to sign in is never removed (LastSignInMethod, explained on the page; JSON 409)", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    const res = await post(agent, "unlink", { provider: "credentials" })
    expect(String(res.headers.location)).toMatch(/error=LastSignInMethod$/)
    expect((await agent.get("/auth/account?error=LastSignInMethod")).text).toContain("This is your only way to sign in")
    const json = await post(agent, "unlink", { provider: "credentials" }, true)
    expect(json.status).toBe(409)
    expect(json.body.error.type).toBe("LastSignInMethod")
    expect((await adapter.listAccountsByUserId(ALICE.id!)).map((account) => account.provider)).toEqual(["credentials"])
  })

  it("disconnects a linked provider (unlinkAccount fires); another user's or an unknown one is SignInMethodNotFound", async () => {
    const { app, adapter, events } = site()
    const agent = await signedIn(app)
    await signInAs(request.agent(app), "bob")
    await adapter.linkAccount({ type: "oidc", provider: "idp", providerAccountId: "alice-at-idp", userId: ALICE.id! })
    expect((await agent.get("/auth/account")).text).toContain("Disconnect Test IdP")
    const done = await post(agent, "unlink", { provider: "idp" })
    expect(String(done.headers.location)).toMatch(/saved=unlink$/)
    expect((await adapter.listAccountsByUserId(ALICE.id!)).map((account) => account.provider)).toEqual(["credentials"])
    expect(events.unlinkAccount).toHaveBeenCalledWith({ user: expect.objectContaining({ id: ALICE.id }), account: expect.objectContaining({ provider: "idp", providerAccountId: "alice-at-idp" }) })
    // Bob's idp account exists; alice naming it (or nothing at all) finds nothing of hers.
    await adapter.linkAccount({ type: "oidc", provider: "idp", providerAccountId: "bob-at-idp", userId: BOB.id! })
    for (const provider of ["idp", "nope"]) {
      const res = await post(agent, "unlink", { provider }, true)
      expect(res.status).toBe(404)
      expect(res.body.error.type).toBe("SignInMethodNotFound")
    }
    expect(await adapter.getAccount("bob-at-idp", "idp")).not.toBeNull()
  })

  it("removes her own passkey (authenticator and account); someone else's is SignInMethodNotFound and stays", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    await signInAs(request.agent(app), "bob")
    await seedPasskey(adapter, ALICE.id!, "alice-key-0001")
    await seedPasskey(adapter, BOB.id!, "bob-key-0001")
    expect((await agent.get("/auth/account")).text).toContain("Passkey key-0001")
    const foreign = await post(agent, "passkey-remove", { credentialID: "bob-key-0001" }, true)
    expect(foreign.status).toBe(404)
    expect(foreign.body.error.type).toBe("SignInMethodNotFound")
    expect(await adapter.getAuthenticator("bob-key-0001")).not.toBeNull()
    const own = await post(agent, "passkey-remove", { credentialID: "alice-key-0001" })
    expect(String(own.headers.location)).toMatch(/saved=passkey-remove$/)
    expect(await adapter.getAuthenticator("alice-key-0001")).toBeNull()
    expect(await adapter.getAccount("alice-key-0001", "passkey")).toBeNull()
  })

  it("the server helper unlinkAccount runs the same rules on the app's route", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    const last = await agent.post("/settings/unlink?provider=credentials")
    expect(last.body).toEqual({ type: "LastSignInMethod" })
    await adapter.linkAccount({ type: "oidc", provider: "idp", providerAccountId: "alice-at-idp", userId: ALICE.id! })
    expect((await agent.post("/settings/unlink?provider=idp")).body).toEqual({ ok: true })
    expect(await adapter.getAccount("alice-at-idp", "idp")).toBeNull()
  })
})

describe("POST account/delete", () => {
  it("after a fresh sign-in: the user and everything of theirs is gone, deleteUser fires, the browser and any copy of its cookie are signed out", async () => {
    const { app, adapter, events } = site()
    const agent = request.agent(app)
    const signIn = await signInAs(agent, "alice")
    const cookie = `authjs.session-token=${findCookie(signIn, "authjs.session-token")!.value}`
    await seedPasskey(adapter, ALICE.id!, "alice-key-0002")
    const res = await post(agent, "delete", { confirm: "yes" })
    expect(res.status).toBe(302)
    expect(isCleared(findCookie(res, "authjs.session-token"))).toBe(true)
    expect(await adapter.getUser(ALICE.id!)).toBeNull()
    expect(await adapter.listAccountsByUserId(ALICE.id!)).toEqual([])
    expect(await adapter.getAuthenticator("alice-key-0002")).toBeNull()
    expect(events.deleteUser).toHaveBeenCalledWith({ user: expect.objectContaining({ id: ALICE.id, email: ALICE.email }) })
    expect((await agent.get("/auth/session")).body).toBeNull()
    // The cookie as it was before deleting (a copy on another device) reads as signed out too.
    expect((await request(app).get("/auth/session").set("Cookie", cookie)).body).toBeNull()
  })

  it("a sign-in older than 10 minutes: RecentSignInRequired, to the sign-in page and back here; nothing deleted", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    const later = Date.now() + 11 * 60 * 1000
    jest.spyOn(Date, "now").mockReturnValue(later)
    const res = await post(agent, "delete", { confirm: "yes" })
    expect(res.status).toBe(302)
    const to = new URL(String(res.headers.location))
    expect(to.pathname).toBe("/auth/signin")
    expect(to.searchParams.get("error")).toBe("RecentSignInRequired")
    expect(new URL(to.searchParams.get("callbackUrl")!).pathname).toBe("/auth/account")
    expect(await adapter.getUser(ALICE.id!)).not.toBeNull()
    expect((await agent.post("/settings/delete")).body).toEqual({ type: "RecentSignInRequired" })
    expect(await adapter.getUser(ALICE.id!)).not.toBeNull()
  })

  it("a recent sign-in is the session's authTime (issue #16), not when its cookie was last sealed; a session without authTime falls back to its start", async () => {
    const { app, adapter } = site({ session: { strategy: "jwt" } })
    await signInAs(request.agent(app), "alice")
    const now = Math.floor(Date.now() / 1000)
    // A cookie re-sealed just now (a refreshed session: iat now), its user signed in 20 minutes ago.
    const cookie = async (claims: Record<string, unknown>) =>
      `authjs.session-token=${await encode({ token: { sub: ALICE.id, name: ALICE.name, email: ALICE.email, ...claims }, secret: SECRET, salt: "authjs.session-token" })}`
    const deleteWith = async (value: string) => {
      const agent = request.agent(app)
      const token = await csrfToken(agent)
      return agent.post("/auth/account/delete").set("Cookie", value).set("Accept", "application/json").send({ csrfToken: token, confirm: "yes" })
    }
    const stale = await deleteWith(await cookie({ authTime: now - 20 * 60 }))
    expect(stale.status).toBe(403)
    expect(stale.body.error.type).toBe("RecentSignInRequired")
    expect(await adapter.getUser(ALICE.id!)).not.toBeNull()
    // A session without authTime (made before #16): when it started decides; this one started now.
    const legacy = await deleteWith(await cookie({}))
    expect(legacy.status).toBe(200)
    expect(await adapter.getUser(ALICE.id!)).toBeNull()
  })

  it("without confirm=yes nothing is deleted", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    const res = await post(agent, "delete", {}, true)
    expect(res.status).toBe(400)
    expect(await adapter.getUser(ALICE.id!)).not.toBeNull()
  })
})

describe("changing the email address (a confirmation link to the new address, real SMTP sink)", () => {
  const sinks: SmtpSink[] = []
  afterEach(async () => {
    for (const sink of sinks.splice(0)) await sink.close()
  })

  async function mailSite() {
    const smtp = await startSmtp()
    sinks.push(smtp)
    const built = site({ providers: [credentials(), Nodemailer({ server: smtp.url })] })
    return { ...built, smtp }
  }

  it("the link goes to the new address only; the old one keeps working until the link's button is pressed; then the new one is the user's, proven", async () => {
    const { app, adapter, smtp, events } = await mailSite()
    const agent = await signedIn(app)
    const asked = await post(agent, "email", { email: "Alice.New@Example.com" })
    expect(String(asked.headers.location)).toMatch(/saved=email$/)
    expect((await agent.get("/auth/account?saved=email")).text).toContain("If that address can be used, we sent it a link.")
    const [mail] = await smtp.waitFor(1)
    expect(mail!.envelope.to).toEqual(["alice.new@example.com"])
    expect(mail!.mail.subject).toMatch(/^Confirm your new email address/)
    const link = linkIn(mail!)
    expect(link.pathname).toBe("/auth/account/confirm-email")
    // Not yet: the old address is still the user's.
    expect((await adapter.getUser(ALICE.id!))?.email).toBe(ALICE.email)
    // Opening the link changes nothing (scanners GET too); its page has the button.
    const page = await agent.get(`${link.pathname}${link.search}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain("Use alice.new@example.com for my account")
    expect((await adapter.getUser(ALICE.id!))?.email).toBe(ALICE.email)
    const confirmed = await post(agent, "confirm-email", { token: link.searchParams.get("token")!, email: link.searchParams.get("email")! })
    expect(String(confirmed.headers.location)).toMatch(/saved=confirm-email$/)
    const user = await adapter.getUser(ALICE.id!)
    expect(user).toMatchObject({ email: "alice.new@example.com" })
    expect(user?.emailVerified).toBeInstanceOf(Date)
    expect(events.updateUser).toHaveBeenCalledWith({ user: expect.objectContaining({ email: "alice.new@example.com" }) })
    // Single use: the same link again is refused on the page.
    const again = await post(agent, "confirm-email", { token: link.searchParams.get("token")!, email: link.searchParams.get("email")! })
    expect(String(again.headers.location)).toMatch(/error=Verification$/)
  })

  it("another user's link, a forged token, or an address someone holds: refused or silent, nothing changes", async () => {
    const { app, adapter, smtp } = await mailSite()
    const alice = await signedIn(app)
    const bob = await signedIn(app, "bob")
    await post(alice, "email", { email: "shared@example.com" })
    const link = linkIn((await smtp.waitFor(1))[0]!)
    // Bob holds alice's link: it is bound to alice.
    const stolen = await post(bob, "confirm-email", { token: link.searchParams.get("token")!, email: "shared@example.com" }, true)
    expect(stolen.status).toBe(400)
    expect(stolen.body.error.type).toBe("Verification")
    const forged = await post(alice, "confirm-email", { token: "f".repeat(64), email: "shared@example.com" }, true)
    expect(forged.body.error.type).toBe("Verification")
    // Bob's own address: the same answer as any other, and no mail is sent.
    const taken = await post(alice, "email", { email: BOB.email! })
    expect(String(taken.headers.location)).toMatch(/saved=email$/)
    await new Promise((resume) => setTimeout(resume, 300))
    expect(smtp.messages).toHaveLength(1)
    // A malformed address is explained on the page.
    const bad = await post(alice, "email", { email: "two@a.example, three@b.example" })
    expect(String(bad.headers.location)).toMatch(/error=EmailSignInError$/)
    expect((await adapter.getUser(ALICE.id!))?.email).toBe(ALICE.email)
    expect((await adapter.getUser(BOB.id!))?.email).toBe(BOB.email)
  })
})

describe("with the Password provider (issue #18)", () => {
  it("the account page links to its change-password page, which comes back here", async () => {
    const smtp = await startSmtp()
    try {
      const email = Nodemailer({ server: smtp.url })
      const { app } = site({ providers: [credentials(), email, Password({ email })] })
      const agent = await signedIn(app)
      const page = await agent.get("/auth/account")
      const href = /href="([^"]*\/auth\/change-password[^"]*)"/.exec(page.text)?.[1]?.replaceAll("&amp;", "&")
      expect(href).toBeDefined()
      expect(new URL(new URL(href!).searchParams.get("callbackUrl")!).pathname).toBe("/auth/account")
      expect((await agent.get(new URL(href!).pathname + new URL(href!).search)).status).toBe(200)
    } finally {
      await smtp.close()
    }
  })

  it("Password() without options is the named InvalidOption, not a TypeError", () => {
    expect(() => (Password as unknown as () => unknown)()).toThrow(expect.objectContaining({ type: "InvalidOption" }))
  })
})
