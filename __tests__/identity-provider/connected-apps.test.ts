/**
 * The user's connected apps (issue #32) on memory and SQLite: the apps a user allowed, read from
 * `oidc-provider`'s stored grants (one per client and user, or several), listed as JSON
 * (`GET /auth/connected-apps`) and in the account page's "Connected apps" section (names escaped,
 * the access in words, since when); revoking one through the page's form deletes its grants and
 * their tokens and keeps the other app and other users' grants, needs the CSRF token and a
 * session, and is reported as `oidc.app.revoked`. With the option off there is nothing.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import express, { type Express } from "express"
import { authRouter, authSession } from "../../lib/index.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import type { AdapterOidcRecord } from "../../lib/identity-provider/adapter.js"
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { revokeAllConnectedApps } from "../../lib/identity-provider/grants.js"
import { SECRET } from "../helpers/app.js"
import { agentFor, csrfOf, credentialsProvider, engine, refusal, signIn, storedUser, type Client, type EngineName, type Json } from "../integration/organizations/support.js"
import { attr, parseHtml, textOf, type Parsed } from "../unit/pages/html.js"

const NOTES = "notes-cli"
const CALENDAR = "calendar-web"
const OLD = "old-app"
const NOTES_API = "https://api.example/notes"
const DAY = 86_400

interface Setup {
  app: Express
  config: AuthConfig
  adapter: Adapter
  events: Json[]
  auditRecords: Json[]
}

/** The router with the identity provider: `notes-cli` declared in the configuration, the others stored. */
function setup(adapter: Adapter, oidcProvider: AuthConfig["oidcProvider"] | undefined): Setup {
  const events: Json[] = []
  const auditRecords: Json[] = []
  const config = {
    secret: SECRET,
    providers: [credentialsProvider()],
    logLevel: "silent",
    adapter,
    rateLimit: false,
    ...(oidcProvider === undefined ? {} : { oidcProvider }),
    events: {
      oidcProvider: (message: Json) => {
        events.push({ ...message })
      },
      audit: (record: Json) => {
        auditRecords.push({ ...record })
      },
    },
  } as unknown as AuthConfig
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  return { app, config, adapter, events, auditRecords }
}

const PROVIDER = {
  clients: [{ client_id: NOTES, client_name: "Notes <CLI>", client_uri: "https://notes.example/cli?a=1&b=2", redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" }],
  resources: { [NOTES_API]: { scopes: ["notes:read", "notes:write"] } },
}

function record(model: string, id: string, payload: Json, fields: Partial<AdapterOidcRecord> = {}): AdapterOidcRecord {
  return { model, id, payload: JSON.stringify(payload), grantId: null, userCode: null, uid: null, accountId: null, clientId: null, expiresAt: null, consumedAt: null, ...fields }
}

/** A Grant as `oidc-provider` stores it (issued `ageDays` ago); its jti. */
async function grant(adapter: Adapter, userId: string, clientId: string, grantOf: { scope: string; resources?: Record<string, string>; ageDays?: number; expired?: boolean }): Promise<string> {
  const jti = randomUUID()
  const iat = Math.floor(Date.now() / 1000) - (grantOf.ageDays ?? 0) * DAY
  const exp = grantOf.expired ? iat + 60 : iat + 365 * DAY
  const payload = { kind: "Grant", jti, accountId: userId, clientId, iat, exp, openid: { scope: grantOf.scope }, ...(grantOf.resources && { resources: grantOf.resources }) }
  await adapter.putOidcRecord!(record("Grant", jti, payload, { accountId: userId, clientId, expiresAt: new Date(exp * 1000) }))
  return jti
}

/** An opaque access token of the grant, as `oidc-provider` stores it; its id. */
async function accessToken(adapter: Adapter, grantId: string, userId: string, clientId: string): Promise<string> {
  const jti = randomUUID()
  const iat = Math.floor(Date.now() / 1000)
  await adapter.putOidcRecord!(
    record("AccessToken", jti, { kind: "AccessToken", jti, grantId, accountId: userId, clientId, iat, exp: iat + 3600, scope: "openid" }, { grantId, accountId: userId, clientId, expiresAt: new Date((iat + 3600) * 1000) }),
  )
  return jti
}

/** The account page as a browser shows it. */
async function accountPage(client: Client, language?: string) {
  const call = client.agent.get("/auth/account").set("Accept", "text/html")
  const response = await (language ? call.set("Accept-Language", language) : call)
  expect(response.status).toBe(200)
  const parsed = parseHtml(response.text)
  return { parsed, html: response.text, text: textOf(parsed.document).replace(/\s+/g, " ") }
}

const byId = (parsed: Parsed, id: string) => parsed.elements.find((element) => attr(element, "id") === id)
const textById = (parsed: Parsed, id: string): string => {
  const element = byId(parsed, id)
  if (!element) throw new Error(`no #${id}`)
  return textOf(element).replace(/\s+/g, " ").trim()
}

/** The hidden fields and the action of a form, as a browser would send them. */
function formOf(parsed: Parsed, id: string): { action: string; fields: Record<string, string> } {
  const form = byId(parsed, id)
  if (!form) throw new Error(`no form #${id}`)
  const fields: Record<string, string> = {}
  const inside = (element: (typeof parsed.elements)[number]) => {
    for (let node = element.parentNode as typeof element | null; node; node = node.parentNode as typeof element | null) if (node === form) return true
    return false
  }
  for (const input of parsed.elements.filter((element) => element.tagName === "input" && attr(element, "type") === "hidden" && inside(element))) {
    fields[attr(input, "name") as string] = attr(input, "value") ?? ""
  }
  return { action: new URL(attr(form, "action") as string).pathname, fields }
}

/** A user with grants for two apps (two grants for notes-cli), an expired grant, and tokens. */
async function userWithApps(t: Setup) {
  const who = await storedUser(t.adapter, "owner")
  const notesOld = await grant(t.adapter, who.id, NOTES, { scope: "openid profile", ageDays: 30 })
  const notesNew = await grant(t.adapter, who.id, NOTES, { scope: "openid email offline_access", resources: { [NOTES_API]: "notes:read" }, ageDays: 2 })
  const calendar = await grant(t.adapter, who.id, CALENDAR, { scope: "openid email", ageDays: 10 })
  await grant(t.adapter, who.id, OLD, { scope: "openid", ageDays: 400, expired: true })
  const notesToken = await accessToken(t.adapter, notesNew, who.id, NOTES)
  const calendarToken = await accessToken(t.adapter, calendar, who.id, CALENDAR)
  return { who, grants: { notesOld, notesNew, calendar }, tokens: { notes: notesToken, calendar: calendarToken } }
}

describe.each<EngineName>(["memory", "sqlite"])("connected apps on %s", (name) => {
  const store = engine(name, "apps")
  let t: Setup
  beforeAll(async () => {
    await store.open()
    t = setup(store.adapter(), PROVIDER)
    // A client registered at run time, stored as oidc-provider stores it.
    await t.adapter.putOidcRecord!(record("Client", CALENDAR, { client_id: CALENDAR, client_name: "Calendar & Co", client_uri: "https://calendar.example/" }, { clientId: CALENDAR }))
  }, 60_000)
  afterAll(async () => {
    await store.close()
  })

  it("lists the apps the user allowed, by name, with every scope granted and since the first grant; not another user's, not an expired one", async () => {
    const { who } = await userWithApps(t)
    const other = await storedUser(t.adapter, "other")
    await grant(t.adapter, other.id, CALENDAR, { scope: "openid profile" })
    const client = await signIn(t.app, who)

    const listed = await client.get("/auth/connected-apps")
    expect(listed.status).toBe(200)
    expect(listed.headers["cache-control"]).toBe("no-store")
    const apps = listed.body.apps as Json[]
    expect(apps.map((app) => app.clientId)).toEqual([CALENDAR, NOTES])
    expect(apps[0]).toEqual({ clientId: CALENDAR, name: "Calendar & Co", uri: "https://calendar.example/", scopes: ["email", "openid"], resources: [], since: expect.any(String) })
    expect(apps[1]).toEqual({ clientId: NOTES, name: "Notes <CLI>", uri: "https://notes.example/cli?a=1&b=2", scopes: ["email", "notes:read", "offline_access", "openid", "profile"], resources: [NOTES_API], since: expect.any(String) })
    // Since the first of notes-cli's two grants (30 days ago), not the last.
    expect(Math.round((Date.now() - Date.parse(apps[1]!.since)) / (DAY * 1000))).toBe(30)
    expect(Math.round((Date.now() - Date.parse(apps[0]!.since)) / (DAY * 1000))).toBe(10)

    const theirs = await signIn(t.app, other)
    expect((await theirs.get("/auth/connected-apps")).body.apps).toEqual([expect.objectContaining({ clientId: CALENDAR, scopes: ["openid", "profile"] })])
  })

  it("shows the apps on the account page, escaped, with the access in words, since when, and a Revoke form each", async () => {
    const { who } = await userWithApps(t)
    const client = await signIn(t.app, who)
    const { parsed, html, text } = await accountPage(client)
    expect(parsed.errors).toEqual([])
    const ids = parsed.elements.map((element) => attr(element, "id")).filter(Boolean)
    expect(new Set(ids).size).toBe(ids.length)
    expect(byId(parsed, "connected-apps")).toBeDefined()
    expect(parsed.elements.some((element) => element.tagName === "a" && attr(element, "href") === "#connected-apps")).toBe(true)
    // Names and addresses are the clients' own words: escaped, never markup.
    expect(html).not.toContain("Notes <CLI>")
    expect(html).toContain("Notes &lt;CLI&gt;")
    expect(textById(parsed, "connected-app-0-name")).toBe("Calendar & Co")
    expect(textById(parsed, "connected-app-1-name")).toBe("Notes <CLI>")
    expect(textById(parsed, "connected-app-1-uri")).toBe("https://notes.example/cli?a=1&b=2")
    expect(parsed.elements.some((element) => element.tagName === "a" && attr(element, "href")?.startsWith("https://notes.example"))).toBe(false)
    // The scopes the consent page has texts for are in words; an API's scope by its name.
    const access = textById(parsed, "connected-app-1-access")
    expect(access).toContain("See your email address")
    expect(access).toContain("See your name and picture")
    expect(access).toContain("notes:read")
    expect(access).not.toMatch(/\bprofile\b/)
    expect(textById(parsed, "connected-app-1-resources")).toContain(NOTES_API)
    expect(textById(parsed, "connected-app-0-since")).toMatch(/^Since \w{3} \d{1,2}, \d{4}/)
    const time = parsed.elements.find((element) => element.tagName === "time" && byId(parsed, "connected-app-0-since")?.childNodes.includes(element))
    expect(Math.round((Date.now() - Date.parse(attr(time!, "datetime") as string)) / (DAY * 1000))).toBe(10)
    expect(textById(parsed, "connected-app-1-revoke")).toBe("Revoke access of Notes <CLI>")
    const form = formOf(parsed, "connected-app-1-revoke-form")
    expect(form.action).toBe("/auth/connected-apps/revoke")
    expect(form.fields).toMatchObject({ clientId: NOTES, csrfToken: expect.stringMatching(/.+/) })
    expect(text).not.toContain("No apps yet")
    expect(text).not.toContain(OLD)
  })

  it("revokes an app through the page's form: its grants and tokens are gone, the other app and other users' grants stay", async () => {
    const { who, grants, tokens } = await userWithApps(t)
    const other = await storedUser(t.adapter, "bystander")
    const theirGrant = await grant(t.adapter, other.id, NOTES, { scope: "openid email" })
    const theirToken = await accessToken(t.adapter, theirGrant, other.id, NOTES)
    const client = await signIn(t.app, who)
    const before = t.events.length
    const auditBefore = t.auditRecords.length

    const { parsed } = await accountPage(client)
    const form = formOf(parsed, "connected-app-1-revoke-form")
    const response = await client.agent.post(form.action).type("form").set("Accept", "text/html").send(new URLSearchParams(form.fields).toString())
    expect(response.status).toBe(302)
    const location = new URL(response.headers.location as string)
    expect(location.pathname).toBe("/auth/account")
    expect(location.searchParams.get("saved")).toBe("app-revoked")

    for (const jti of [grants.notesOld, grants.notesNew]) expect(await t.adapter.getOidcRecord!("Grant", jti)).toBeNull()
    expect(await t.adapter.getOidcRecord!("AccessToken", tokens.notes)).toBeNull()
    expect(await t.adapter.getOidcRecord!("Grant", grants.calendar)).not.toBeNull()
    expect(await t.adapter.getOidcRecord!("AccessToken", tokens.calendar)).not.toBeNull()
    expect(await t.adapter.getOidcRecord!("Grant", theirGrant)).not.toBeNull()
    expect(await t.adapter.getOidcRecord!("AccessToken", theirToken)).not.toBeNull()
    expect(t.events.slice(before)).toEqual([{ type: "oidc.app.revoked", clientId: NOTES, userId: who.id, actorId: who.id, scopes: ["email", "notes:read", "offline_access", "openid", "profile"] }])
    expect(t.auditRecords.slice(auditBefore)).toEqual([expect.objectContaining({ type: "oidc.app.revoked", userId: who.id, clientId: NOTES, actorId: who.id })])

    // Back on the page: the notice, and only the other app.
    const back = await client.agent.get(`${location.pathname}${location.search}`).set("Accept", "text/html")
    const shown = parseHtml(back.text)
    expect(textById(shown, "connected-apps-status")).toBe("The app's access was revoked.")
    expect(textById(shown, "connected-app-0-name")).toBe("Calendar & Co")
    expect(byId(shown, "connected-app-1")).toBeUndefined()
    expect((await client.get("/auth/connected-apps")).body.apps.map((app: Json) => app.clientId)).toEqual([CALENDAR])
  })

  it("answers JSON: revoked, then nothing left to revoke; a request without a client id is refused", async () => {
    const { who, grants } = await userWithApps(t)
    const client = await signIn(t.app, who)
    const post = async (fields: Json) => {
      const csrfToken = await csrfOf(client.agent)
      return client.agent.post("/auth/connected-apps/revoke").set("Accept", "application/json").send({ ...fields, csrfToken })
    }
    const revoked = await post({ clientId: CALENDAR })
    expect(revoked.status).toBe(200)
    expect(revoked.body).toEqual({ revoked: true })
    expect(await t.adapter.getOidcRecord!("Grant", grants.calendar)).toBeNull()
    expect((await post({ clientId: CALENDAR })).body).toEqual({ revoked: false })
    const missing = await post({})
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual(refusal("InvalidRequest"))
    const csrfToken = await csrfOf(client.agent)
    const unknown = await client.agent.post("/auth/connected-apps/forget").set("Accept", "application/json").send({ clientId: NOTES, csrfToken })
    expect(unknown.body).toEqual(refusal("UnknownAction"))
    expect(await t.adapter.getOidcRecord!("Grant", grants.notesNew)).not.toBeNull()
  })

  it("needs the CSRF token and a session", async () => {
    const { who, grants } = await userWithApps(t)
    const client = await signIn(t.app, who)
    const forged = await client.agent.post("/auth/connected-apps/revoke").set("Accept", "application/json").send({ clientId: NOTES })
    expect(forged.status).toBe(403)
    expect(forged.body).toEqual(refusal("MissingCSRF"))
    const wrong = await client.agent.post("/auth/connected-apps/revoke").type("form").send({ clientId: NOTES, csrfToken: "0".repeat(64) })
    expect(wrong.status).not.toBe(200)
    expect(String(wrong.headers.location ?? "")).not.toContain("saved=app-revoked")
    expect(await t.adapter.getOidcRecord!("Grant", grants.notesNew)).not.toBeNull()

    const stranger = agentFor(t.app)
    const listed = await stranger.get("/auth/connected-apps").set("Accept", "application/json")
    expect(listed.status).toBe(401)
    expect(listed.body).toEqual(refusal("SessionRequired"))
    const token = await csrfOf(stranger)
    const revoke = await stranger.post("/auth/connected-apps/revoke").set("Accept", "application/json").send({ clientId: NOTES, csrfToken: token })
    expect(revoke.status).toBe(401)
    expect(revoke.body).toEqual(refusal("SessionRequired"))
    expect(await t.adapter.getOidcRecord!("Grant", grants.notesNew)).not.toBeNull()
  })

  it("says there are no apps yet, in the page's language", async () => {
    const client = await signIn(t.app, await storedUser(t.adapter, "newcomer"))
    expect((await client.get("/auth/connected-apps")).body).toEqual({ apps: [] })
    const english = await accountPage(client)
    expect(textById(english.parsed, "connected-apps-none")).toBe("No apps yet.")
    const german = await accountPage(client, "de")
    expect(textById(german.parsed, "connected-apps-heading")).toBe("Verbundene Apps")
    expect(textById(german.parsed, "connected-apps-none")).toBe("Noch keine Apps.")
  })

  it("revokes every app of a user at once (the account going), and no one else's", async () => {
    const { who, grants, tokens } = await userWithApps(t)
    const other = await storedUser(t.adapter, "keeper")
    const theirGrant = await grant(t.adapter, other.id, CALENDAR, { scope: "openid" })
    const revoked = await revokeAllConnectedApps(resolveConfig(t.config), who.id)
    expect(revoked.sort()).toEqual([CALENDAR, NOTES])
    for (const jti of Object.values(grants)) expect(await t.adapter.getOidcRecord!("Grant", jti)).toBeNull()
    for (const jti of Object.values(tokens)) expect(await t.adapter.getOidcRecord!("AccessToken", jti)).toBeNull()
    expect(await t.adapter.getOidcRecord!("Grant", theirGrant)).not.toBeNull()
  })
})

describe("connected apps with the identity provider off", () => {
  it("answers IdentityProviderUnavailable and the account page has no such section", async () => {
    const store = engine("memory", "off")
    await store.open()
    const t = setup(store.adapter(), undefined)
    const who = await storedUser(t.adapter, "plain")
    const client = await signIn(t.app, who)
    const listed = await client.get("/auth/connected-apps")
    expect(listed.status).toBe(404)
    expect(listed.body).toEqual(refusal("IdentityProviderUnavailable"))
    const csrfToken = await csrfOf(client.agent)
    const revoke = await client.agent.post("/auth/connected-apps/revoke").set("Accept", "application/json").send({ clientId: NOTES, csrfToken })
    expect(revoke.body).toEqual(refusal("IdentityProviderUnavailable"))
    const { parsed, text } = await accountPage(client)
    expect(byId(parsed, "connected-apps")).toBeUndefined()
    expect(text).not.toContain("Connected apps")
    await store.close()
  })
})
