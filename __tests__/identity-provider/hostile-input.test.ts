/**
 * The identity provider (issue #32) against requests no client should send, on memory and
 * PostgreSQL: oversized bodies, a 10 KB client_id, JSON where a form is expected and a huge bearer
 * token are each answered 4xx with an OAuth error (or Gatehouse's named error), never 500, and the
 * server keeps answering. Dynamic client registration: off by default; with `registration: true`
 * a public client registers and signs a person in; a registered client gets no client
 * credentials grant and no scope beyond the registration scopes; with an initial access token,
 * registering needs it.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import * as client from "openid-client"
import { API, Browser, REDIRECT, engine, pkce, startProvider, storedUser, type EngineName, type ProviderApp } from "./support.js"
import { authorizationUrl, basic, bearerGet, codeFor, post } from "./protocol-support.js"

const INITIAL_TOKEN = "initial-access-token-0123456789"

async function register(t: ProviderApp, metadata: Record<string, unknown>, token?: string) {
  const response = await fetch(`${t.issuer}/reg`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(metadata),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: (text.startsWith("{") ? JSON.parse(text) : {}) as Record<string, unknown>, text }
}

async function stillAnswers(t: ProviderApp): Promise<void> {
  expect((await fetch(`${t.issuer}/.well-known/openid-configuration`)).status).toBe(200)
}

describe.each<EngineName>(["memory", "postgres"])("identity provider against hostile input on %s", (name) => {
  const store = engine(name, "idph")
  const started: ProviderApp[] = []
  let t: ProviderApp
  const provider = async (options: Parameters<typeof startProvider>[1] = {}) => {
    const app = await startProvider(store.adapter(), options)
    started.push(app)
    return app
  }
  beforeAll(async () => {
    await store.open()
    t = await provider()
  }, 60_000)
  afterAll(async () => {
    for (const app of started) await app.close()
    await store.close()
  })

  describe("oversized and garbage requests", () => {
    it("refuses a 1 MB body at the token endpoint without a 500", async () => {
      const response = await fetch(`${t.issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic("machine") },
        body: `grant_type=client_credentials&scope=${"a".repeat(1024 * 1024)}`,
      })
      expect([400, 413]).toContain(response.status)
      expect(((await response.json()) as { error: string }).error).toBe("invalid_request")
      await stillAnswers(t)
    })

    it("refuses a 10 KB client_id at the token and authorization endpoints", async () => {
      const id = "c".repeat(10 * 1024)
      const token = await post(t, "/token", { grant_type: "client_credentials", client_id: id })
      expect(token.status).toBe(401)
      expect(token.body.error).toBe("invalid_client")
      const withSecret = await post(t, "/token", { grant_type: "client_credentials" }, basic(id))
      expect(withSecret.status).toBe(401)
      expect(withSecret.body.error).toBe("invalid_client")

      const { challenge } = pkce()
      const page = await new Browser().request(authorizationUrl(t, { client_id: id, scope: "openid", code_challenge: challenge, code_challenge_method: "S256" }))
      expect(page.status).toBe(400)
      expect(page.location).toBeUndefined()
      expect(page.body).toContain("invalid_client")
      await stillAnswers(t)
    })

    it("refuses JSON where a form is expected", async () => {
      const response = await fetch(`${t.issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: basic("machine") },
        body: JSON.stringify({ grant_type: "client_credentials", scope: "notes:read", resource: API }),
      })
      expect(response.status).toBe(400)
      expect(((await response.json()) as { error: string }).error).toBe("invalid_request")
      const garbage = await fetch(`${t.issuer}/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic("machine") }, body: "%%%&&&==%E0%A4%A&grant_type=client_credentials&grant_type=refresh_token" })
      expect(garbage.status).toBe(400)
      expect(((await garbage.json()) as { error: string }).error).toBe("invalid_request")
      await stillAnswers(t)
    })

    it("refuses a huge or malformed bearer token at the app's API with invalid_token", async () => {
      const segment = "A".repeat(4000)
      const huge = await bearerGet(`${t.origin}/api/notes`, `${segment}.${segment}.${segment}`)
      expect(huge.status).toBe(401)
      expect(huge.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/)
      expect(huge.body).toMatchObject({ error: { type: "AccessTokenInvalid" } })
      const notJson = await bearerGet(`${t.origin}/api/notes`, "eyJub3QganNvbg.eyJub3QganNvbg.c2lnbmF0dXJlc2lnbmF0dXJl")
      expect(notJson.status).toBe(401)
      expect(notJson.body).toMatchObject({ error: { type: "AccessTokenInvalid" } })
      // Past what the HTTP server reads (16 KB of headers): refused before Gatehouse.
      const tooBig = await fetch(`${t.origin}/api/notes`, { headers: { authorization: `Bearer ${"A".repeat(64 * 1024)}` } })
      expect(tooBig.status).toBe(431)
      await tooBig.text()
      await stillAnswers(t)
    })
  })

  describe("dynamic client registration", () => {
    it("is off by default", async () => {
      const refused = await register(t, { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" })
      expect([400, 404]).toContain(refused.status)
      // Nor is it offered to scripts on other origins.
      const preflight = await fetch(`${t.issuer}/reg`, { method: "OPTIONS", headers: { origin: "https://tool.example", "access-control-request-method": "POST" } })
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull()
      const discovery = (await (await fetch(`${t.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
      expect(discovery.registration_endpoint).toBeUndefined()
    })

    it("lets a public client register and sign a person in; never the client credentials grant or a scope beyond the registration scopes", async () => {
      const open = await provider({ registration: true })
      const discovery = (await (await fetch(`${open.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
      expect(discovery.registration_endpoint).toBe(`${open.issuer}/reg`)
      // A client running in a browser (an MCP inspector) may register from its own origin: no cookies are involved.
      const preflight = await fetch(`${open.issuer}/reg`, { method: "OPTIONS", headers: { origin: "https://tool.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" } })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*")
      expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Content-Type/i)
      const registered = await register(open, { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: "Registered Tool", grant_types: ["authorization_code", "refresh_token"] })
      expect(registered.status).toBe(201)
      expect(registered.headers.get("access-control-allow-origin")).toBe("*")
      const clientId = String(registered.body.client_id)
      expect(registered.body).toMatchObject({ token_endpoint_auth_method: "none", redirect_uris: [REDIRECT], registration_access_token: expect.any(String) })
      expect(registered.body.client_secret).toBeUndefined()

      const person = await storedUser(store.adapter(), "registrant")
      const rp = await client.discovery(new URL(open.issuer), clientId, { token_endpoint_auth_method: "none" }, client.None(), { execute: [client.allowInsecureRequests] })
      const { verifier, challenge } = pkce()
      const state = client.randomState()
      const { redirect, consentShown } = await codeFor(open, new Browser(), authorizationUrl(open, { client_id: clientId, scope: "openid email", code_challenge: challenge, code_challenge_method: "S256", state }), person.username)
      expect(consentShown).toBe(true)
      const tokens = await client.authorizationCodeGrant(rp, redirect, { pkceCodeVerifier: verifier, expectedState: state })
      expect(tokens.claims()).toMatchObject({ sub: person.id, aud: clientId, email: person.email })

      const machine = await register(open, { redirect_uris: [], response_types: [], grant_types: ["client_credentials"], client_name: "Sneaky" })
      expect(machine.status).toBe(400)
      expect(machine.body.error).toBe("invalid_client_metadata")
      const unknownScope = await register(open, { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", scope: "openid admin:everything" })
      expect(unknownScope.status).toBe(400)
      expect(unknownScope.body.error).toBe("invalid_client_metadata")
    })

    it("with an initial access token: registering needs it, and gets only the registration scopes", async () => {
      const guarded = await provider({ registration: { initialAccessToken: INITIAL_TOKEN, scopes: ["openid", "email"] } })
      const metadata = { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }
      const anonymous = await register(guarded, metadata)
      expect(anonymous.status).toBe(401)
      expect(anonymous.body.error).toBe("invalid_token")
      const wrong = await register(guarded, metadata, "x".repeat(32))
      expect(wrong.status).toBe(401)
      const beyond = await register(guarded, { ...metadata, scope: "openid notes:read" }, INITIAL_TOKEN)
      expect(beyond.status).toBe(400)
      expect(beyond.body.error).toBe("invalid_client_metadata")
      const registered = await register(guarded, metadata, INITIAL_TOKEN)
      expect(registered.status).toBe(201)
      expect(registered.body.scope).toBe("openid email")
    })
  })
})
