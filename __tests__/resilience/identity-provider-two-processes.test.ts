/**
 * Gatehouse's identity provider (issue #32) on two app processes, A and B, sharing PostgreSQL (the
 * SQL adapter: users, and the provider's grants, codes, tokens, sessions and signing keys), and
 * three relying parties talking HTTP to it. A and B have the same configuration and the same
 * AUTH_URL (A's address; the issuer is `<AUTH_URL>/oidc`): one site. The test chooses which
 * process answers each request (B at its own port, as a load balancer would send it there).
 *
 * 1. One provider, two processes: the signing keys both generate at once (none configured) end up
 *    the same; a code issued by A is redeemed at B (and its replay at A revokes what B issued);
 *    consent given on A is remembered on B; a refresh token from B is refreshed at A, and the old
 *    one reused at B is refused and revokes the family on both; a JWT access token from either is
 *    taken by the other's `requireAuth({ accessToken })`.
 * 2. Gatehouse as a client: a third process, another Gatehouse app whose only sign-in is the
 *    generic OIDC provider pointed at A's issuer; a browser goes from its sign-in through A's
 *    sign-in and consent pages back to it, and its session has the user's address.
 * 3. express-openid-connect as an independent relying party in a fourth process: the same journey
 *    ends with `req.oidc.user.email`.
 * The time each step took is printed at the end.
 */
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { ensureBuilt } from "../helpers/build.js"
import { freePort } from "../helpers/ports.js"
import { formOf, pkce } from "../identity-provider/support.js"
import { POSTGRES_URL, report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { createTables, type TestTables } from "./support/process-db.js"
import { SiteBrowser, type Page } from "./support/identity-provider-browser.js"

const PROVIDER_APP = fileURLToPath(new URL("./support/apps/identity-provider-app.js", import.meta.url))
const CLIENT_APP = fileURLToPath(new URL("./support/apps/identity-provider-client-app.js", import.meta.url))
const RP_APP = fileURLToPath(new URL("./support/apps/identity-provider-rp-app.js", import.meta.url))
const SECRETS = JSON.stringify(["identity-provider-two-processes-0123456789abcdef"])
const API = "https://api.example.test/"
const REDIRECT = "https://client.example.test/callback"
const WEB_SECRET = `web-${randomBytes(24).toString("hex")}`
const GATEHOUSE_SECRET = `gatehouse-${randomBytes(24).toString("hex")}`
const RP_SECRET = `rp-${randomBytes(24).toString("hex")}`
const PROVIDER_ID = "gatehouse-idp"

const people = {
  ada: { id: "u-ada", email: "ada@example.com", name: "Ada" },
  grace: { id: "u-grace", email: "grace@example.com", name: "Grace" },
  linus: { id: "u-linus", email: "linus@example.com", name: "Linus" },
}

type Tokens = { access_token?: string; refresh_token?: string; id_token?: string; token_type?: string; scope?: string; error?: string; error_description?: string }

let tables: TestTables
let A: AppProcess
let B: AppProcess
/** The site's origin (A's address, every process's AUTH_URL) and the issuer. */
let site: string
let issuer: string
let clientPort: number
let rpPort: number
const rows: Record<string, string | number>[] = []

/** Runs `step`, keeps its time under `name`. */
async function timed<T>(name: string, step: () => Promise<T>): Promise<T> {
  const started = performance.now()
  const result = await step()
  rows.push({ step: name, ms: Math.round(performance.now() - started) })
  return result
}

const onProvider = (url: URL) => url.hostname === "127.0.0.1"
const offProvider = (url: URL) => !onProvider(url)

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>
}

/** A token request to the token endpoint of `origin` (a process), as the `web` client. */
async function token(origin: string, fields: Record<string, string>): Promise<{ status: number; body: Tokens }> {
  const response = await fetch(`${origin}/auth/oidc/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`web:${WEB_SECRET}`).toString("base64")}` },
    body: new URLSearchParams(fields).toString(),
  })
  return { status: response.status, body: (await response.json()) as Tokens }
}

/** The `web` client's authorization URL at the site (PKCE, state, the API as resource). */
function authorizeUrl(params: Record<string, string>): { url: string; verifier: string; state: string } {
  const { verifier, challenge } = pkce()
  const state = randomBytes(8).toString("hex")
  const search = new URLSearchParams({ client_id: "web", response_type: "code", redirect_uri: REDIRECT, scope: "openid email profile notes:read", resource: API, code_challenge: challenge, code_challenge_method: "S256", state, ...params })
  return { url: `${issuer}/auth?${search}`, verifier, state }
}

/** On the provider's sign-in page: the Credentials form filled in and posted; the page it leads to (redirects on the provider followed). */
async function signInOnProvider(browser: SiteBrowser, page: Page, email: string): Promise<Page> {
  expect(page.status).toBe(200)
  expect(new URL(page.url).pathname).toBe("/auth/signin")
  const form = formOf(page.body, { action: /callback\/credentials/ })
  const posted = await browser.request(new URL(form.action, page.url).href, { form: { ...form.fields, email, password: "pw" } })
  expect(posted.status).toBe(302)
  expect(posted.location).toContain("/auth/oidc-interaction/")
  return browser.follow(posted.location!, offProvider)
}

/** On the consent page: Allow; where the provider then sends the browser (off the provider). */
async function allow(browser: SiteBrowser, page: Page, clientName: string): Promise<Page> {
  expect(page.status).toBe(200)
  expect(page.body).toContain(clientName)
  const form = formOf(page.body, { action: /oidc-interaction/, button: { name: "decision", value: "allow" } })
  return browser.follow(new URL(form.action, page.url).href, offProvider, { form: form.fields })
}

/** The code in the redirect to the `web` client, checked against the request's state and the issuer. */
function codeOf(page: Page, state: string): string {
  expect([302, 303]).toContain(page.status)
  const back = new URL(page.location!)
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT)
  expect(back.searchParams.get("error")).toBeNull()
  expect(back.searchParams.get("state")).toBe(state)
  expect(back.searchParams.get("iss")).toBe(issuer)
  return back.searchParams.get("code")!
}

/** Which processes answered the browser's requests to the provider (by port). */
function processesSeen(browser: SiteBrowser): Set<string> {
  return new Set(browser.sent.map((url) => new URL(url)).filter(onProvider).map((url) => (url.origin === A.origin ? "A" : url.origin === B.origin ? "B" : url.origin)))
}

/** B's API route with `accessToken` (and A's): its status and `req.auth` as the route answers it. */
async function notes(origin: string, accessToken: string): Promise<{ status: number; body: { auth?: { user?: { id?: string }; via?: string; accessToken?: { clientId?: string } } } }> {
  const response = await fetch(`${origin}/api/notes`, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } })
  return { status: response.status, body: (await response.json()) as never }
}

beforeAll(async () => {
  // The app processes import the built package: rebuilt when a source is newer.
  await ensureBuilt()
  tables = await createTables("idp")
  for (const person of Object.values(people)) await tables.adapter.createUser({ ...person, emailVerified: new Date() })
  const [sitePort, cPort, rPort] = [await freePort(), await freePort(), await freePort()]
  clientPort = cPort
  rpPort = rPort
  site = `http://127.0.0.1:${sitePort}`
  issuer = `${site}/auth/oidc`
  const clients = [
    { client_id: "web", client_secret: WEB_SECRET, client_name: "Web App", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"] },
    { client_id: "gatehouse-client", client_secret: GATEHOUSE_SECRET, client_name: "Second Gatehouse App", redirect_uris: [`http://localhost:${clientPort}/auth/callback/${PROVIDER_ID}`] },
    { client_id: "eoc", client_secret: RP_SECRET, client_name: "Express OpenID Connect App", redirect_uris: [`http://localhost:${rpPort}/callback`] },
  ]
  const env = { GH_SECRETS: SECRETS, GH_DB: POSTGRES_URL, GH_TABLE_PREFIX: tables.prefix, GH_CLIENTS: JSON.stringify(clients), GH_API: API, AUTH_URL: `${site}/auth` }
  // Started together; A on the site's port, B on a port of its own.
  ;[A, B] = await timed("start A and B (two processes)", () => Promise.all([startApp("A", { ...env, GH_PORT: String(sitePort) }, PROVIDER_APP), startApp("B", env, PROVIDER_APP)]))
  expect(A.origin).toBe(site)
}, 240_000)

afterAll(async () => {
  await stopAll()
  await tables?.drop()
  report("identity provider on two processes sharing PostgreSQL, and three relying parties", rows)
})

describe("one provider, two processes sharing PostgreSQL", () => {
  test("the signing keys A and B generate at the same moment (none configured) are the same: B's JWKS is A's", async () => {
    // The first requests to the provider, to both at once: each process builds its provider then.
    const [a, b] = await timed("first JWKS of A and B at once (keys generated)", () => Promise.all([A.origin, B.origin].map(async (origin) => (await fetch(`${origin}/auth/oidc/jwks`)).json() as Promise<{ keys: Record<string, unknown>[] }>)))
    expect(a.keys.map((key) => key.alg)).toEqual(["RS256", "ES256"])
    expect(a.keys.every((key) => key.d === undefined)).toBe(true)
    expect(b).toEqual(a)
    // And the discovery documents name the same issuer.
    const [discoveryA, discoveryB] = await Promise.all([A.origin, B.origin].map(async (origin) => (await fetch(`${origin}/auth/oidc/.well-known/openid-configuration`)).json() as Promise<{ issuer: string }>))
    expect(discoveryA.issuer).toBe(issuer)
    expect(discoveryB.issuer).toBe(issuer)
    // One key set stored, sealed: not the private keys in clear.
    const stored = await tables.adapter.getOidcRecord!("GatehouseSigningKeys", "current")
    expect(stored?.payload).not.toContain(String(a.keys[0]!.n))
  })

  test("a code issued by A is redeemed at B; replayed at A it is refused and what B issued is revoked", async () => {
    const browser = new SiteBrowser()
    const { url, verifier, state } = authorizeUrl({ scope: "openid email profile offline_access notes:read", prompt: "consent" })
    const code = await timed("code flow on A (sign-in, consent)", async () => {
      const signInPage = await browser.follow(url, offProvider)
      const consent = await signInOnProvider(browser, signInPage, people.ada.email)
      return codeOf(await allow(browser, consent, "Web App"), state)
    })
    expect(processesSeen(browser)).toEqual(new Set(["A"]))

    const redeemed = await timed("code from A redeemed at B", () => token(B.origin, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }))
    expect(redeemed.status).toBe(200)
    expect(redeemed.body.token_type).toBe("Bearer")
    expect(claimsOf(redeemed.body.id_token!)).toMatchObject({ iss: issuer, sub: people.ada.id, aud: "web", email: people.ada.email })
    expect(claimsOf(redeemed.body.access_token!)).toMatchObject({ iss: issuer, sub: people.ada.id, aud: API, client_id: "web" })
    expect(redeemed.body.refresh_token).toEqual(expect.any(String))
    // B's access token works on A's API, as on B's.
    expect((await notes(A.origin, redeemed.body.access_token!)).status).toBe(200)

    const replay = await token(A.origin, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier })
    expect(replay).toEqual({ status: 400, body: expect.objectContaining({ error: "invalid_grant" }) })
    // A revoked the grant B issued tokens for: B's refresh token is refused at B.
    expect(await token(B.origin, { grant_type: "refresh_token", refresh_token: redeemed.body.refresh_token! })).toEqual({ status: 400, body: expect.objectContaining({ error: "invalid_grant" }) })
  })

  test("consent given on A is remembered on B: a new browser signing in on B goes straight back to the client with a code", async () => {
    const first = new SiteBrowser()
    const given = authorizeUrl({})
    const consent = await signInOnProvider(first, await first.follow(given.url, offProvider), people.ada.email)
    codeOf(await allow(first, consent, "Web App"), given.state)
    expect(processesSeen(first)).toEqual(new Set(["A"]))

    // Another browser, served by B only: B's sign-in page, then no consent page.
    const second = new SiteBrowser()
    second.pin(site, B.origin)
    const again = authorizeUrl({})
    const back = await timed("authorization on B, consent remembered from A", async () => {
      const signInPage = await second.follow(again.url, offProvider)
      return signInOnProvider(second, signInPage, people.ada.email)
    })
    const code = codeOf(back, again.state)
    expect(processesSeen(second)).toEqual(new Set(["B"]))
    expect(second.sent.some((sent) => /oidc-interaction/.test(sent) && new URL(sent).origin === B.origin)).toBe(true)
    const redeemed = await token(B.origin, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: again.verifier })
    expect(redeemed.status).toBe(200)
    expect(claimsOf(redeemed.body.access_token!)).toMatchObject({ sub: people.ada.id, scope: expect.stringContaining("notes:read") })
  })

  test("a refresh token from B is refreshed at A; the old one reused at B is refused and the family revoked on both; JWT access tokens cross processes", async () => {
    const browser = new SiteBrowser()
    browser.pin(site, B.origin)
    const { url, verifier, state } = authorizeUrl({ scope: "openid email offline_access notes:read", prompt: "consent" })
    const consent = await signInOnProvider(browser, await browser.follow(url, offProvider), people.ada.email)
    const code = codeOf(await allow(browser, consent, "Web App"), state)
    expect(processesSeen(browser)).toEqual(new Set(["B"]))
    const fromB = await token(B.origin, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier })
    expect(fromB.status).toBe(200)

    const fromA = await timed("refresh token from B refreshed at A", () => token(A.origin, { grant_type: "refresh_token", refresh_token: fromB.body.refresh_token! }))
    expect(fromA.status).toBe(200)
    expect(fromA.body.refresh_token).toEqual(expect.any(String))
    expect(fromA.body.refresh_token).not.toBe(fromB.body.refresh_token)

    // A's JWT access token on B's requireAuth({ accessToken }), and B's on A's.
    const onB = await timed("A's access token checked by B's requireAuth", () => notes(B.origin, fromA.body.access_token!))
    expect(onB).toEqual({ status: 200, body: { auth: expect.objectContaining({ user: { id: people.ada.id }, via: "accessToken", accessToken: expect.objectContaining({ clientId: "web" }) }) } })
    expect((await notes(A.origin, fromB.body.access_token!)).status).toBe(200)
    // Another token (not the provider's, or altered) is refused there.
    const [head, body] = fromA.body.access_token!.split(".")
    expect((await notes(B.origin, `${head}.${body}.${"A".repeat(342)}`)).status).toBe(401)

    const reused = await timed("rotated refresh token reused at B", () => token(B.origin, { grant_type: "refresh_token", refresh_token: fromB.body.refresh_token! }))
    expect(reused).toEqual({ status: 400, body: expect.objectContaining({ error: "invalid_grant" }) })
    // The family is revoked: the refresh token A issued is refused at B and at A.
    expect(await token(B.origin, { grant_type: "refresh_token", refresh_token: fromA.body.refresh_token! })).toEqual({ status: 400, body: expect.objectContaining({ error: "invalid_grant" }) })
    expect(await token(A.origin, { grant_type: "refresh_token", refresh_token: fromA.body.refresh_token! })).toEqual({ status: 400, body: expect.objectContaining({ error: "invalid_grant" }) })
    expect(await tables.adapter.listOidcRecords!("RefreshToken", { accountId: people.ada.id, clientId: "web" })).toEqual([])
  })
})

describe("Gatehouse as a client: a second Gatehouse app signs in through A (a third process)", () => {
  beforeAll(async () => {
    // Stopped with the others (stopAll).
    await startApp("C", { GH_SECRETS: JSON.stringify(["identity-provider-client-app-0123456789abcdef"]), AUTH_URL: `http://localhost:${clientPort}/auth`, GH_PORT: String(clientPort), GH_ISSUER: issuer, GH_PROVIDER_ID: PROVIDER_ID, GH_CLIENT_ID: "gatehouse-client", GH_CLIENT_SECRET: GATEHOUSE_SECRET }, CLIENT_APP)
  }, 60_000)

  test("sign-in at the client app -> A's sign-in page -> consent -> the client's callback: its session has the user's address", async () => {
    const browser = new SiteBrowser()
    const app = `http://localhost:${clientPort}`
    const session = await timed("Gatehouse client: sign-in through A", async () => {
      const csrf = await browser.request(`${app}/auth/csrf`, { headers: { accept: "application/json" } })
      const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
      const start = await browser.request(`${app}/auth/signin/${PROVIDER_ID}`, { form: { csrfToken, callbackUrl: `${app}/done` } })
      expect(start.status).toBe(302)
      const to = new URL(start.location!)
      expect(`${to.origin}${to.pathname}`).toBe(`${issuer}/auth`)
      expect(to.searchParams.get("client_id")).toBe("gatehouse-client")
      expect(to.searchParams.get("code_challenge_method")).toBe("S256")
      const signInPage = await browser.follow(start.location!, offProvider)
      const consent = await signInOnProvider(browser, signInPage, people.grace.email)
      const back = await allow(browser, consent, "Second Gatehouse App")
      expect(back.location).toMatch(new RegExp(`^${app}/auth/callback/${PROVIDER_ID}\\?`))
      const done = await browser.follow(back.location!, (url) => url.pathname === "/done")
      expect(done.location).toBe(`${app}/done`)
      return browser.request(`${app}/auth/session`, { headers: { accept: "application/json" } })
    })
    expect(session.status).toBe(200)
    expect(JSON.parse(session.body)).toMatchObject({ user: { email: people.grace.email, name: people.grace.name } })
    // The provider's own cookies stayed with the provider's site.
    expect(browser.cookieNames(`${app}/`).some((name) => name.startsWith("gatehouse.op."))).toBe(false)
  })
})

describe("express-openid-connect as an independent relying party (a fourth process)", () => {
  let R: AppProcess
  beforeAll(async () => {
    R = await startApp("R", { GH_PORT: String(rpPort), GH_BASE_URL: `http://localhost:${rpPort}`, GH_ISSUER: issuer, GH_CLIENT_ID: "eoc", GH_CLIENT_SECRET: RP_SECRET, GH_RP_SECRET: randomBytes(32).toString("hex") }, RP_APP)
  }, 60_000)

  test("/login -> A's sign-in and consent -> /callback: req.oidc.user.email is the user's", async () => {
    const browser = new SiteBrowser()
    const app = `http://localhost:${rpPort}`
    const me = await timed("express-openid-connect: sign-in through A", async () => {
      const login = await browser.request(`${app}/login`)
      expect(login.status).toBe(302)
      const to = new URL(login.location!)
      expect(`${to.origin}${to.pathname}`).toBe(`${issuer}/auth`)
      // PKCE: the provider requires it of every client, and the library sends it.
      expect(to.searchParams.get("code_challenge_method")).toBe("S256")
      expect(to.searchParams.get("code_challenge")).toEqual(expect.any(String))
      const signInPage = await browser.follow(login.location!, offProvider)
      const consent = await signInOnProvider(browser, signInPage, people.linus.email)
      const back = await allow(browser, consent, "Express OpenID Connect App")
      expect(back.location).toMatch(new RegExp(`^${app}/callback\\?`))
      const landed = await browser.follow(back.location!, (url) => url.origin !== app)
      expect(landed.status).not.toBe(500)
      return browser.request(`${app}/me`, { headers: { accept: "application/json" } })
    })
    expect(me.status).toBe(200)
    expect(JSON.parse(me.body)).toMatchObject({ user: { sub: people.linus.id, email: people.linus.email } })
    expect(R.stderr()).not.toMatch(/Error/)
  })
})
