/**
 * The MCP example (examples/mcp), connected to by the official MCP TypeScript SDK's client with
 * OAuth: the first call is refused with the protected resource metadata's address, the client
 * discovers the app's identity provider (RFC 9728, RFC 8414), registers itself (RFC 7591), sends
 * the user (a cookie-jar browser here) to sign in and consent, gets an access token for the MCP
 * server and lists and calls its tool. Tokens for another resource, or none, are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { createHash, randomBytes } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Express } from "express"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import type { Adapter } from "../../lib/adapters.js"
import { Browser, formOf, type Page } from "../identity-provider/support.js"

// The example's database in memory, and its origin: the test server's, known before it is imported.
process.env.DATABASE_URL = "sqlite::memory:"
const server: Server = createServer()
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
process.env.ORIGIN = origin
const example = (await import("../../examples/mcp/index.js")) as { app: Express; adapter: Adapter; MCP_RESOURCE: string; API_RESOURCE: string }
server.on("request", example.app)

const MCP_URL = new URL("/mcp", origin)
const METADATA = `${origin}/.well-known/oauth-protected-resource/mcp`
/** The client's redirect URI (a loopback address it would listen on, never served here). */
const REDIRECT = "http://localhost:8976/oauth/callback"

/** Signs the browser in to the example as the demo user. */
async function signIn(browser: Browser): Promise<void> {
  const csrf = await browser.request(`${origin}/auth/csrf`, { headers: { accept: "application/json" } })
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
  const done = await browser.request(`${origin}/auth/callback/credentials`, { form: { csrfToken, username: "demo", password: "demo" } })
  if (done.status !== 302 || /error=/.test(done.location ?? "")) throw new Error(`sign-in failed: ${done.status} ${done.location}`)
}

/** The user's side of an authorization request: signs in when asked, allows when asked; the redirect back to the client, and the pages seen. */
async function authorizeInBrowser(browser: Browser, url: string): Promise<{ redirect: URL; pages: Page[] }> {
  const pages: Page[] = []
  let page = await browser.follow(url, origin)
  for (let step = 0; step < 6; step++) {
    pages.push(page)
    if (page.location && !page.location.startsWith(origin)) return { redirect: new URL(page.location), pages }
    const callbackUrl = new URL(page.url).searchParams.get("callbackUrl")
    if (callbackUrl && new URL(page.url).pathname === "/auth/signin") {
      await signIn(browser)
      page = await browser.follow(new URL(callbackUrl, origin).href, origin)
      continue
    }
    const form = formOf(page.body, { button: { name: "decision", value: "allow" } })
    page = await browser.follow(new URL(form.action, page.url).href, origin, { form: form.fields })
  }
  throw new Error(`the authorization did not come back: ${page.status} ${page.url}`)
}

/** An MCP client's OAuth state, in memory; the user's browser is driven when the SDK sends them to authorize. */
class TestAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed
  saved?: OAuthTokens
  verifier?: string
  code?: string
  consentPages: Page[] = []
  constructor(readonly browser: Browser) {}
  get redirectUrl() {
    return REDIRECT
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "Notes MCP Client", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" }
  }
  clientInformation() {
    return this.client
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier!
  }
  async redirectToAuthorization(url: URL) {
    const { redirect, pages } = await authorizeInBrowser(this.browser, url.href)
    this.consentPages.push(...pages)
    this.code = redirect.searchParams.get("code") ?? undefined
    if (!this.code) throw new Error(`no code: ${redirect.href}`)
  }
}

/** A fetch that writes down what the client asked and what it was answered. */
function recordingFetch(log: Array<{ method: string; url: string; status: number; challenge: string | null }>) {
  return async (url: string | URL, init?: RequestInit) => {
    const response = await fetch(url, init)
    log.push({ method: init?.method ?? "GET", url: String(url), status: response.status, challenge: response.headers.get("www-authenticate") })
    return response
  }
}

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } } }

function postMcp(token?: string): Promise<Response> {
  return fetch(MCP_URL, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(INITIALIZE),
  })
}

async function clientRecords(): Promise<unknown[]> {
  return example.adapter.listOidcRecords!("Client", {})
}

describe("examples/mcp", () => {
  beforeAll(() => {
    expect(example.MCP_RESOURCE).toBe(`${origin}/mcp`)
  })
  afterAll(() => new Promise<void>((done) => server.close(() => done())))

  it("refuses a call without a token with 401 and the protected resource metadata's address, which names the provider", async () => {
    const refused = await postMcp()
    expect(refused.status).toBe(401)
    expect(refused.headers.get("www-authenticate")).toBe(`Bearer realm="api", resource_metadata="${METADATA}"`)
    expect((await refused.json()) as unknown).toEqual({ error: { type: "AccessTokenRequired", message: expect.any(String) } })

    // Browser-based clients may call it and read the challenge.
    expect(refused.headers.get("access-control-expose-headers")).toMatch(/WWW-Authenticate/)
    const preflight = await fetch(MCP_URL, { method: "OPTIONS", headers: { origin: "http://localhost:6274", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type,mcp-protocol-version" } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Authorization.*Mcp-Protocol-Version/)

    const metadata = await fetch(METADATA)
    expect(metadata.status).toBe(200)
    expect(await metadata.json()).toEqual({ resource: `${origin}/mcp`, authorization_servers: [`${origin}/auth/oidc`], scopes_supported: ["notes:read"], bearer_methods_supported: ["header"], resource_name: "Gatehouse notes (MCP)" })

    const server = await fetch(`${origin}/.well-known/oauth-authorization-server/auth/oidc`)
    expect(server.status).toBe(200)
    expect(await server.json()).toMatchObject({ issuer: `${origin}/auth/oidc`, registration_endpoint: `${origin}/auth/oidc/reg`, code_challenge_methods_supported: ["S256"] })
  })

  it("an MCP client registers itself, gets the user's consent and a token, and calls the tool", async () => {
    expect(await clientRecords()).toHaveLength(0)
    const log: Parameters<typeof recordingFetch>[0] = []
    const auth = new TestAuthProvider(new Browser())

    const first = new StreamableHTTPClientTransport(MCP_URL, { authProvider: auth, fetch: recordingFetch(log) })
    await expect(new Client({ name: "notes-test", version: "1.0.0" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError)

    // Refused, then the metadata of the resource and of its authorization server, then registration.
    expect(log[0]).toEqual({ method: "POST", url: MCP_URL.href, status: 401, challenge: expect.stringContaining(`resource_metadata="${METADATA}"`) })
    expect(log.slice(1, 4).map(({ method, url, status }) => `${method} ${url} ${status}`)).toEqual([
      `GET ${METADATA} 200`,
      `GET ${origin}/.well-known/oauth-authorization-server/auth/oidc 200`,
      `POST ${origin}/auth/oidc/reg 201`,
    ])
    const [registered] = (await clientRecords()) as Array<{ clientId: string; payload: string }>
    expect(registered!.clientId).toBe(auth.client!.client_id)
    expect(JSON.parse(registered!.payload)).toMatchObject({ client_name: "Notes MCP Client", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", scope: "notes:read" })
    // The user signed in and saw the consent page naming the client.
    expect(auth.consentPages.some((page) => page.body.includes("Notes MCP Client") && page.body.includes('value="allow"'))).toBe(true)

    await first.finishAuth(auth.code!)
    expect(auth.saved).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), access_token: expect.any(String), refresh_token: expect.any(String), scope: "notes:read" })
    const claims = JSON.parse(Buffer.from(auth.saved!.access_token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>
    expect(claims).toMatchObject({ aud: `${origin}/mcp`, client_id: auth.client!.client_id, scope: "notes:read", iss: `${origin}/auth/oidc` })

    const client = new Client({ name: "notes-test", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(MCP_URL, { authProvider: auth }))
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(["list-notes"])
    const result = (await client.callTool({ name: "list-notes", arguments: {} })) as { content: Array<{ type: string; text: string }> }
    expect(result.content[0]!.text).toContain("Notes of Demo User <demo@example.com>")
    expect(result.content[0]!.text).toContain("- Read RFC 9728")
    await client.close()
    // One client, registered once.
    expect(await clientRecords()).toHaveLength(1)
  })

  it("refuses a token issued for another of the app's resources, and a forged one", async () => {
    const browser = new Browser()
    const registration = await fetch(`${origin}/auth/oidc/reg`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "API Client", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", scope: "notes:read" }),
    })
    expect(registration.status).toBe(201)
    const { client_id: clientId } = (await registration.json()) as { client_id: string }
    const verifier = randomBytes(32).toString("base64url")
    const authorization = new URL(`${origin}/auth/oidc/auth`)
    for (const [name, value] of Object.entries({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT, scope: "notes:read", resource: example.API_RESOURCE, code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256" })) {
      authorization.searchParams.set(name, value)
    }
    const { redirect } = await authorizeInBrowser(browser, authorization.href)
    const token = await fetch(`${origin}/auth/oidc/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "authorization_code", client_id: clientId, code: redirect.searchParams.get("code")!, redirect_uri: REDIRECT, code_verifier: verifier, resource: example.API_RESOURCE }),
    })
    expect(token.status).toBe(200)
    const { access_token: accessToken } = (await token.json()) as { access_token: string }

    // Good for the API it was issued for...
    const api = await fetch(`${origin}/api/notes`, { headers: { authorization: `Bearer ${accessToken}` } })
    expect(api.status).toBe(200)
    expect(await api.json()).toEqual({ notes: expect.arrayContaining(["Buy milk"]) })
    // ...not for the MCP server.
    const refused = await postMcp(accessToken)
    expect(refused.status).toBe(401)
    expect(refused.headers.get("www-authenticate")).toBe(`Bearer realm="api", error="invalid_token", resource_metadata="${METADATA}"`)

    const [header, payload] = accessToken.split(".")
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), aud: `${origin}/mcp` })).toString("base64url")}.${randomBytes(256).toString("base64url")}`
    const forgedAnswer = await postMcp(forged)
    expect(forgedAnswer.status).toBe(401)
    expect(forgedAnswer.headers.get("www-authenticate")).toContain('error="invalid_token"')
  })
})
