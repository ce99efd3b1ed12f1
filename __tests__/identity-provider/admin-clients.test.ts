/**
 * The identity provider's clients on the admin page (issue #32) on memory and SQLite: an admin
 * creates a confidential client (its secret shown once, on a page never cached, and stored only
 * sealed), which then gets tokens from `<base>/oidc/token` with that secret; rotating it refuses
 * the old secret and takes the new one; deleting it ends its grants and tokens and refuses its
 * secret. Clients declared in the configuration cannot be changed; a non-admin, a stale sign-in
 * and bad input are refused by name (never a 500); the section escapes a client's own name.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import type { AuthConfig } from "../../lib/types.js"
import { csrfOf, refusal, signIn, type Client, type Json } from "../integration/organizations/support.js"
import { API, Browser, REDIRECT, engine, pkce, startProvider, storedUser, type EngineName, type ProviderApp } from "./support.js"
import { authorizationUrl, basic, bearerGet, codeFor, post } from "./protocol-support.js"

const REAL_TIMERS = ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"] as const

afterEach(() => {
  jest.useRealTimers()
})

const GRANTS = ["authorization_code", "refresh_token", "client_credentials"]

interface Answer {
  status: number
  body: Json
  text: string
  headers: Record<string, unknown>
}

/** `POST /auth/admin/<action>` as JSON with the CSRF token. */
async function adminJson(who: Client, action: string, fields: Json): Promise<Answer> {
  const response = await who.agent
    .post(`/auth/admin/${action}`)
    .set("Accept", "application/json")
    .send({ ...fields, csrfToken: await csrfOf(who.agent) })
  return { status: response.status, body: response.body as Json, text: response.text, headers: response.headers }
}

/** The same action as the admin page's form sends it (urlencoded, repeated fields for checkboxes). */
async function adminForm(who: Client, action: string, fields: Array<[string, string]>): Promise<Answer> {
  const body = new URLSearchParams([...fields, ["csrfToken", await csrfOf(who.agent)]]).toString()
  const response = await who.agent.post(`/auth/admin/${action}`).type("form").set("Accept", "text/html").send(body)
  return { status: response.status, body: {}, text: response.text, headers: response.headers }
}

/** A client's item in the admin page's section: from its marker to the next item (or the create form). */
function itemOf(html: string, clientId: string): string {
  const start = html.indexOf(`data-client-id="${clientId}"`)
  if (start < 0) return ""
  const rest = html.slice(start + 1)
  const ends = [rest.indexOf("data-client-id="), rest.indexOf('id="oidc-client-create-heading"')].filter((at) => at >= 0)
  return rest.slice(0, Math.min(...ends))
}

/** A read-only field's value on a page, by its id. */
function valueOf(html: string, id: string): string | undefined {
  const input = new RegExp(`<input id="${id}"[^>]*value="([^"]*)"`).exec(html)
  return input?.[1]
}

describe.each<EngineName>(["memory", "sqlite"])("the provider's clients on the admin page (%s)", (name) => {
  const store = engine(name, "idpadm")
  const adminIds = new Set<string>()
  let t: ProviderApp
  let admin: Client

  beforeAll(async () => {
    await store.open()
    const extra = { admin: { isAdmin: ({ user }: { user: { id: string } }) => adminIds.has(user.id) } } as unknown as Partial<AuthConfig>
    t = await startProvider(store.adapter(), {}, extra)
    const boss = await storedUser(t.config.adapter!, "boss")
    adminIds.add(boss.id)
    admin = await signIn(t.app, boss)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await store.close()
  })

  const clientCredentials = (clientId: string, secret: string) => post(t, "/token", { grant_type: "client_credentials", scope: "notes:read", resource: API }, basic(clientId, secret))

  it("creates a confidential client whose secret is shown once and stored sealed; it gets tokens with it; rotating and deleting it end the old secret and its tokens", async () => {
    // Created through the admin page's form: the one-time page, never cached.
    const created = await adminForm(admin, "create-oidc-client", [
      ["name", "Reporting robot"],
      ["redirectUris", `${REDIRECT}\r\n`],
      ...GRANTS.map((grant): [string, string] => ["grantTypes", grant]),
    ])
    expect(created.status).toBe(200)
    expect(created.headers["cache-control"]).toBe("no-store")
    expect(created.text).toContain("Reporting robot")
    const clientId = valueOf(created.text, "oidc-client-secret-id")!
    const secret = valueOf(created.text, "oidc-client-secret-value")!
    expect(clientId).toMatch(/^gc_/)
    expect(secret.length).toBeGreaterThanOrEqual(40)
    expect(created.text).toMatch(/href="http:\/\/app\.test\/auth\/admin#oidc-clients" id="oidc-client-secret-back"/)

    // The admin page lists it (and JSON has it) without the secret; the adapter holds it sealed.
    const listed = await admin.get("/auth/admin")
    expect(listed.body.oidcClients).toEqual(
      expect.arrayContaining([expect.objectContaining({ clientId, name: "Reporting robot", origin: "created", authMethod: "client_secret_basic", grantTypes: GRANTS, redirectUris: [REDIRECT] })]),
    )
    const page = await admin.get("/auth/admin", "text/html")
    expect(page.text).toContain(clientId)
    expect(page.text).not.toContain(secret)
    expect(JSON.stringify(listed.body)).not.toContain(secret)
    const record = await t.config.adapter!.getOidcRecord!("Client", clientId)
    expect(record?.payload).toBeDefined()
    expect(record!.payload).not.toContain(secret)
    expect(JSON.parse(record!.payload)).not.toHaveProperty("client_secret")
    expect(t.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: "oidc.client.created", clientId, actorId: admin.id })]))

    // The client signs in a person (a grant and tokens of its own) and gets a machine token.
    const browser = new Browser()
    const { verifier, challenge } = pkce()
    const { code } = await codeFor(t, browser, authorizationUrl(t, { client_id: clientId, scope: "openid offline_access", prompt: "consent", code_challenge: challenge, code_challenge_method: "S256" }), (await storedUser(t.config.adapter!, "reader")).username)
    const tokens = await post(t, "/token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }, basic(clientId, secret))
    expect(tokens.status).toBe(200)
    const accessToken = String(tokens.body.access_token)
    expect((await bearerGet(`${t.issuer}/me`, accessToken)).status).toBe(200)
    const machine = await clientCredentials(clientId, secret)
    expect(machine.status).toBe(200)
    expect((await bearerGet(`${t.origin}/api/notes`, String(machine.body.access_token))).body.auth).toMatchObject({ accessToken: { clientId } })

    // Rotated as JSON: the old secret is refused, the new one works.
    const rotated = await adminJson(admin, "rotate-oidc-client-secret", { clientId })
    expect(rotated.status).toBe(200)
    expect(rotated.headers["cache-control"]).toBe("no-store")
    expect(rotated.body).toMatchObject({ client: { clientId, name: "Reporting robot" }, clientSecret: expect.any(String) })
    const newSecret = String(rotated.body.clientSecret)
    expect(newSecret).not.toBe(secret)
    const old = await clientCredentials(clientId, secret)
    expect(old.status).toBe(401)
    expect(old.body.error).toBe("invalid_client")
    expect((await clientCredentials(clientId, newSecret)).status).toBe(200)
    expect((await t.config.adapter!.getOidcRecord!("Client", clientId))!.payload).not.toContain(newSecret)

    // Deleted through the page's form: back to the list saying so; its grants and tokens are gone, its secret refused.
    expect((await t.config.adapter!.listOidcRecords!("Grant", { clientId })).length).toBeGreaterThan(0)
    const deleted = await adminForm(admin, "delete-oidc-client", [["clientId", clientId]])
    expect(deleted.status).toBe(302)
    expect(deleted.headers.location).toBe("http://app.test/auth/admin?saved=delete-oidc-client#oidc-clients")
    const after = await admin.get("/auth/admin?saved=delete-oidc-client", "text/html")
    expect(after.text).toContain("The client was deleted with its tokens.")
    expect(after.text).not.toContain(clientId)
    expect(await t.config.adapter!.getOidcRecord!("Client", clientId)).toBeNull()
    expect(await t.config.adapter!.listOidcRecords!("Grant", { clientId })).toEqual([])
    expect(await t.config.adapter!.getOidcRecord!("AccessToken", accessToken)).toBeNull()
    expect((await bearerGet(`${t.issuer}/me`, accessToken)).status).toBe(401)
    const gone = await clientCredentials(clientId, newSecret)
    expect(gone.status).toBe(401)
    expect(gone.body.error).toBe("invalid_client")
    expect(t.events).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: "oidc.client.secret_rotated", clientId, actorId: admin.id }), expect.objectContaining({ type: "oidc.client.deleted", clientId, actorId: admin.id })]),
    )
  })

  it("shows a public client's id without a secret, and has no rotate form for it", async () => {
    const created = await adminJson(admin, "create-oidc-client", { name: "Phone app", redirectUris: [REDIRECT], public: true })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ client: { name: "Phone app", authMethod: "none" }, clientSecret: null })
    const clientId = String(created.body.client.clientId)
    const page = await admin.get("/auth/admin", "text/html")
    const item = itemOf(page.text, clientId)
    expect(item).toContain("Public (no secret, PKCE)")
    expect(item).toContain("delete-oidc-client")
    expect(item).not.toContain("rotate-oidc-client-secret")
    const rotate = await adminJson(admin, "rotate-oidc-client-secret", { clientId })
    expect(rotate.status).toBe(400)
    expect(rotate.body).toEqual(refusal("InvalidRequest"))
  })

  it("lists configured clients as read only and refuses to rotate or delete them (OidcClientNotFound)", async () => {
    const page = await admin.get("/auth/admin", "text/html")
    const web = itemOf(page.text, "web")
    expect(web).toContain("Web App")
    expect(web).toContain("Declared in the configuration (read only)")
    expect(web).not.toContain("<form")
    for (const action of ["rotate-oidc-client-secret", "delete-oidc-client"]) {
      const refused = await adminJson(admin, action, { clientId: "web" })
      expect(refused.status).toBe(404)
      expect(refused.body).toEqual(refusal("OidcClientNotFound"))
    }
    expect((await post(t, "/token", { grant_type: "client_credentials" }, basic("machine"))).status).toBe(200)
    // The form comes back to the admin page, which says why.
    const form = await adminForm(admin, "delete-oidc-client", [["clientId", "web"]])
    expect(form.status).toBe(302)
    expect(form.headers.location).toBe("http://app.test/auth/admin?error=OidcClientNotFound#oidc-clients")
    const shown = await admin.get("/auth/admin?error=OidcClientNotFound", "text/html")
    expect(shown.text).toContain("Clients declared in the configuration are changed there.")
  })

  it("refuses bad input by name, never a 500", async () => {
    const before = (await admin.get("/auth/admin")).body.oidcClients.length
    const cases: Json[] = [
      { name: "", redirectUris: [REDIRECT] },
      { name: "No redirect" },
      { name: "Relative", redirectUris: ["/callback"] },
      { name: "Bad grant", redirectUris: [REDIRECT], grantTypes: ["password"] },
      { name: "Public machine", grantTypes: ["client_credentials"], public: true },
      { name: { object: true }, redirectUris: [REDIRECT] },
    ]
    for (const fields of cases) {
      const refused = await adminJson(admin, "create-oidc-client", fields)
      expect(refused.status).toBe(400)
      expect(refused.body).toEqual(refusal("InvalidRequest"))
    }
    const form = await adminForm(admin, "create-oidc-client", [["name", "Broken"], ["redirectUris", "not a url"]])
    expect(form.status).toBe(302)
    expect(form.headers.location).toBe("http://app.test/auth/admin?error=InvalidOption#oidc-clients")
    const shown = await admin.get("/auth/admin?error=InvalidOption", "text/html")
    expect(shown.text).toContain("The client was not saved.")
    const unknown = await adminJson(admin, "delete-oidc-client", { clientId: "gc_nobody" })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(refusal("OidcClientNotFound"))
    expect((await adminJson(admin, "rotate-oidc-client-secret", {})).body).toEqual(refusal("OidcClientNotFound"))
    expect((await admin.get("/auth/admin")).body.oidcClients).toHaveLength(before)
  })

  it("refuses a non-admin (AdminRequired) and a stale sign-in (RecentSignInRequired)", async () => {
    const before = (await admin.get("/auth/admin")).body.oidcClients.length
    const plain = await signIn(t.app, await storedUser(t.config.adapter!, "plain"))
    for (const [action, fields] of [
      ["create-oidc-client", { name: "Sneaky", redirectUris: [REDIRECT] }],
      ["rotate-oidc-client-secret", { clientId: "web" }],
      ["delete-oidc-client", { clientId: "web" }],
    ] as const) {
      const refused = await adminJson(plain, action, fields)
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual(refusal("AdminRequired"))
    }
    expect((await plain.get("/auth/admin")).body).toEqual(refusal("AdminRequired"))

    const boss = await storedUser(t.config.adapter!, "later")
    adminIds.add(boss.id)
    const stale = await signIn(t.app, boss)
    jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: Date.now() + 11 * 60 * 1000 })
    const refused = await adminJson(stale, "create-oidc-client", { name: "Too late", redirectUris: [REDIRECT] })
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual(refusal("RecentSignInRequired"))
    jest.useRealTimers()
    expect((await admin.get("/auth/admin")).body.oidcClients).toHaveLength(before)
  })

  it("escapes a hostile client name in the section and on the secret page", async () => {
    const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)>`
    const created = await adminForm(admin, "create-oidc-client", [
      ["name", hostile],
      ["redirectUris", REDIRECT],
    ])
    expect(created.status).toBe(200)
    expect(created.text).not.toContain("<script>alert")
    expect(created.text).toContain("&lt;script&gt;alert(")
    const page = await admin.get("/auth/admin", "text/html")
    expect(page.text).not.toContain("<script>alert")
    expect(page.text).not.toContain("<img src=x")
    expect(page.text).toContain("&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;")
  })
})
