/**
 * Gatehouse as an identity provider (issue #32), by the protocol, on memory and PostgreSQL, with
 * openid-client as the relying party and plain HTTP for the rest: discovery and JWKS; the code
 * flow with PKCE, consent remembered per user and client (in a new browser too) until revoked on
 * "Connected apps"; public clients (PKCE required, no downgrade, refresh rotation with reuse
 * detection revoking the family); codes used once, by their client and redirect URI only; client
 * credentials with JWT access tokens for the app's API (audience, scope, signature, expiry); the
 * device flow through Gatehouse's pages; introspection and revocation; RP-initiated logout
 * signing the browser out of the app.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import * as client from "openid-client"
import { API, Browser, CLIENT_SECRET, REDIRECT, engine, formOf, pkce, signInBrowser, startProvider, storedUser, type EngineName, type ProviderApp } from "./support.js"
import { authorizationUrl, authorize, basic, bearerGet, claimsOf, codeFor, decide, post, relyingParty } from "./protocol-support.js"

const OTHER_API = "https://other.example.test/"
const SHORT_API = "https://short.example.test/"
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
const REAL_TIMERS = ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"] as const

afterEach(() => {
  jest.useRealTimers()
})

describe.each<EngineName>(["memory", "postgres"])("identity provider protocol on %s", (name) => {
  const store = engine(name, "idpp")
  let t: ProviderApp
  beforeAll(async () => {
    await store.open()
    t = await startProvider(store.adapter(), {
      resources: {
        [API]: { scopes: ["notes:read", "notes:write"] },
        [OTHER_API]: { scopes: ["other:read"] },
        [SHORT_API]: { scopes: ["notes:read"], audience: API, accessTokenTtl: 30 },
      },
    })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await store.close()
  })

  /** The code flow as `web` through to tokens (openid-client redeems the code). */
  async function webTokens(browser: Browser, username: string, scope = "openid email profile offline_access", extra: Record<string, string> = {}) {
    const rp = await relyingParty(t, "web", CLIENT_SECRET)
    const { verifier, challenge } = pkce()
    const state = client.randomState()
    const url = authorizationUrl(t, { client_id: "web", scope, code_challenge: challenge, code_challenge_method: "S256", state, prompt: "consent", ...extra })
    const { redirect, consentShown } = await codeFor(t, browser, url, username)
    const tokens = await client.authorizationCodeGrant(rp, redirect, { pkceCodeVerifier: verifier, expectedState: state })
    return { rp, tokens, consentShown }
  }

  it("publishes discovery and a JWKS with the RS256 key, public parts only", async () => {
    const discovery = await fetch(`${t.issuer}/.well-known/openid-configuration`)
    expect(discovery.status).toBe(200)
    const metadata = (await discovery.json()) as Record<string, unknown>
    expect(metadata.issuer).toBe(t.issuer)
    expect(t.issuer).toBe(`${t.origin}/auth/oidc`)
    for (const endpoint of ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri", "introspection_endpoint", "revocation_endpoint", "device_authorization_endpoint", "end_session_endpoint"]) {
      expect(String(metadata[endpoint])).toMatch(new RegExp(`^${t.issuer}/`))
    }
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"])
    expect(metadata.response_types_supported).toEqual(["code"])
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "client_credentials", "refresh_token", DEVICE_GRANT]))
    expect(metadata.registration_endpoint).toBeUndefined()

    const jwks = (await (await fetch(String(metadata.jwks_uri))).json()) as { keys: Array<Record<string, unknown>> }
    const rsa = jwks.keys.find((key) => key.kty === "RSA")
    expect(rsa).toMatchObject({ kty: "RSA", use: "sig", alg: "RS256" })
    expect(typeof rsa?.kid).toBe("string")
    for (const key of jwks.keys) for (const part of ["d", "p", "q", "dp", "dq", "qi"]) expect(key).not.toHaveProperty(part)
  })

  it("runs the code flow with PKCE for the confidential client: consent, tokens, ID token claims by scope, userinfo", async () => {
    const person = await storedUser(store.adapter(), "ada")
    const browser = new Browser()
    const rp = await relyingParty(t, "web", CLIENT_SECRET)
    const { verifier, challenge } = pkce()
    const state = client.randomState()
    const nonce = client.randomNonce()
    const url = client.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT, scope: "openid email", code_challenge: challenge, code_challenge_method: "S256", state, nonce })
    const first = await authorize(t, browser, url.href, person.username)
    expect(first.signedIn).toBe(true)
    expect(first.consent).toBe(true)
    expect(first.page.body).toContain("Web App")
    const allowed = await decide(t, browser, first.page, "allow")
    expect(allowed.redirect?.searchParams.get("state")).toBe(state)
    const tokens = await client.authorizationCodeGrant(rp, allowed.redirect!, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce })
    const claims = tokens.claims()!
    expect(claims).toMatchObject({ iss: t.issuer, aud: "web", sub: person.id, email: person.email, email_verified: true, nonce })
    expect(claims).not.toHaveProperty("name")
    expect(tokens.refresh_token).toBeUndefined()
    const userinfo = await client.fetchUserInfo(rp, tokens.access_token, person.id)
    expect(userinfo).toMatchObject({ sub: person.id, email: person.email })
    expect(userinfo).not.toHaveProperty("name")

    // With profile: the name comes too.
    const { tokens: more } = await webTokens(browser, person.username, "openid email profile")
    expect(more.claims()).toMatchObject({ sub: person.id, email: person.email, name: person.name })
    expect(await client.fetchUserInfo(rp, more.access_token, person.id)).toMatchObject({ name: person.name })
  })

  it("remembers consent per user and client, in a new browser too, until the app is revoked on Connected apps", async () => {
    const person = await storedUser(store.adapter(), "remember")
    const browser = new Browser()
    const { tokens, consentShown } = await webTokens(browser, person.username)
    expect(consentShown).toBe(true)
    expect(tokens.refresh_token).toEqual(expect.any(String))

    const again = (into: Browser) => {
      const { challenge } = pkce()
      return authorize(t, into, authorizationUrl(t, { client_id: "web", scope: "openid email profile", code_challenge: challenge, code_challenge_method: "S256" }), person.username)
    }
    const second = await again(browser)
    expect(second.signedIn).toBe(false)
    expect(second.consent).toBe(false)
    expect(second.redirect?.searchParams.get("code")).toEqual(expect.any(String))
    const fresh = new Browser()
    const third = await again(fresh)
    expect(third.signedIn).toBe(true)
    expect(third.consent).toBe(false)
    expect(third.redirect?.searchParams.get("code")).toEqual(expect.any(String))
    // Another person is asked.
    const stranger = await storedUser(store.adapter(), "stranger")
    const { challenge } = pkce()
    const theirs = await authorize(t, new Browser(), authorizationUrl(t, { client_id: "web", scope: "openid email", code_challenge: challenge, code_challenge_method: "S256" }), stranger.username)
    expect(theirs.consent).toBe(true)

    // Revoked on the account page's JSON API.
    const csrf = JSON.parse((await fresh.request(`${t.origin}/auth/csrf`, { headers: { accept: "application/json" } })).body) as { csrfToken: string }
    const revoked = await fresh.request(`${t.origin}/auth/connected-apps/revoke`, { form: { clientId: "web", csrfToken: csrf.csrfToken }, headers: { accept: "application/json" } })
    expect(revoked.status).toBe(200)
    expect(JSON.parse(revoked.body)).toEqual({ revoked: true })
    const afterRevoke = await again(fresh)
    expect(afterRevoke.consent).toBe(true)
    const refused = await post(t, "/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token! }, basic("web"))
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe("invalid_grant")
    expect((await bearerGet(`${t.issuer}/me`, tokens.access_token)).status).toBe(401)
  })

  it("sends the browser back with access_denied when the person denies", async () => {
    const person = await storedUser(store.adapter(), "deny")
    const browser = new Browser()
    const { challenge } = pkce()
    const url = authorizationUrl(t, { client_id: "web", scope: "openid email", code_challenge: challenge, code_challenge_method: "S256", state: "s-123" })
    const asked = await authorize(t, browser, url, person.username)
    expect(asked.consent).toBe(true)
    const denied = await decide(t, browser, asked.page, "deny")
    expect(denied.redirect?.searchParams.get("error")).toBe("access_denied")
    expect(denied.redirect?.searchParams.get("state")).toBe("s-123")
    expect(denied.redirect?.searchParams.get("code")).toBeNull()
    expect(t.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: "oidc.consent.denied", clientId: "web", userId: person.id })]))
  })

  describe("a public client", () => {
    it("is refused without PKCE", async () => {
      const person = await storedUser(store.adapter(), "nopkce")
      const browser = new Browser()
      await signInBrowser(browser, t.origin, person.username)
      const page = await browser.follow(authorizationUrl(t, { client_id: "spa", scope: "openid", state: "s-1" }), t.origin)
      expect(page.status).toBeLessThan(500)
      const to = page.location ? new URL(page.location) : undefined
      expect(to?.href.startsWith(REDIRECT)).toBe(true)
      expect(to?.searchParams.get("error")).toBe("invalid_request")
      expect(to?.searchParams.get("error_description")).toMatch(/PKCE/)
      expect(to?.searchParams.get("code")).toBeNull()
    })

    it("cannot downgrade PKCE: a code asked with a challenge is not redeemed without its verifier or with another", async () => {
      const person = await storedUser(store.adapter(), "downgrade")
      const browser = new Browser()
      for (const verifier of [undefined, pkce().verifier]) {
        const { challenge } = pkce()
        const { code } = await codeFor(t, browser, authorizationUrl(t, { client_id: "spa", scope: "openid", code_challenge: challenge, code_challenge_method: "S256" }), person.username)
        const refused = await post(t, "/token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: "spa", ...(verifier && { code_verifier: verifier }) })
        expect(refused.status).toBe(400)
        expect(refused.body.error).toBe("invalid_grant")
      }
    })

    it("gets a refresh token that rotates; reusing an old one revokes the whole family", async () => {
      const person = await storedUser(store.adapter(), "rotate")
      const browser = new Browser()
      const rp = await relyingParty(t, "spa")
      const { verifier, challenge } = pkce()
      const state = client.randomState()
      const { redirect } = await codeFor(t, browser, authorizationUrl(t, { client_id: "spa", scope: "openid email", code_challenge: challenge, code_challenge_method: "S256", state }), person.username)
      const first = await client.authorizationCodeGrant(rp, redirect, { pkceCodeVerifier: verifier, expectedState: state })
      expect(first.refresh_token).toEqual(expect.any(String))
      const second = await client.refreshTokenGrant(rp, first.refresh_token!)
      expect(second.refresh_token).toEqual(expect.any(String))
      expect(second.refresh_token).not.toBe(first.refresh_token)
      const third = await client.refreshTokenGrant(rp, second.refresh_token!)
      expect(await client.fetchUserInfo(rp, third.access_token, person.id)).toMatchObject({ sub: person.id })

      const reused = await post(t, "/token", { grant_type: "refresh_token", refresh_token: first.refresh_token!, client_id: "spa" })
      expect(reused.status).toBe(400)
      expect(reused.body.error).toBe("invalid_grant")
      const newest = await post(t, "/token", { grant_type: "refresh_token", refresh_token: third.refresh_token!, client_id: "spa" })
      expect(newest.status).toBe(400)
      expect(newest.body.error).toBe("invalid_grant")
      expect((await bearerGet(`${t.issuer}/me`, third.access_token)).status).toBe(401)
    })
  })

  describe("codes", () => {
    async function webCode(username: string) {
      const { verifier, challenge } = pkce()
      const { code } = await codeFor(t, new Browser(), authorizationUrl(t, { client_id: "web", scope: "openid email", code_challenge: challenge, code_challenge_method: "S256" }), username)
      return { code, verifier }
    }

    it("are redeemed once: a second redemption is refused and revokes what the first gave", async () => {
      const person = await storedUser(store.adapter(), "twice")
      const { code, verifier } = await webCode(person.username)
      const form = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }
      const first = await post(t, "/token", form, basic("web"))
      expect(first.status).toBe(200)
      const accessToken = String(first.body.access_token)
      expect((await bearerGet(`${t.issuer}/me`, accessToken)).status).toBe(200)
      const second = await post(t, "/token", form, basic("web"))
      expect(second.status).toBe(400)
      expect(second.body.error).toBe("invalid_grant")
      const after = await bearerGet(`${t.issuer}/me`, accessToken)
      expect(after.status).toBe(401)
      expect(after.headers.get("www-authenticate")).toMatch(/error="invalid_token"/)
    })

    it("are redeemed only by their client and with their redirect URI", async () => {
      const person = await storedUser(store.adapter(), "theft")
      const stolen = await webCode(person.username)
      const byOther = await post(t, "/token", { grant_type: "authorization_code", code: stolen.code, redirect_uri: REDIRECT, code_verifier: stolen.verifier, client_id: "spa" })
      expect(byOther.status).toBe(400)
      expect(byOther.body.error).toBe("invalid_grant")

      const { code, verifier } = await webCode(person.username)
      const wrongUri = await post(t, "/token", { grant_type: "authorization_code", code, redirect_uri: "https://client.example.test/other", code_verifier: verifier }, basic("web"))
      expect(wrongUri.status).toBe(400)
      expect(wrongUri.body.error).toBe("invalid_grant")
    })

    it("are never sent to an unregistered redirect URI: an error page instead", async () => {
      const person = await storedUser(store.adapter(), "elsewhere")
      const browser = new Browser()
      await signInBrowser(browser, t.origin, person.username)
      const { challenge } = pkce()
      const page = await browser.request(authorizationUrl(t, { client_id: "web", scope: "openid", code_challenge: challenge, code_challenge_method: "S256", redirect_uri: "https://evil.example.test/cb" }))
      expect(page.status).toBe(400)
      expect(page.location).toBeUndefined()
      expect(page.headers.get("content-type")).toMatch(/text\/html/)
      expect(page.body).toContain("redirect_uri")
      expect(page.body).not.toContain("https://evil.example.test/cb?")
    })
  })

  describe("client credentials and the app's API", () => {
    const machine = (form: Record<string, string>) => post(t, "/token", { grant_type: "client_credentials", ...form }, basic("machine"))

    it("gives a JWT access token for the API that the API takes, as the client", async () => {
      const issued = await machine({ scope: "notes:read", resource: API })
      expect(issued.status).toBe(200)
      expect(issued.body).toMatchObject({ token_type: "Bearer", scope: "notes:read" })
      const token = String(issued.body.access_token)
      const header = JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString()) as Record<string, unknown>
      expect(header).toMatchObject({ typ: "at+jwt", alg: "RS256" })
      expect(claimsOf(token)).toMatchObject({ iss: t.issuer, aud: API, client_id: "machine", sub: "machine", scope: "notes:read" })
      const used = await bearerGet(`${t.origin}/api/notes`, token)
      expect(used.status).toBe(200)
      expect(used.body.auth).toMatchObject({ via: "accessToken", user: { id: "machine" }, accessToken: { clientId: "machine", subject: "client", scopes: ["notes:read"], audience: [API] } })
    })

    it("a person's token for the API (code flow with the resource) is taken as the person's", async () => {
      const person = await storedUser(store.adapter(), "apiuser")
      const rp = await relyingParty(t, "spa")
      const { verifier, challenge } = pkce()
      const state = client.randomState()
      const url = authorizationUrl(t, { client_id: "spa", scope: "openid notes:read", resource: API, code_challenge: challenge, code_challenge_method: "S256", state })
      const { redirect } = await codeFor(t, new Browser(), url, person.username)
      const tokens = await client.authorizationCodeGrant(rp, redirect, { pkceCodeVerifier: verifier, expectedState: state }, { resource: API })
      expect(claimsOf(tokens.access_token)).toMatchObject({ sub: person.id, client_id: "spa", aud: API })
      const used = await bearerGet(`${t.origin}/api/notes`, tokens.access_token)
      expect(used.status).toBe(200)
      expect(used.body.auth).toMatchObject({ via: "accessToken", user: { id: person.id }, accessToken: { clientId: "spa", subject: "user", scopes: ["notes:read"] } })
    })

    it("without a resource gives an opaque token the API refuses", async () => {
      const issued = await machine({ scope: "openid" })
      expect(issued.status).toBe(200)
      const token = String(issued.body.access_token)
      expect(token.split(".")).toHaveLength(1)
      const refused = await bearerGet(`${t.origin}/api/notes`, token)
      expect(refused.status).toBe(401)
      expect(refused.body.auth).toBeUndefined()
      expect((refused.body.error as { type?: string }).type).toBe("AccessTokenInvalid")
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/)
      // Nor does userinfo: there is no user behind it.
      expect((await bearerGet(`${t.issuer}/me`, token)).status).toBe(401)
    })

    it("refuses a token for another API (401) or without the route's scope (403), saying so in WWW-Authenticate", async () => {
      const other = await machine({ scope: "other:read", resource: OTHER_API })
      expect(other.status).toBe(200)
      const wrongAudience = await bearerGet(`${t.origin}/api/notes`, String(other.body.access_token))
      expect(wrongAudience.status).toBe(401)
      expect(wrongAudience.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/)
      expect(wrongAudience.body).toMatchObject({ error: { type: "AccessTokenInvalid" } })

      const writer = await machine({ scope: "notes:write", resource: API })
      const noScope = await bearerGet(`${t.origin}/api/notes`, String(writer.body.access_token))
      expect(noScope.status).toBe(403)
      expect(noScope.headers.get("www-authenticate")).toMatch(/^Bearer .*error="insufficient_scope".*scope="notes:read"/)
      expect(noScope.body).toMatchObject({ error: { type: "InsufficientScope" } })
    })

    it("refuses a tampered token and an expired one", async () => {
      const issued = await machine({ scope: "notes:read", resource: API })
      const [head, payload, signature] = String(issued.body.access_token).split(".") as [string, string, string]
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>
      const widened = Buffer.from(JSON.stringify({ ...claims, scope: "notes:read notes:write" })).toString("base64url")
      for (const forged of [`${head}.${widened}.${signature}`, `${head}.${payload}.${signature.slice(0, -4)}AAAA`]) {
        const refused = await bearerGet(`${t.origin}/api/notes`, forged)
        expect(refused.status).toBe(401)
        expect(refused.headers.get("www-authenticate")).toMatch(/error="invalid_token"/)
      }

      // A token of the short-lived resource (30 s, same audience): good now, refused once expired.
      const short = await machine({ scope: "notes:read", resource: SHORT_API })
      expect(short.status).toBe(200)
      expect(short.body.expires_in).toBe(30)
      const token = String(short.body.access_token)
      expect((await bearerGet(`${t.origin}/api/notes`, token)).status).toBe(200)
      jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: Date.now() + 120_000 })
      const expired = await bearerGet(`${t.origin}/api/notes`, token)
      expect(expired.status).toBe(401)
      expect(expired.headers.get("www-authenticate")).toMatch(/error="invalid_token"/)
    })
  })

  it("runs the device flow by plain HTTP through Gatehouse's pages", async () => {
    const person = await storedUser(store.adapter(), "device")
    const started = await post(t, "/device/auth", { client_id: "cli", scope: "openid email offline_access" })
    expect(started.status).toBe(200)
    const { device_code: deviceCode, user_code: userCode, verification_uri: verificationUri } = started.body as Record<string, string>
    expect(userCode).toEqual(expect.any(String))
    expect(verificationUri).toBe(`${t.issuer}/device`)
    const poll = () => post(t, "/token", { grant_type: DEVICE_GRANT, device_code: deviceCode!, client_id: "cli" })
    const pending = await poll()
    expect(pending.status).toBe(400)
    expect(pending.body.error).toBe("authorization_pending")

    const browser = new Browser()
    await signInBrowser(browser, t.origin, person.username)
    const input = await browser.request(verificationUri!)
    expect(input.status).toBe(200)
    const entry = formOf(input.body, { action: /device/ })
    expect(entry.fields.xsrf).toEqual(expect.any(String))
    const confirm = await browser.follow(new URL(entry.action, verificationUri).href, t.origin, { form: { ...entry.fields, user_code: userCode! } })
    expect(confirm.status).toBe(200)
    expect(confirm.body).toContain("Command Line")
    const yes = formOf(confirm.body, { action: /device/, button: { name: "confirm", value: "yes" } })
    let page = await browser.follow(new URL(yes.action, confirm.url).href, t.origin, { form: yes.fields })
    if (/id="oidc-consent-form"/.test(page.body)) page = (await decide(t, browser, page, "allow")).page
    expect(page.status).toBe(200)
    expect(page.body).toContain("Device connected")

    const tokens = await poll()
    expect(tokens.status).toBe(200)
    expect(tokens.body).toMatchObject({ token_type: "Bearer", access_token: expect.any(String), id_token: expect.any(String), refresh_token: expect.any(String) })
    expect(claimsOf(String(tokens.body.id_token))).toMatchObject({ sub: person.id, aud: "cli", email: person.email })
    expect((await bearerGet(`${t.issuer}/me`, String(tokens.body.access_token))).body).toMatchObject({ sub: person.id })
    // The code is used up.
    expect((await poll()).body.error).toBe("invalid_grant")
  })

  it("tells a person a wrong device code, and the device an aborted one", async () => {
    const person = await storedUser(store.adapter(), "abort")
    const browser = new Browser()
    await signInBrowser(browser, t.origin, person.username)
    const input = await browser.request(`${t.issuer}/device`)
    const entry = formOf(input.body, { action: /device/ })
    const wrong = await browser.request(new URL(entry.action, input.url).href, { form: { ...entry.fields, user_code: "BCDF-GHJK" } })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toContain("This code is not valid")

    const started = await post(t, "/device/auth", { client_id: "cli", scope: "openid" })
    const again = await browser.request(`${t.issuer}/device`)
    const second = formOf(again.body, { action: /device/ })
    const confirm = await browser.follow(new URL(second.action, again.url).href, t.origin, { form: { ...second.fields, user_code: String(started.body.user_code) } })
    const abort = formOf(confirm.body, { action: /device/, button: { name: "abort", value: "yes" } })
    const aborted = await browser.follow(new URL(abort.action, confirm.url).href, t.origin, { form: abort.fields })
    expect(aborted.status).toBe(200)
    expect(aborted.body).toContain("Device not connected")
    expect(aborted.body).not.toContain("This code is not valid")
    const refused = await post(t, "/token", { grant_type: DEVICE_GRANT, device_code: String(started.body.device_code), client_id: "cli" })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe("access_denied")
  })

  it("introspects for an authenticated client and revokes tokens", async () => {
    const person = await storedUser(store.adapter(), "introspect")
    const { tokens } = await webTokens(new Browser(), person.username)
    const active = await post(t, "/token/introspection", { token: tokens.access_token }, basic("web"))
    expect(active.status).toBe(200)
    expect(active.body).toMatchObject({ active: true, client_id: "web", sub: person.id, token_type: "Bearer" })
    const noClient = await post(t, "/token/introspection", { token: tokens.access_token })
    expect(noClient.status).toBe(400)
    expect(noClient.body).toEqual({ error: "invalid_request", error_description: "no client authentication mechanism provided" })
    const wrongSecret = await post(t, "/token/introspection", { token: tokens.access_token }, basic("web", "x".repeat(40)))
    expect(wrongSecret.status).toBe(401)
    expect(wrongSecret.body.error).toBe("invalid_client")
    expect(wrongSecret.text).not.toContain(person.email)

    // Another client can neither introspect it (it learns nothing of the token) nor revoke it (RFC 7009: only the client it was issued to).
    expect((await post(t, "/token/introspection", { token: tokens.access_token }, basic("machine"))).body).toEqual({ active: false })
    const byOther = await post(t, "/token/revocation", { token: tokens.access_token }, basic("machine"))
    expect(byOther.status).toBe(400)
    expect(byOther.body.error).toBe("invalid_request")
    expect((await post(t, "/token/introspection", { token: tokens.access_token }, basic("web"))).body.active).toBe(true)
    const revoked = await post(t, "/token/revocation", { token: tokens.access_token, token_type_hint: "access_token" }, basic("web"))
    expect(revoked.status).toBe(200)
    expect((await post(t, "/token/introspection", { token: tokens.access_token }, basic("web"))).body).toEqual({ active: false })
    expect((await bearerGet(`${t.issuer}/me`, tokens.access_token)).status).toBe(401)
    // The refresh token too, by openid-client.
    const rp = await relyingParty(t, "web", CLIENT_SECRET)
    await client.tokenRevocation(rp, tokens.refresh_token!)
    expect(await client.tokenIntrospection(rp, tokens.refresh_token!)).toMatchObject({ active: false })
    const refresh = await post(t, "/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token! }, basic("web"))
    expect(refresh.body.error).toBe("invalid_grant")
  })

  it("ends the session at the client's request: Gatehouse's logout page, then signed out of the app and back to the client", async () => {
    const person = await storedUser(store.adapter(), "logout")
    const browser = new Browser()
    const { rp, tokens } = await webTokens(browser, person.username, "openid email")
    const before = JSON.parse((await browser.request(`${t.origin}/auth/session`, { headers: { accept: "application/json" } })).body) as { user?: { email?: string } } | null
    expect(before?.user?.email).toBe(person.email)
    const url = client.buildEndSessionUrl(rp, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: "https://client.example.test/bye", state: "bye-1" })
    const question = await browser.follow(url.href, t.origin)
    expect(question.status).toBe(200)
    expect(question.body).toContain('id="oidc-logout-form"')
    expect(question.body).toContain("Sign out?")
    const form = formOf(question.body, { action: /session\/end/, button: { name: "logout", value: "yes" } })
    const done = await browser.follow(new URL(form.action, question.url).href, t.origin, { form: form.fields })
    const back = new URL(done.location!)
    expect(`${back.origin}${back.pathname}`).toBe("https://client.example.test/bye")
    expect(back.searchParams.get("state")).toBe("bye-1")
    const after = await browser.request(`${t.origin}/auth/session`, { headers: { accept: "application/json" } })
    expect(JSON.parse(after.body)?.user).toBeUndefined()
  })
})
