/**
 * What the API-key suites share (not a test file): an app with `apiKeys` (and organizations and
 * the admin tools) on a storage engine, routes guarded by `requireAuth` with and without API keys,
 * and a client that drives `POST /auth/api-keys/<action>` as JSON with the CSRF token.
 */
import express, { type Express } from "express"
import { authRouter, authSession, requireAuth } from "../../lib/index.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import type { ApiKeysOptions } from "../../lib/api-keys/settings.js"
import { SECRET } from "../helpers/app.js"
import { credentialsProvider, csrfOf, signIn, storedUser, type Client, type Json } from "../integration/organizations/support.js"

export { ENGINES, agentFor, engine, refusal, signIn, storedUser, csrfOf, type Client, type Json, type EngineName } from "../integration/organizations/support.js"

export interface KeyApp {
  app: Express
  config: AuthConfig
  adapter: Adapter
  events: Json[]
  auditRecords: Json[]
  adminIds: Set<string>
}

/**
 * Routes: `GET /api/any` (key or session), `GET /api/only` (keys only), `GET /api/write` (scope
 * "write"), `GET /api/projects` (key or session, permission project:write), `GET /session-only`
 * (requireAuth without keys), `GET /api/recent` (keys allowed, maxAge 300).
 */
export function buildKeyApp(adapter: Adapter, options: { apiKeys?: ApiKeysOptions | true; extra?: Partial<AuthConfig> } = {}): KeyApp {
  const events: Json[] = []
  const auditRecords: Json[] = []
  const adminIds = new Set<string>()
  const config = {
    secret: SECRET,
    providers: [credentialsProvider()],
    logLevel: "silent",
    adapter,
    apiKeys: options.apiKeys ?? { scopes: ["read", "write"] },
    organizations: { roles: { member: { project: ["read"] }, admin: { project: ["read", "write"] } } },
    admin: { isAdmin: ({ user }: { user: { id: string } }) => adminIds.has(user.id) },
    events: {
      apiKey: (message: Json) => {
        events.push({ ...message })
      },
      audit: (record: Json) => {
        auditRecords.push({ ...record })
      },
    },
    ...options.extra,
  } as unknown as AuthConfig
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  const show = (req: express.Request, res: express.Response) => {
    res.json({ auth: req.auth ?? null })
  }
  app.get("/api/any", requireAuth(config, { apiKey: true }), show)
  app.get("/api/only", requireAuth(config, { apiKey: "only" }), show)
  app.get("/api/write", requireAuth(config, { apiKey: true, scope: "write" }), show)
  app.get("/api/projects", requireAuth(config, { apiKey: true, permission: "project:write" }), show)
  app.get("/api/recent", requireAuth(config, { apiKey: true, maxAge: 300 }), show)
  app.get("/session-only", requireAuth(config), show)
  return { app, config, adapter, events, auditRecords, adminIds }
}

export interface KeyClient extends Client {
  keys(action: string, fields?: Json): Promise<{ status: number; body: Json; text: string; headers: Record<string, unknown> }>
}

export function keyClient(client: Client): KeyClient {
  return {
    ...client,
    async keys(action, fields = {}) {
      const body = { ...fields, csrfToken: await csrfOf(client.agent) }
      const response = await client.agent.post(`/auth/api-keys/${action}`).set("Accept", "application/json").send(body)
      return { status: response.status, body: response.body as Json, text: response.text, headers: response.headers }
    },
  }
}

export async function keyHolder(t: KeyApp, label: string): Promise<KeyClient> {
  return keyClient(await signIn(t.app, await storedUser(t.adapter, label)))
}
