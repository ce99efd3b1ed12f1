/**
 * Two-factor test support (not a test file): the setups the suites run on (SQLite with cookie
 * sessions and Redis, PostgreSQL with database sessions and Redis, memory), an app with a
 * credentials provider that signs in any fresh user, and helpers that act as a person would:
 * read the secret off the setup page, compute codes from it at test time, type them.
 */
import { randomBytes } from "node:crypto"
import express, { type Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { SqlAdapterInstance } from "../../adapters/sql/index.js"
import { authRouter, authSession, requireAuth } from "../../lib/index.js"
import Credentials from "../../lib/providers/credentials.js"
import type { AuthConfig } from "../../lib/types.js"
import { codeAt } from "../../lib/two-factor/totp.js"
import { SECRET, request, type Agent } from "../helpers/app.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix } from "../helpers/databases.js"
import { redisStore } from "../sessions/setups.js"
import { RedisStore } from "../../lib/shared-store/redis.js"

export const STEP_MS = 30_000

export interface TwoFactorSetup {
  name: string
  open(): Promise<void>
  close(): Promise<void>
  config(overrides?: Partial<AuthConfig>): AuthConfig
  /** The SQL adapter, to read rows directly (not through the adapter). */
  sql?: () => { adapter: SqlAdapterInstance; prefix: string }
}

function sqlSetup(name: string, engine: "sqlite" | "postgres", strategy: "jwt" | "database"): TwoFactorSetup {
  const prefix = uniquePrefix("tf")
  const base = `gh16:${randomBytes(4).toString("hex")}:`
  let adapter: SqlAdapterInstance
  let redis: Awaited<ReturnType<typeof redisStore>>
  // Each configuration gets a store of its own (own key prefix), so counters never carry over between tests.
  const freshStore = () => RedisStore({ client: redis.client, prefix: `${base}${randomBytes(4).toString("hex")}:` })
  return {
    name,
    async open() {
      adapter = await openTestDatabase(engine, prefix)
      redis = await redisStore(base)
    },
    async close() {
      await redis.close()
      await closeTestDatabase(adapter, prefix)
    },
    config: (overrides = {}) => baseConfig({ adapter, store: freshStore(), session: { strategy }, ...overrides }),
    sql: () => ({ adapter, prefix }),
  }
}

export const SETUPS: TwoFactorSetup[] = [
  sqlSetup("SQLite, cookie sessions, Redis store", "sqlite", "jwt"),
  sqlSetup("PostgreSQL, database sessions, Redis store", "postgres", "database"),
  { name: "memory adapter and store", open: async () => undefined, close: async () => undefined, config: (overrides = {}) => baseConfig({ adapter: MemoryAdapter(), ...overrides }) },
]

/** Any username signs in with password "pw" (id `u-<name>`, email `<name>@example.test`). */
export function baseConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    logLevel: "silent",
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: async (fields) => (fields.password === "pw" && typeof fields.username === "string" ? { id: `u-${fields.username}`, name: fields.username, email: `${fields.username}@example.test` } : null),
      }),
    ],
    twoFactor: { issuer: "Gatehouse Test" },
    ...overrides,
  }
}

/** The app: router, authSession, `/api/me` (any sign-in), `/billing` (signed in within 5 minutes). */
export function twoFactorApp(config: AuthConfig): Express {
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  app.get("/", (req, res) => res.json({ auth: req.auth ?? null }))
  app.get("/api/me", requireAuth(config), (req, res) => res.json(req.auth))
  app.get("/billing", requireAuth(config, { maxAge: 300 }), (req, res) => res.json({ billing: true, auth: req.auth }))
  return app
}

export const freshName = (label: string) => `${label}-${randomBytes(4).toString("hex")}`

/** A hidden field's value on a page. */
export function field(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)
  if (!match) throw new Error(`no ${name} field on the page:\n${html.slice(0, 2000)}`)
  return match[1] as string
}

/** Codes are computed a little away from a step's edge, so the server checks them in the same step. */
export async function awayFromStepEdge(): Promise<void> {
  const into = Date.now() % STEP_MS
  if (into > STEP_MS - 3000) await new Promise((resume) => setTimeout(resume, STEP_MS - into + 200))
}

/** The code an authenticator app shows `steps` steps from now. */
export const codeFor = (secret: string, steps = 0) => codeAt(secret, Date.now() + steps * STEP_MS)

/** Signs in with the credentials provider (the first factor); resolves to the response (a 302). */
export async function signIn(agent: Agent, username: string, password = "pw", status = 302) {
  const csrf = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
  return agent.post("/auth/callback/credentials").type("form").send({ csrfToken: csrf, username, password, callbackUrl: "/api/me" }).expect(status)
}

/** Enrols the signed-in agent: reads the secret off the page, confirms with the current code; `done` is the page that follows. */
export async function enrol(agent: Agent, callbackUrl = "/api/me"): Promise<{ secret: string; codes: string[]; page: string; done: string }> {
  const page = (await agent.get("/auth/two-factor/setup").expect(200)).text
  const secret = (/id="two-factor-secret">([A-Z2-7 ]+)</.exec(page)?.[1] ?? "").replace(/ /g, "")
  if (!secret) throw new Error("no secret on the setup page")
  await awayFromStepEdge()
  const done = await agent
    .post("/auth/two-factor/setup")
    .type("form")
    .send({ csrfToken: field(page, "csrfToken"), setupToken: field(page, "setupToken"), callbackUrl, intent: "enable", code: codeFor(secret) })
    .expect(200)
  const codes = [...done.text.matchAll(/<li><code>([0-9a-z-]+)<\/code><\/li>/g)].map((match) => match[1] as string)
  return { secret, codes, page, done: done.text }
}

/** A new user, signed in and enrolled, then signed out (a fresh browser for what follows). */
export async function enrolledUser(app: Express): Promise<{ username: string; secret: string; codes: string[] }> {
  const username = freshName("tf")
  const agent = request.agent(app)
  await signIn(agent, username)
  const { secret, codes } = await enrol(agent)
  return { username, secret, codes }
}

/** Types `code` on the two-factor page of an agent whose sign-in is pending. */
export async function submitCode(agent: Agent, code: string, status: number) {
  const page = (await agent.get("/auth/two-factor").expect(200)).text
  return agent.post("/auth/two-factor").type("form").send({ csrfToken: field(page, "csrfToken"), code }).expect(status)
}
