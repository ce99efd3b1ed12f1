/**
 * What the organizations integration suites share (not a test file): the storage engines they run
 * on (memory, SQLite, PostgreSQL, MariaDB; each SQL suite in tables of its own prefix, dropped at
 * the end), an app with the router, `authSession` and routes guarded by `requireAuth({ permission
 * | role | function })` and `hasPermission`, stored users signed in through Credentials, and a
 * client that drives `POST /auth/organizations/<action>` as JSON with the CSRF token.
 */
import { expect } from "@jest/globals"
import express, { type Express, type NextFunction, type Request, type Response } from "express"
import { MemoryAdapter } from "../../../adapters/memory/index.js"
import type { SqlAdapterInstance } from "../../../adapters/sql/index.js"
import { authRouter, authSession, hasPermission, requireAuth } from "../../../lib/index.js"
import Credentials from "../../../lib/providers/credentials.js"
import type { Adapter } from "../../../lib/adapters.js"
import type { AuthConfig } from "../../../lib/types.js"
import type { InvitationMail, OrganizationsOptions } from "../../../lib/index.js"
import { SECRET, request, type Agent } from "../../helpers/app.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix, type DatabaseName } from "../../helpers/databases.js"

export const HOST = "app.test"
export const PASSWORD = "correct-horse-battery"

export type EngineName = "memory" | DatabaseName
export const ENGINES: EngineName[] = ["memory", "sqlite", "postgres", "mariadb"]

/** A storage engine: the adapter of one test file, in tables under its own prefix. */
export interface Engine {
  readonly name: EngineName
  open(): Promise<void>
  close(): Promise<void>
  adapter(): Adapter
}

export function engine(name: EngineName, label: string): Engine {
  if (name === "memory") {
    let adapter: Adapter | undefined
    return {
      name,
      open: async () => {
        adapter = MemoryAdapter()
      },
      close: async () => {
        adapter = undefined
      },
      adapter: () => {
        if (!adapter) throw new Error("memory engine not open")
        return adapter
      },
    }
  }
  const prefix = uniquePrefix(`org${label}_${name.slice(0, 2)}`)
  let adapter: SqlAdapterInstance | undefined
  return {
    name,
    open: async () => {
      adapter = await openTestDatabase(name, prefix)
    },
    close: async () => {
      if (adapter) await closeTestDatabase(adapter, prefix)
      adapter = undefined
    },
    adapter: () => {
      if (!adapter) throw new Error(`${name} is not open`)
      return adapter
    },
  }
}

/** The roles every suite configures. */
export const ROLES: NonNullable<OrganizationsOptions["roles"]> = {
  member: { project: ["read"] },
  admin: { project: ["read", "write"] },
  editor: { project: ["read", "write"] },
}

export interface Recorded {
  mails: InvitationMail[]
  organizationEvents: Array<Record<string, unknown>>
  auditRecords: Array<Record<string, unknown>>
  /** Errors that reached the app's error handler (an InvalidOption thrown by requireAuth). */
  errors: Error[]
}

export interface TestApp extends Recorded {
  app: Express
  config: AuthConfig
  adapter: Adapter
}

/** username -> the stored user authorize returns. */
const people = new Map<string, { id: string; email: string; name: string }>()

/** Lets `username` sign in (with PASSWORD) as this stored user through `credentialsProvider()`. */
export function rememberPerson(username: string, person: { id: string; email: string; name: string }): void {
  people.set(username, person)
}

/** The Credentials provider of the organization, SSO and SCIM suites: the people remembered, with PASSWORD. */
export function credentialsProvider() {
  return Credentials({
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    async authorize(fields) {
      const person = typeof fields.username === "string" ? people.get(fields.username) : undefined
      if (!person || fields.password !== PASSWORD) return null
      return { ...person }
    },
  })
}

/**
 * The app: `/auth` router, `authSession`, and
 * - `GET /projects/edit`: `requireAuth({ permission: "project:write" })`;
 * - `GET /owners`: `requireAuth({ role: "owner" })`;
 * - `GET /staff`: `requireAuth({ permission: (org) => org.role !== "member" })`;
 * - `GET /can`: `hasPermission` in a handler;
 * - `GET /me`: `req.auth`.
 */
export function buildApp(adapter: Adapter, options: { organizations?: AuthConfig["organizations"] | false; extra?: Partial<OrganizationsOptions> } = {}): TestApp {
  const recorded: Recorded = { mails: [], organizationEvents: [], auditRecords: [], errors: [] }
  const organizations =
    options.organizations === false
      ? undefined
      : (options.organizations ?? {
          roles: ROLES,
          customRoles: true,
          sendInvitation: (mail: InvitationMail) => {
            recorded.mails.push(mail)
          },
          ...options.extra,
        })
  const config: AuthConfig = {
    secret: SECRET,
    providers: [credentialsProvider()],
    logLevel: "silent",
    adapter,
    ...(organizations === undefined ? {} : { organizations }),
    events: {
      organization: (message) => {
        recorded.organizationEvents.push({ ...message })
      },
      audit: (record) => {
        recorded.auditRecords.push({ ...(record as unknown as Record<string, unknown>) })
      },
    },
  } as AuthConfig
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  app.get("/me", (req, res) => {
    res.json({ auth: req.auth ?? null })
  })
  app.get("/projects/edit", requireAuth(config, { permission: "project:write" }), (req, res) => {
    res.json({ ok: true, organization: req.auth?.organization ?? null })
  })
  app.get("/owners", requireAuth(config, { role: "owner" }), (_req, res) => {
    res.json({ ok: true })
  })
  app.get("/staff", requireAuth(config, { permission: (organization) => organization.role !== "member" }), (_req, res) => {
    res.json({ ok: true })
  })
  app.get("/can", (req, res) => {
    res.json({ read: hasPermission(req, "project:read"), write: hasPermission(req, "project:write"), both: hasPermission(req, ["project:read", "project:write"]) })
  })
  app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
    recorded.errors.push(error)
    res.status(500).json({ thrown: { name: error.name, type: (error as { type?: string }).type ?? null } })
  })
  return { app, config, adapter, ...recorded }
}

let counter = 0

/** A fresh label: every suite shares its engine's tables across tests, so names never repeat. */
export function unique(label: string): string {
  counter += 1
  return `${label}${counter}x${Math.random().toString(36).slice(2, 8)}`
}

/** A cookie-keeping agent whose requests carry `Host: app.test`. */
export function agentFor(app: Express): Agent {
  return request.agent(app).set("Host", HOST) as Agent
}

/** A stored user (email verified unless told otherwise), known to the Credentials provider. */
export async function storedUser(adapter: Adapter, label: string, options: { verified?: boolean; email?: string } = {}) {
  const username = unique(label)
  const id = `user-${username}`
  const email = (options.email ?? `${username}@example.com`).toLowerCase()
  const name = label[0]!.toUpperCase() + label.slice(1)
  await adapter.createUser!({ id, email, name, emailVerified: options.verified === false ? null : new Date() })
  people.set(username, { id, email, name })
  return { id, email, name, username }
}

export type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** A signed-in person driving the JSON API. */
export interface Client {
  id: string
  email: string
  username: string
  agent: Agent
  /** `POST /auth/organizations/<action>` as JSON, with the CSRF token (unless `csrf: false`). */
  act(action: string, fields?: Json, options?: { csrf?: boolean }): Promise<{ status: number; body: Json; text: string }>
  /** A GET as JSON (or with another Accept). */
  get(path: string, accept?: string): Promise<{ status: number; body: Json; text: string; headers: Record<string, unknown> }>
  /** `auth.organization` of `GET /auth/session`. */
  active(): Promise<Json | null>
}

export async function csrfOf(agent: Agent): Promise<string> {
  const response = await agent.get("/auth/csrf").set("Accept", "application/json").expect(200)
  return response.body.csrfToken as string
}

export function clientOf(agent: Agent, who: { id: string; email: string; username: string }): Client {
  return {
    ...who,
    agent,
    async act(action, fields = {}, options = {}) {
      const body = options.csrf === false ? fields : { ...fields, csrfToken: await csrfOf(agent) }
      const response = await agent.post(`/auth/organizations/${action}`).set("Accept", "application/json").send(body)
      return { status: response.status, body: response.body as Json, text: response.text }
    },
    async get(path, accept = "application/json") {
      const response = await agent.get(path).set("Accept", accept)
      return { status: response.status, body: response.body as Json, text: response.text, headers: response.headers }
    },
    async active() {
      const response = await agent.get("/auth/session").set("Accept", "application/json").expect(200)
      return (response.body?.organization ?? null) as Json | null
    },
  }
}

/** Signs a stored user in through the Credentials callback. */
export async function signIn(app: Express, who: { id: string; email: string; username: string }): Promise<Client> {
  const agent = agentFor(app)
  const csrf = await csrfOf(agent)
  const response = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: csrf, username: who.username, password: PASSWORD })
  if (response.status !== 302 || /error=/.test(String(response.headers.location))) throw new Error(`sign-in of ${who.username} failed: ${response.status} ${response.headers.location}`)
  return clientOf(agent, who)
}

/** A new stored, verified (unless told) user, signed in. */
export async function person(t: TestApp, label: string, options: { verified?: boolean; email?: string } = {}): Promise<Client> {
  return signIn(t.app, await storedUser(t.adapter, label, options))
}

/** Creates an organization as `owner` (its id). */
export async function organizationOf(owner: Client, name = "Acme"): Promise<Json> {
  const created = await owner.act("create", { name, slug: unique("acme").toLowerCase() })
  if (created.status !== 200) throw new Error(`create failed: ${created.status} ${created.text}`)
  return created.body.organization as Json
}

/** The token of an invitation mail's link. */
export function tokenOf(mail: InvitationMail): string {
  const token = new URL(mail.url).searchParams.get("token")
  if (!token) throw new Error(`no token in ${mail.url}`)
  return token
}

/** Invites `email` to `organizationId` as `inviter`; the invitation and its link's token. */
export async function inviteTo(t: TestApp, inviter: Client, organizationId: string, email: string, role?: string): Promise<{ invitation: Json; token: string }> {
  const before = t.mails.length
  const sent = await inviter.act("invite", { organizationId, email, ...(role ? { role } : {}) })
  if (sent.status !== 200) throw new Error(`invite failed: ${sent.status} ${sent.text}`)
  const mail = t.mails[before]
  if (!mail) throw new Error("no invitation mail")
  return { invitation: sent.body.invitation as Json, token: tokenOf(mail) }
}

/** Makes `member` a member of the organization with `role`, through an invitation they accept. */
export async function join(t: TestApp, inviter: Client, organizationId: string, member: Client, role?: string): Promise<void> {
  const { token } = await inviteTo(t, inviter, organizationId, member.email, role)
  const accepted = await member.act("accept", { token })
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${accepted.text}`)
}

/** The members of an organization as stored: userId -> role. */
export async function rolesIn(adapter: Adapter, organizationId: string): Promise<Record<string, string>> {
  const rows = await adapter.listMembers!(organizationId)
  return Object.fromEntries(rows.map((row) => [row.userId, row.role]))
}

/** A JSON refusal with the named error type. */
export function refusal(type: string): unknown {
  return expect.objectContaining({ error: expect.objectContaining({ type }) })
}
