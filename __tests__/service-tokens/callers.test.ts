/**
 * Issue #31: who a service token speaks for. An API key in `Authorization: Bearer` (a user's key:
 * its user and scopes; an organization's key: `org:<id>` and the organization), answered for the
 * key even beside a browser session; a bad key refused; a session an admin impersonates carries
 * the admin as `act` (RFC 8693).
 */
import { decodeJwt } from "jose"
import request from "supertest"
import { createApiKey } from "../../lib/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { verifyServiceToken } from "../../lib/service-tokens/index.js"
import { signedIn, tokenApp, tokenConfig } from "./support.js"

const API = "https://api.example.test"

describe("API keys", () => {
  const config: AuthConfig = tokenConfig({ organizations: true, apiKeys: { scopes: ["read", "write"] }, serviceTokens: { audiences: [API] } })
  const app = tokenApp(config)

  test("a user's key: its user, only the scopes it holds, answered for the key even beside a session", async () => {
    const owner = await signedIn(app)
    const { key } = await createApiKey(config, { userId: owner.userId, name: "CI", scopes: ["read"] })
    const res = await request(app).get("/auth/token?scope=read").set("Authorization", `Bearer ${key}`).expect(200)
    expect(res.headers["cache-control"]).toBe("no-store")
    const payload = await verifyServiceToken(res.body.token, { keys: (await request(app).get("/auth/jwks")).body, audience: API })
    expect(payload).toMatchObject({ sub: owner.userId, scope: "read", via: "apiKey" })
    expect(payload.org).toBeUndefined()
    expect((await request(app).get("/auth/token?scope=write").set("Authorization", `Bearer ${key}`).expect(403)).body.error.type).toBe("ServiceTokenScopeDenied")
    // Another user's browser session beside the key: the token is the key's.
    const other = await signedIn(app)
    const beside = await other.agent.get("/auth/token").set("Authorization", `Bearer ${key}`).expect(200)
    expect(decodeJwt(beside.body.token)).toMatchObject({ sub: owner.userId, via: "apiKey" })
  })

  test("an organization's key: sub org:<id>, its organization, the permissions it was given", async () => {
    const { agent } = await signedIn(app)
    const csrf = (await agent.get("/auth/csrf")).body.csrfToken as string
    await agent.post("/auth/organizations/create").set("Accept", "application/json").type("form").send({ csrfToken: csrf, name: "Acme" }).expect(200)
    const { organization } = (await agent.get("/auth/session")).body as { organization: { id: string; permissions: string[] } }
    const permission = organization.permissions[0] as string
    const { key } = await createApiKey(config, { organizationId: organization.id, name: "Partner", scopes: [permission] })
    const res = await request(app).get(`/auth/token?scope=${encodeURIComponent(permission)}`).set("Authorization", `Bearer ${key}`).expect(200)
    expect(decodeJwt(res.body.token)).toMatchObject({ sub: `org:${organization.id}`, org: organization.id, scope: permission, via: "apiKey" })
  })

  test("a bad key is refused as the key's error, never answered for the session beside it", async () => {
    const { agent } = await signedIn(app)
    const res = await agent.get("/auth/token").set("Authorization", "Bearer gk_not-a-key")
    expect(res.status).toBe(401)
    expect(res.body.error.type).toBe("ApiKeyInvalid")
  })
})

test("a session an admin impersonates carries the admin as act", async () => {
  const app = tokenApp(tokenConfig({ admin: { isAdmin: () => true, impersonation: { admins: true } } }))
  const admin = await signedIn(app)
  const seen = await signedIn(app)
  const csrf = (await admin.agent.get("/auth/csrf")).body.csrfToken as string
  await admin.agent.post("/auth/admin/impersonate").set("Accept", "application/json").type("form").send({ csrfToken: csrf, userId: seen.userId }).expect(200)
  const res = await admin.agent.get("/auth/token").expect(200)
  expect(decodeJwt(res.body.token)).toMatchObject({ sub: seen.userId, act: { sub: admin.userId }, via: "session" })
})
