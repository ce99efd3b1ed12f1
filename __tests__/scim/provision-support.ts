/**
 * What the provisioning suites share (not a test file): a memory-adapter app with organizations
 * (roles `member`, `admin`, `editor`), SSO (for verified domains) and SCIM on, its resolved
 * configuration (the one its router uses), stored users who sign in through Credentials, and
 * organizations made through the adapter.
 */
import { expect } from "@jest/globals"
import express, { type Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { authRouter, authSession } from "../../lib/index.js"
import Credentials from "../../lib/providers/credentials.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import { resolveConfig, type ResolvedConfig } from "../../lib/core/config/resolve.js"
import { ScimProblem } from "../../lib/scim/problem.js"
import type { ScimUserInput } from "../../lib/scim/provision.js"
import { SECRET, request, type Agent } from "../helpers/app.js"

const PASSWORD = "correct-horse-battery"

export interface Fixture {
  adapter: Adapter
  config: AuthConfig
  resolved: ResolvedConfig
  app: Express
  audits: Array<Record<string, unknown>>
  /** username -> the stored user authorize returns. */
  people: Map<string, { id: string; email: string }>
}

export function fixture(): Fixture {
  const adapter = MemoryAdapter()
  const audits: Array<Record<string, unknown>> = []
  const people = new Map<string, { id: string; email: string }>()
  const config = {
    secret: SECRET,
    logLevel: "silent",
    adapter,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        async authorize(fields) {
          const person = typeof fields.username === "string" ? people.get(fields.username) : undefined
          return person && fields.password === PASSWORD ? { ...person } : null
        },
      }),
    ],
    organizations: { roles: { member: { project: ["read"] }, admin: { project: ["read", "write"] }, editor: { project: ["read", "write"] } } },
    sso: { dns: { resolveTxt: async () => [] } },
    scim: true,
    events: {
      audit: (record: unknown) => {
        audits.push({ ...(record as Record<string, unknown>) })
      },
    },
  } as unknown as AuthConfig
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  app.get("/me", (req, res) => {
    res.json({ auth: req.auth ?? null })
  })
  return { adapter, config, resolved: resolveConfig(config), app, audits, people }
}

let counter = 0
export function unique(label: string): string {
  counter += 1
  return `${label}${counter}${Math.random().toString(36).slice(2, 7)}`
}

/** A stored user (address verified unless told) who can sign in. */
export async function storedUser(f: Fixture, label: string, options: { email?: string; verified?: boolean } = {}): Promise<{ id: string; email: string }> {
  const id = `user-${unique(label)}`
  const email = options.email ?? `${unique(label)}@example.com`
  await f.adapter.createUser!({ id, email, name: label, emailVerified: options.verified === false ? null : new Date() })
  return { id, email }
}

/** An organization made through the adapter, with `owner` (a new stored user unless given) as its owner. */
export async function organization(f: Fixture, owner?: { id: string }): Promise<{ id: string; ownerId: string }> {
  const ownerId = owner?.id ?? (await storedUser(f, "owner")).id
  const id = `org-${unique("o")}`
  const now = new Date()
  await f.adapter.createOrganization!({ id, slug: unique("acme").toLowerCase(), name: "Acme", createdAt: now }, { organizationId: id, userId: ownerId, role: "owner", createdAt: now })
  return { id, ownerId }
}

/** The organization claims and verifies the domain. */
export async function verifyDomain(f: Fixture, organizationId: string, domain: string): Promise<void> {
  await f.adapter.createDomain!({ organizationId, domain, token: "t", verifiedAt: null, enforceSso: false, createdAt: new Date() })
  const verified = await f.adapter.verifyDomain!(organizationId, domain, new Date())
  if (!verified || typeof verified === "string") throw new Error(`domain ${domain} not verified`)
}

export async function addMember(f: Fixture, organizationId: string, userId: string, role: string): Promise<void> {
  await f.adapter.addMember!({ organizationId, userId, role, createdAt: new Date() })
}

export async function roleOf(f: Fixture, organizationId: string, userId: string): Promise<string | null> {
  return (await f.adapter.getMember!(organizationId, userId))?.role ?? null
}

/** A SCIM user as the protocol layer hands it over. */
export function userInput(email: string, extra: Partial<ScimUserInput> = {}): ScimUserInput {
  return { userName: email, externalId: null, active: true, attributes: { emails: [{ value: email, primary: true }], name: { givenName: "Pat", familyName: "Doe" } }, ...extra }
}

/** A browser signed in as the stored user. */
export async function signedIn(f: Fixture, who: { id: string; email: string }): Promise<Agent> {
  const username = unique("u")
  f.people.set(username, { id: who.id, email: who.email })
  const agent = request.agent(f.app) as Agent
  const csrf = (await agent.get("/auth/csrf").set("Accept", "application/json").expect(200)).body.csrfToken as string
  const response = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: csrf, username, password: PASSWORD })
  if (response.status !== 302 || /error=/.test(String(response.headers.location))) throw new Error(`sign-in failed: ${response.status} ${response.headers.location}`)
  return agent
}

/** `req.auth` as the app reads it for the browser (null: signed out). */
export async function authOf(agent: Agent): Promise<{ user?: { email?: string }; organization?: { id: string; role: string } | null } | null> {
  const response = await agent.get("/me").expect(200)
  return response.body.auth
}

/** The ScimProblem `work` refused with. */
export async function problemOf(work: Promise<unknown>): Promise<ScimProblem> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(ScimProblem)
  return error as ScimProblem
}
