/**
 * The provider's metadata outside the router (lib/identity-provider/well-known.ts): RFC 8414
 * authorization server metadata at `/.well-known/oauth-authorization-server<issuer path>` (and the
 * OpenID form) is the provider's own discovery document; RFC 9728 protected resource metadata
 * names the resource and the provider; both readable cross-origin; other requests pass through.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import { authRouter } from "../../lib/index.js"
import { oauthMetadata, protectedResourceMetadata } from "../../lib/identity-provider/well-known.js"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET } from "../helpers/app.js"
import { credentialsProvider } from "../integration/organizations/support.js"

const API = "https://api.example.test/notes"

async function start(extra: Partial<AuthConfig>, mountAt = "/auth", resource: Parameters<typeof protectedResourceMetadata>[1] = { resource: API }) {
  const config = { secret: SECRET, providers: [credentialsProvider()], logLevel: "silent", adapter: MemoryAdapter(), ...extra } as AuthConfig
  const app = express()
  app.use(oauthMetadata(config))
  app.use(protectedResourceMetadata(config, resource))
  app.use(mountAt, authRouter(config))
  app.use((_req, res) => void res.status(404).json({ fellThrough: true }))
  const server: Server = createServer(app)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe("oauthMetadata and protectedResourceMetadata", () => {
  let t: Awaited<ReturnType<typeof start>>
  beforeAll(async () => {
    t = await start({ oidcProvider: { registration: true, resources: { [API]: { scopes: ["notes:read", "notes:write"] } } } })
  })
  afterAll(() => t.close())

  it("answers RFC 8414 metadata, and the OpenID form of it, with the provider's own discovery document", async () => {
    const own = await fetch(`${t.origin}/auth/oidc/.well-known/openid-configuration`)
    const document = (await own.json()) as Record<string, unknown>
    for (const path of ["/.well-known/oauth-authorization-server/auth/oidc", "/.well-known/openid-configuration/auth/oidc"]) {
      const response = await fetch(`${t.origin}${path}`, { headers: { "mcp-protocol-version": "2025-06-18", origin: "https://inspector.example" } })
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toMatch(/^application\/json/)
      // oidc-provider's CORS: any origin, named back.
      expect(response.headers.get("access-control-allow-origin")).toBe("https://inspector.example")
      expect(await response.json()).toEqual(document)
    }
    expect(document).toMatchObject({
      issuer: `${t.origin}/auth/oidc`,
      authorization_endpoint: `${t.origin}/auth/oidc/auth`,
      token_endpoint: `${t.origin}/auth/oidc/token`,
      registration_endpoint: `${t.origin}/auth/oidc/reg`,
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
    })
    const head = await fetch(`${t.origin}/.well-known/oauth-authorization-server/auth/oidc`, { method: "HEAD" })
    expect(head.status).toBe(200)
  })

  it("answers the protected resource metadata, its scopes the resource's", async () => {
    const response = await fetch(`${t.origin}/.well-known/oauth-protected-resource/notes`)
    expect(response.status).toBe(200)
    expect(response.headers.get("access-control-allow-origin")).toBe("*")
    expect(await response.json()).toEqual({ resource: API, authorization_servers: [`${t.origin}/auth/oidc`], scopes_supported: ["notes:read", "notes:write"], bearer_methods_supported: ["header"] })
  })

  it("answers browsers' CORS preflights for both", async () => {
    for (const path of ["/.well-known/oauth-authorization-server/auth/oidc", "/.well-known/oauth-protected-resource/notes"]) {
      const response = await fetch(`${t.origin}${path}`, { method: "OPTIONS", headers: { origin: "https://inspector.example", "access-control-request-method": "GET", "access-control-request-headers": "mcp-protocol-version" } })
      expect(response.status).toBe(204)
      expect(response.headers.get("access-control-allow-origin")).toBe("*")
      expect(response.headers.get("access-control-allow-headers")).toMatch(/MCP-Protocol-Version/i)
    }
  })

  it("lets other paths and methods through to the app", async () => {
    for (const [method, path] of [
      ["GET", "/.well-known/oauth-authorization-server"],
      ["GET", "/.well-known/oauth-authorization-server/other"],
      ["GET", "/.well-known/oauth-authorization-server/auth/oidc/extra"],
      ["GET", "/.well-known/oauth-protected-resource"],
      ["GET", "/.well-known/oauth-protected-resource/other"],
      ["POST", "/.well-known/oauth-authorization-server/auth/oidc"],
      ["DELETE", "/.well-known/oauth-protected-resource/notes"],
    ] as const) {
      const response = await fetch(`${t.origin}${path}`, { method })
      expect([method, path, response.status, await response.json()]).toEqual([method, path, 404, { fellThrough: true }])
    }
  })

  it("follows basePath and the provider's path; the resource defaults to the request's origin and the path", async () => {
    const other = await start({ basePath: "/account", oidcProvider: { path: "idp" } }, "/account", { path: "/mcp", scopes: ["mcp:tools"] })
    try {
      const metadata = await fetch(`${other.origin}/.well-known/oauth-authorization-server/account/idp`)
      expect(metadata.status).toBe(200)
      expect(await metadata.json()).toMatchObject({ issuer: `${other.origin}/account/idp`, token_endpoint: `${other.origin}/account/idp/token` })
      expect((await fetch(`${other.origin}/.well-known/oauth-authorization-server/auth/oidc`)).status).toBe(404)
      const resource = await fetch(`${other.origin}/.well-known/oauth-protected-resource/mcp`)
      expect(await resource.json()).toEqual({ resource: `${other.origin}/mcp`, authorization_servers: [`${other.origin}/account/idp`], scopes_supported: ["mcp:tools"], bearer_methods_supported: ["header"] })
    } finally {
      await other.close()
    }
  })

  it("passes everything through when the provider is off", async () => {
    const off = await start({})
    try {
      expect((await fetch(`${off.origin}/.well-known/oauth-authorization-server/auth/oidc`)).status).toBe(404)
      expect((await fetch(`${off.origin}/.well-known/oauth-protected-resource/notes`)).status).toBe(404)
    } finally {
      await off.close()
    }
  })

  it("refuses malformed options when the middleware is made", () => {
    const config = { secret: SECRET, providers: [credentialsProvider()], logLevel: "silent", adapter: MemoryAdapter(), oidcProvider: true } as AuthConfig
    expect(() => protectedResourceMetadata(config, { resource: "not a url" })).toThrow(expect.objectContaining({ type: "InvalidOption" }))
    expect(() => protectedResourceMetadata(config, {})).toThrow(/path must start with/)
    expect(() => protectedResourceMetadata(config, { path: "/x", scopes: ["two words"] })).toThrow(/scopes/)
    expect(() => oauthMetadata(config, { issuer: "x" } as never)).toThrow(/no options/)
  })
})
