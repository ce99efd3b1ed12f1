/**
 * What the admin suites share (not a test file): an app with `admin: { userIds }` on a storage
 * engine (memory, SQLite, PostgreSQL, MariaDB: the organizations suites' engines), stored users
 * signed in through Credentials, and a client that drives `POST /auth/admin/<action>` as JSON with
 * the CSRF token.
 */
import express, { type Express } from "express"
import { authRouter, authSession, requireAuth } from "../../lib/index.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import type { AdminOptions } from "../../lib/admin/options.js"
import { SECRET } from "../helpers/app.js"
import { credentialsProvider, csrfOf, signIn, storedUser, unique, type Client, type Json } from "../integration/organizations/support.js"

export { ENGINES, agentFor, engine, type Engine, type EngineName, type Client, type Json, refusal, unique, storedUser, signIn, csrfOf, clientOf } from "../integration/organizations/support.js"

export interface AdminApp {
  app: Express
  config: AuthConfig
  adapter: Adapter
  adminEvents: Json[]
  auditRecords: Json[]
  /** The user ids `admin.userIds` holds (add before signing in). */
  adminIds: Set<string>
}

/** The app: the router with the admin tools, `authSession`, `GET /me` (req.auth) and `GET /private` (requireAuth). */
export function buildAdminApp(adapter: Adapter, options: { admin?: Partial<AdminOptions>; extra?: Partial<AuthConfig> } = {}): AdminApp {
  const adminIds = new Set<string>()
  const adminEvents: Json[] = []
  const auditRecords: Json[] = []
  const config = {
    secret: SECRET,
    providers: [credentialsProvider()],
    logLevel: "silent",
    adapter,
    // The set is read on each check (userIds is copied at start-up), so tests can name admins later.
    admin: { isAdmin: ({ user }: { user: { id: string } }) => adminIds.has(user.id), ...options.admin },
    events: {
      admin: (message: Json) => {
        adminEvents.push({ ...message })
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
  app.get("/me", (req, res) => {
    res.json({ auth: req.auth ?? null })
  })
  app.get("/private", requireAuth(config), (req, res) => {
    res.json({ ok: true, email: req.auth?.user?.email ?? null })
  })
  return { app, config, adapter, adminEvents, auditRecords, adminIds }
}

export interface AdminClient extends Client {
  /** `POST /auth/admin/<action>` as JSON with the CSRF token (unless `csrf: false`). */
  admin(action: string, fields?: Json, options?: { csrf?: boolean }): Promise<{ status: number; body: Json; text: string; headers: Record<string, unknown> }>
}

export function adminClient(client: Client): AdminClient {
  return {
    ...client,
    async admin(action, fields = {}, options = {}) {
      // The token first: the agent attaches its cookies when the request is made.
      const body = options.csrf === false ? fields : { ...fields, csrfToken: await csrfOf(client.agent) }
      const response = await client.agent.post(`/auth/admin/${action}`).set("Accept", "application/json").send(body)
      return { status: response.status, body: response.body as Json, text: response.text, headers: response.headers }
    },
  }
}

/** A new stored user, signed in; an admin when `admin` is true. */
export async function someone(t: AdminApp, label: string, options: { admin?: boolean } = {}): Promise<AdminClient> {
  const user = await storedUser(t.adapter, label)
  if (options.admin) t.adminIds.add(user.id)
  return adminClient(await signIn(t.app, user))
}

export { unique as uniqueLabel }
