/**
 * Issue #24: one table of every action the router answers (and every server helper) against
 * every kind of session an attacker may hold, on both session strategies:
 * - a revoked session (ended from another device);
 * - a signed-out copy (the cookie copied before the owner signed out);
 * - a session older than the recent-sign-in window (the clock moved on 11 minutes);
 * - a sign-in still waiting for its second factor (the pending cookie, no session);
 * - a recent session that did not pass the second factor the user has;
 * - a session an admin started to impersonate the user (issue #30): fresh, yet every action that
 *   needs a recent sign-in is `ImpersonationRestricted`;
 * and, as the control, a fresh session, which every action accepts.
 *
 * Each row states what the action needs (lib/session/assurance.ts). A row that needs a session
 * refuses every dead one with `SessionRequired`; a row that needs a recent sign-in also refuses the
 * old one and the one without its second factor with `RecentSignInRequired`. The rows are checked
 * against the router's own list (routeList), so an action cannot be added without one.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import express, { type Express, type Request, type Response } from "express"
import request from "supertest"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import { adminAction, apiKeyAction, authRouter, authSession, deleteAccount, getAccessToken, getSession, listSessions, organizationAction, revokeOtherSessions, revokeSession, unlinkAccount } from "../../lib/index.js"
import { routeList } from "../../lib/core/dispatch.js"
import Credentials from "../../lib/providers/credentials.js"
import GitHub from "../../lib/providers/github.js"
import Passkey from "../../lib/providers/passkey.js"
import Password from "../../lib/providers/password.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET } from "../helpers/app.js"
import { enrol, freshName, signIn } from "../two-factor/support.js"

type Need = "public" | "read" | "pending" | "passkey-options" | "session" | "recent"

interface Row {
  /** `METHOD path` under the base (or `helper <name>` for a server helper). */
  name: string
  need: Need
  /** Why a public row needs no session. */
  why?: string
  body?: Record<string, string>
}

const PUBLIC = (name: string, why: string): Row => ({ name, need: "public", why })

const ROWS: Row[] = [
  PUBLIC("GET csrf", "a token for the forms, no session involved"),
  PUBLIC("GET diagnostics", "configuration names only, off in production"),
  PUBLIC("GET providers", "the configured providers"),
  PUBLIC("GET signin", "the sign-in page"),
  PUBLIC("POST signin", "starts a sign-in; an OAuth link made from it is checked at its callback (oauth linking test)"),
  PUBLIC("GET signout", "the sign-out page"),
  PUBLIC("POST signout", "ends whatever session the browser has"),
  PUBLIC("GET error", "the error page"),
  PUBLIC("GET verify-request", "the check-your-email page"),
  PUBLIC("GET callback", "a sign-in's end; linking to the signed-in user needs a recent sign-in there"),
  PUBLIC("POST callback", "a sign-in's end; adding a passkey needs a recent sign-in there (the passkey rows)"),
  PUBLIC("GET notice", "a notice page with no account data"),
  PUBLIC("GET account/undo-email", "the mailed undo link of an email change is the proof (the owner may have no session left)"),
  PUBLIC("POST account/undo-email", "the mailed undo link of an email change is the proof (the owner may have no session left)"),
  PUBLIC("POST backchannel-logout", "signed by the provider, no browser session"),
  PUBLIC("GET signup", "creating an account"),
  PUBLIC("POST signup", "creating an account"),
  PUBLIC("GET verify-email", "a mailed token proves the address"),
  PUBLIC("POST verify-email", "a mailed token proves the address"),
  PUBLIC("GET forgot-password", "asks for a mailed link"),
  PUBLIC("POST forgot-password", "asks for a mailed link"),
  PUBLIC("GET reset-password", "a mailed token is the proof"),
  PUBLIC("POST reset-password", "a mailed token is the proof"),
  PUBLIC("POST admin/stop-impersonating", "ends this browser's impersonation: the sealed stash cookie is the proof; the admin's session it restores is checked on its next read"),
  PUBLIC("GET bot-challenge", "a new proof-of-work challenge for the bot-protection widget, asked before anyone signs in"),
  PUBLIC("GET bot-widget", "the bot-protection widget's script and stylesheet"),
  PUBLIC("GET invitation", "shows whom an invitation is for; answering it needs a session (organizations/accept)"),
  PUBLIC("GET sso", "the Sign in with SSO page (and a connection's SP metadata)"),
  PUBLIC("POST sso", "starts an SSO sign-in; the identity provider's answers (ACS, single logout) carry their own signed proof"),
  PUBLIC("GET scim", "SCIM: the organization's directory with its bearer token, never a browser session"),
  PUBLIC("POST scim", "SCIM: the organization's directory with its bearer token, never a browser session"),
  PUBLIC("PUT scim", "SCIM: the organization's directory with its bearer token, never a browser session"),
  PUBLIC("PATCH scim", "SCIM: the organization's directory with its bearer token, never a browser session"),
  PUBLIC("DELETE scim", "SCIM: the organization's directory with its bearer token, never a browser session"),
  PUBLIC("GET jwks", "service tokens: the public keys that verify them, for any service"),
  { name: "GET session", need: "read" },
  { name: "POST session", need: "read", body: { data: "{}" } },
  { name: "GET two-factor", need: "pending" },
  { name: "POST two-factor", need: "pending", body: { code: "000000" } },
  { name: "GET webauthn-options/passkey", need: "passkey-options" },
  { name: "GET account", need: "session" },
  { name: "POST account/name", need: "session", body: { name: "Renamed" } },
  { name: "POST account/confirm-email", need: "session", body: { token: "x", email: "new@example.test" } },
  { name: "POST account/passkey-rename", need: "session", body: { credentialID: "none", name: "Laptop" } },
  { name: "GET sessions", need: "session" },
  { name: "POST sessions/revoke", need: "session", body: { id: "no-such-session" } },
  { name: "GET token", need: "session" },
  { name: "GET organizations", need: "session" },
  { name: "GET organization", need: "session" },
  { name: "POST organizations/create", need: "session", body: { name: "Acme" } },
  { name: "POST organizations/switch", need: "session", body: { organizationId: "none" } },
  { name: "POST organizations/invite", need: "session", body: { organizationId: "none", email: "x@example.test" } },
  { name: "POST organizations/accept", need: "session", body: { token: "x".repeat(43) } },
  { name: "GET sso/organization/none", need: "session" },
  { name: "POST sso/connections/create", need: "recent", body: { organizationId: "none", type: "saml", name: "IdP" } },
  { name: "POST sso/domains/add", need: "recent", body: { organizationId: "none", domain: "example.test" } },
  { name: "POST scim-admin/create-token", need: "recent", body: { organizationId: "none", name: "Okta" } },
  { name: "POST organizations/leave", need: "recent", body: { organizationId: "none" } },
  { name: "POST organizations/delete", need: "recent", body: { organizationId: "none" } },
  { name: "POST organizations/transfer", need: "recent", body: { organizationId: "none", userId: "none" } },
  { name: "GET api-keys", need: "session" },
  { name: "POST api-keys/revoke", need: "session", body: { keyId: "none" } },
  { name: "POST api-keys/create", need: "recent", body: { name: "CI" } },
  PUBLIC("GET oidc-interaction", "a step of an authorization request at the identity provider: a dead session is nobody (sent to sign in), and the step finishes only with the browser's own interaction cookie"),
  PUBLIC("POST oidc-interaction", "the consent form of such a step: a dead session is sent to sign in, and the grant is only ever the signed-in user's"),
  { name: "GET connected-apps", need: "session" },
  { name: "POST connected-apps/revoke", need: "session", body: { clientId: "none" } },
  { name: "GET admin", need: "recent" },
  { name: "GET admin/none", need: "recent" },
  { name: "POST admin/ban", need: "recent", body: { userId: "none" } },
  { name: "POST admin/impersonate", need: "recent", body: { userId: "none" } },
  { name: "POST account/email", need: "recent", body: { email: "thief@example.test" } },
  { name: "POST account/unlink", need: "recent", body: { provider: "github" } },
  { name: "POST account/passkey-remove", need: "recent", body: { credentialID: "none" } },
  { name: "POST account/delete", need: "recent", body: { confirm: "yes" } },
  { name: "GET two-factor/setup", need: "recent" },
  { name: "POST two-factor/setup", need: "recent", body: { intent: "enable", code: "000000", setupToken: "x" } },
  { name: "GET passkey-setup", need: "recent" },
  { name: "GET change-password", need: "recent" },
  { name: "POST change-password", need: "recent", body: { currentPassword: "pw", newPassword: "a long new passphrase here" } },
  // The server helpers (lib/index.ts), as an app calls them on its own routes.
  { name: "helper getSession", need: "read" },
  { name: "helper listSessions", need: "session" },
  { name: "helper revokeSession", need: "session" },
  { name: "helper revokeOtherSessions", need: "session" },
  { name: "helper getAccessToken", need: "session" },
  { name: "helper unlinkAccount", need: "recent" },
  { name: "helper deleteAccount", need: "recent" },
  { name: "helper organizationAction", need: "session" },
  { name: "helper adminAction", need: "recent" },
  { name: "helper apiKeyAction", need: "recent" },
]

const HELPERS: Record<string, (req: Request, res: Response, config: AuthConfig) => Promise<unknown>> = {
  getSession: (req, _res, config) => getSession(req, config),
  listSessions: (req, _res, config) => listSessions(req, config),
  revokeSession: (req, _res, config) => revokeSession(req, config, "no-such-session"),
  revokeOtherSessions: (req, _res, config) => revokeOtherSessions(req, config),
  getAccessToken: (req, _res, config) => getAccessToken(req, config, "github"),
  unlinkAccount: (req, res, config) => unlinkAccount(req, res, config, "github"),
  deleteAccount: (req, res, config) => deleteAccount(req, res, config),
  organizationAction: (req, res, config) => organizationAction(req, res, config, "switch", { organizationId: "none" }),
  adminAction: (req, res, config) => adminAction(req, res, config, "ban", { userId: "none" }),
  apiKeyAction: (req, res, config) => apiKeyAction(req, res, config, "create", { name: "CI" }),
}

describe("the assurance table lists every action the router answers", () => {
  it("each route has a row, and each row is a route", () => {
    const routes = routeList().map(({ method, action }) => `${method} ${action}`)
    const rowRoutes = ROWS.filter((row) => !row.name.startsWith("helper ")).map((row) => row.name.split("/")[0] as string)
    expect([...new Set(rowRoutes)].sort()).toEqual([...new Set(routes)].sort())
    for (const row of ROWS.filter((candidate) => candidate.need === "public")) expect(row.why).toBeTruthy()
    for (const row of ROWS.filter((candidate) => candidate.name.startsWith("helper "))) expect(HELPERS[row.name.slice(7)]).toBeDefined()
  })
})

function buildApp(strategy: "jwt" | "database", adapter: MemoryAdapterInstance): { app: Express; config: AuthConfig } {
  const config: AuthConfig = {
    secret: SECRET,
    logLevel: "silent",
    adapter,
    session: { strategy },
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: async (fields) => (fields.password === "pw" && typeof fields.username === "string" ? { id: `u-${fields.username}`, name: fields.username, email: `${fields.username}@example.test` } : null),
      }),
      Password({ sendMail: async () => undefined }),
      Passkey(),
      GitHub({ clientId: "id", clientSecret: "secret" }),
    ],
    twoFactor: { issuer: "Gatehouse Test" },
    organizations: true,
    sso: true,
    scim: true,
    // Everyone is an admin here: the admin rows show what the sign-in must be (AdminRequired is the admin suites').
    admin: { isAdmin: () => true, impersonation: { admins: true } },
    serviceTokens: true,
    apiKeys: true,
    oidcProvider: true,
  }
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  app.post("/helper/:name", async (req, res) => {
    try {
      const out = await HELPERS[req.params.name as string]!(req, res, config)
      if (!res.headersSent) res.json({ ok: true, out: out ?? null })
    } catch (error) {
      const type = (error as { type?: string }).type ?? "Error"
      res.status(type === "SessionRequired" ? 401 : type === "RecentSignInRequired" || type === "ImpersonationRestricted" ? 403 : 400).json({ error: { type } })
    }
  })
  return { app, config }
}

const STATES = ["revoked", "signed-out copy", "older than the window", "pending two-factor", "no second factor", "impersonated", "fresh"] as const
type State = (typeof STATES)[number]

/** The `name=value` pairs of a response's Set-Cookie lines that set (not clear) a value. */
function cookiesSet(res: request.Response): string[] {
  const lines = ([] as string[]).concat(res.headers["set-cookie"] ?? [])
  return lines.map((line) => line.split(";")[0] as string).filter((pair) => !pair.endsWith("="))
}

function sessionCookie(res: request.Response): string {
  const found = cookiesSet(res).find((pair) => pair.startsWith("authjs.session-token="))
  if (!found) throw new Error(`no session cookie in ${String(res.headers["set-cookie"])}`)
  return found
}

/** Signs a fresh user in with a browser of its own; its agent and the session cookie. */
async function freshSession(app: Express, username = freshName("tbl")) {
  const agent = request.agent(app)
  const res = await signIn(agent, username)
  return { agent, username, cookie: sessionCookie(res) }
}

async function csrfOf(agent: ReturnType<typeof request.agent>): Promise<string> {
  return (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
}

/** Builds each state's cookie header (as an attacker would send it). */
async function makeStates(app: Express, adapter: MemoryAdapterInstance): Promise<Record<State, string>> {
  // Revoked: the owner, signed in on a second browser, ends this one from the sessions list.
  const victim = await freshSession(app)
  const owner = request.agent(app)
  await signIn(owner, victim.username)
  const listed = (await owner.get("/auth/sessions").set("Accept", "application/json").expect(200)).body as Array<{ id: string; current: boolean }>
  const other = listed.find((session) => !session.current)
  expect(other).toBeDefined()
  await owner.post("/auth/sessions/revoke").set("Accept", "application/json").type("form").send({ csrfToken: await csrfOf(owner), id: other!.id }).expect(200)

  // Signed-out copy: the cookie copied, then the owner signs out.
  const copied = await freshSession(app)
  await copied.agent.post("/auth/signout").type("form").send({ csrfToken: await csrfOf(copied.agent) }).expect(302)

  // Pending: an enrolled user's first factor (no session, the two-factor cookie).
  const enrolled = await freshSession(app)
  await enrol(enrolled.agent)
  const again = request.agent(app)
  const pendingRes = await signIn(again, enrolled.username)
  const pending = cookiesSet(pendingRes).find((pair) => pair.startsWith("authjs.two-factor="))
  expect(pending).toBeDefined()

  // No second factor: a recent session of a user whose two-factor was on before it signed in
  // (a session that skipped the factor it was due).
  const skipped = await freshSession(app)
  await adapter.enableTwoFactor!({ userId: `u-${skipped.username}`, secret: "sealed", enabledAt: new Date(Date.now() - 60 * 60 * 1000) }, [])

  // Impersonated: an admin (everyone is one here) starts a session as another user.
  const admin = await freshSession(app)
  const seen = await freshSession(app)
  const started = await admin.agent.post("/auth/admin/impersonate").set("Accept", "application/json").type("form").send({ csrfToken: await csrfOf(admin.agent), userId: `u-${seen.username}` })
  expect(started.status).toBe(200)
  const impersonated = sessionCookie(started)

  return {
    impersonated,
    revoked: victim.cookie,
    "signed-out copy": copied.cookie,
    // Made now; its cells run with the clock 11 minutes on (10 is the default window).
    "older than the window": (await freshSession(app)).cookie,
    "pending two-factor": pending as string,
    "no second factor": skipped.cookie,
    fresh: (await freshSession(app)).cookie,
  }
}

/** Sends the row's request with the state's cookie (and a CSRF pair for POSTs), asking for JSON. */
async function send(app: Express, row: Row, cookie: string): Promise<request.Response> {
  const [method, path] = row.name.split(" ") as [string, string]
  if (method === "helper") return request(app).post(`/helper/${path}`).set("Cookie", cookie)
  if (method === "GET") return request(app).get(`/auth/${path}`).set("Cookie", cookie).set("Accept", "application/json")
  // SCIM's own methods: a bearer-token protocol (no token here: refused the same for every session).
  if (method === "PUT" || method === "PATCH" || method === "DELETE") return request(app)[method.toLowerCase() as "put" | "patch" | "delete"](`/auth/${path}`).set("Cookie", cookie).set("Accept", "application/json")
  const csrf = await request(app).get("/auth/csrf")
  const pair = cookiesSet(csrf).find((candidate) => candidate.includes("csrf-token="))
  return request(app)
    .post(`/auth/${path}`)
    .set("Cookie", `${pair}; ${cookie}`)
    .set("Accept", "application/json")
    .type("form")
    .send({ csrfToken: csrf.body.csrfToken, ...row.body })
}

function errorType(res: request.Response): string | undefined {
  return (res.body as { error?: { type?: string } } | null)?.error?.type
}

function expectRefused(res: request.Response, type: "SessionRequired" | "RecentSignInRequired"): void {
  expect({ status: res.status, type: errorType(res) }).toEqual({ status: type === "SessionRequired" ? 401 : 403, type })
}

function expectAccepted(res: request.Response): void {
  expect(["SessionRequired", "RecentSignInRequired"]).not.toContain(errorType(res))
  expect([401, 403]).not.toContain(res.status)
}

const DEAD: readonly State[] = ["revoked", "signed-out copy", "pending two-factor"]

/** What the table expects of `row` for a holder of `state`. */
function check(row: Row, state: State, res: request.Response): void {
  const dead = DEAD.includes(state)
  switch (row.need) {
    case "session":
      if (dead) return expectRefused(res, "SessionRequired")
      return expectAccepted(res)
    case "recent":
      if (dead) return expectRefused(res, "SessionRequired")
      if (state === "impersonated") return expect({ status: res.status, type: errorType(res) }).toEqual({ status: 403, type: "ImpersonationRestricted" })
      if (state === "older than the window" || state === "no second factor") return expectRefused(res, "RecentSignInRequired")
      return expectAccepted(res)
    case "read": {
      const session = row.name.startsWith("helper") ? (res.body as { out: unknown }).out : res.body
      if (dead) return expect(session).toBeNull()
      return expect(session).toMatchObject({ user: expect.objectContaining({ email: expect.any(String) }) })
    }
    case "pending":
      // The second-factor page serves only a pending sign-in: any session cookie is refused.
      if (state === "pending two-factor") return expect(res.status).toBeLessThan(500)
      return expect(errorType(res)).toBe("TwoFactorExpired")
    case "passkey-options":
      // Signed in (recently): a registration for that user; anyone else is nobody (never a
      // registration for the account: no user handle of theirs in the options).
      if (dead) return expect(res.body.action).toBe("authenticate")
      if (state === "impersonated") return expect(errorType(res)).toBe("ImpersonationRestricted")
      if (state === "older than the window" || state === "no second factor") return expectRefused(res, "RecentSignInRequired")
      return expect(res.body.action).toBe("register")
    case "public":
      return
  }
}

const OLD_CLOCK_MS = 11 * 60 * 1000
/** Every timer stays real; only the clock (Date) moves on. */
const REAL_TIMERS = ["hrtime", "nextTick", "performance", "queueMicrotask", "requestAnimationFrame", "cancelAnimationFrame", "requestIdleCallback", "cancelIdleCallback", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"] as const

describe.each(["jwt", "database"] as const)("every action and helper against every held session (%s sessions)", (strategy) => {
  const adapter = MemoryAdapter()
  const { app } = buildApp(strategy, adapter)
  let states: Record<State, string>
  beforeAll(async () => {
    states = await makeStates(app, adapter)
  }, 60_000)
  afterEach(() => {
    jest.useRealTimers()
  })
  afterAll(() => undefined)

  const checked = ROWS.filter((row) => row.need !== "public")
  describe.each(STATES.filter((state) => state !== "fresh"))("held: %s", (state) => {
    it.each(checked.map((row) => [row.name, row] as const))("%s", async (_name, row) => {
      if (state === "older than the window") jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: Date.now() + OLD_CLOCK_MS })
      check(row, state, await send(app, row, states[state]))
    })
  })

  // The control: a fresh session passes every check that does not change the account for good.
  const harmless = checked.filter((row) => !/delete|unlink|email$|passkey-remove|change-password$|two-factor\/setup$/.test(row.name) || row.name.startsWith("GET"))
  it.each(harmless.map((row) => [row.name, row] as const))("held: a fresh session, %s", async (_name, row) => {
    check(row, "fresh", await send(app, row, states.fresh))
  })
})
