/**
 * A banned user (issue #30) is refused by every way to sign in, on memory, SQLite and PostgreSQL:
 * Credentials, password, magic link, passkey and OIDC, each driven as its own suite drives it,
 * with a real SMTP sink and a real oidc-provider. Before the ban the method works; after it the
 * attempt ends on the error page with UserBanned, no session cookie is set, the browser is signed
 * out and the audit trail has the refusal; after unbanning the same method works again. A wrong
 * password still gets the ordinary answer (the ban is told only to who holds the account), an
 * API call gets the JSON error, and a browser sees the "Account suspended" page.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from "@jest/globals"
import { banUser, unbanUser } from "../../lib/admin/bans.js"
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { METHODS, methodsApp, sessionSet, startServers, type Attempt, type Servers } from "./methods.js"
import { agentFor, csrfOf, engine, refusal, someone, storedUser, type AdminApp, type Json, type EngineName } from "./support.js"
import { PASSWORD } from "../integration/organizations/support.js"

jest.setTimeout(60_000)

type Response = Attempt["res"]

/** The refusal a browser gets: a redirect to the error page with error=UserBanned, and no session. */
function expectBanned(res: Response): URL {
  expect(res.status).toBe(302)
  const url = new URL(String(res.headers.location), "http://app.test")
  expect(url.pathname).toBe("/auth/error")
  expect(url.searchParams.get("error")).toBe("UserBanned")
  expect(sessionSet(res)).toBeUndefined()
  return url
}

function expectSignedIn(res: Response): void {
  expect(res.status).toBe(302)
  expect(String(res.headers.location)).not.toMatch(/error=/)
  expect(sessionSet(res)).toBeTruthy()
}

/** The records from `mark` on (the app keeps every record of its test). */
const since = (t: AdminApp, mark: number): Json[] => t.auditRecords.slice(mark)

describe.each<EngineName>(["memory", "sqlite", "postgres"])("a banned user's sign-in on %s", (name) => {
  const store = engine(name, "ban")
  let servers: Servers
  // oidc-provider's development notices, quieted as the OAuth suites quiet them (again before each
  // test: the email suite's helpers restore every spy after each one).
  const quiet = () => {
    jest.spyOn(console, "warn").mockImplementation(() => undefined)
    jest.spyOn(console, "info").mockImplementation(() => undefined)
  }
  beforeEach(quiet)
  beforeAll(async () => {
    quiet()
    await store.open()
    servers = await startServers()
  }, 60_000)
  afterAll(async () => {
    jest.restoreAllMocks()
    await servers?.close()
    await store.close()
  })

  it.each(METHODS.map((method) => [method.name, method] as const))("%s: works before the ban, refused with UserBanned during it, works again after unbanning", async (_label, method) => {
    const t = methodsApp(store.adapter(), servers)
    const admin = await someone(t, "root", { admin: true })
    const way = await method.prepare(t, servers)

    const before = await way.signIn()
    expectSignedIn(before.res)
    expect(await before.signedInAs()).toBe(way.email)

    const banned = await admin.admin("ban", { userId: way.userId, reason: "abuse" })
    expect(banned.status).toBe(200)
    // The ban ended the session the user had.
    expect(await before.signedInAs()).toBeNull()

    const mark = t.auditRecords.length
    const during = await way.signIn()
    expectBanned(during.res)
    expect(await during.signedInAs()).toBeNull()
    const records = since(t, mark)
    expect(records).toContainEqual(expect.objectContaining({ type: "signin", outcome: "failure", reason: "UserBanned", provider: method.provider }))
    expect(records.filter((record) => record.type === "signin" && record.outcome === "success")).toEqual([])

    expect((await admin.admin("unban", { userId: way.userId })).body).toEqual({ unbanned: true })
    const after = await way.signIn()
    expectSignedIn(after.res)
    expect(await after.signedInAs()).toBe(way.email)
    expect(since(t, mark)).toContainEqual(expect.objectContaining({ type: "signin", outcome: "success", userId: way.userId, provider: method.provider }))
  })

  it("password: a wrong password for a banned user gets the ordinary wrong-password answer", async () => {
    const t = methodsApp(store.adapter(), servers)
    const admin = await someone(t, "root", { admin: true })
    const way = await METHODS.find((method) => method.provider === "password")!.prepare(t, servers)
    const before = await way.wrongPassword!()
    expect((await admin.admin("ban", { userId: way.userId })).status).toBe(200)
    const during = await way.wrongPassword!()
    // The same answer as before the ban: nothing tells a stranger the account is banned.
    for (const attempt of [before, during]) {
      expect(attempt.res.status).toBe(302)
      const url = new URL(String(attempt.res.headers.location))
      expect(url.pathname).toBe("/auth/signin")
      expect(url.searchParams.get("error")).toBe("CredentialsSignin")
      expect(sessionSet(attempt.res)).toBeUndefined()
    }
    expect(during.res.headers.location).toBe(before.res.headers.location)
    expect(JSON.stringify(since(t, 0))).not.toContain('"reason":"UserBanned"')
    // With the right password, the ban.
    expectBanned((await way.signIn()).res)
  })

  it("banned by the app's server code (banUser): an API sign-in gets the JSON error, unbanUser lifts it", async () => {
    const t = methodsApp(store.adapter(), servers)
    const user = await storedUser(t.adapter, "server")
    const config = resolveConfig(t.config)
    await banUser(config, user.id, { reason: "fraud", expires: 3600 }, null)
    expect(t.auditRecords).toContainEqual(expect.objectContaining({ type: "admin.user_banned", userId: user.id, withReason: true }))

    const agent = agentFor(t.app)
    const apiSignIn = async () => {
      const csrfToken = await csrfOf(agent)
      return agent.post("/auth/callback/credentials").set("Accept", "application/json").send({ csrfToken, username: user.username, password: PASSWORD })
    }
    const api = await apiSignIn()
    expect(api.status).toBe(403)
    expect(api.body).toEqual(refusal("UserBanned"))
    expect(sessionSet(api)).toBeUndefined()
    expect((await agent.get("/private").set("Accept", "application/json")).status).toBe(401)

    expect(await unbanUser(config, user.id, null)).toBe(true)
    expect(await unbanUser(config, user.id, null)).toBe(false)
    expectSignedIn(await apiSignIn())
    expect((await agent.get("/private").set("Accept", "application/json")).body).toEqual({ ok: true, email: user.email })
  })

  it("the browser's error page: HTML, 403, headed Account suspended", async () => {
    const t = methodsApp(store.adapter(), servers)
    const admin = await someone(t, "root", { admin: true })
    const way = await METHODS[0]!.prepare(t, servers)
    await admin.admin("ban", { userId: way.userId })
    const target = expectBanned((await way.signIn()).res)
    const page = await agentFor(t.app).get(`${target.pathname}${target.search}`).set("Accept", "text/html")
    expect(page.status).toBe(403)
    expect(page.headers["content-type"]).toMatch(/^text\/html/)
    expect(page.text).toMatch(/<h1[^>]*>\s*Account suspended\s*<\/h1>/)
    expect(page.text).toContain("This account has been suspended, so you cannot sign in.")
  })
})
