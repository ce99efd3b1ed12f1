/**
 * What the SCIM administration tests share (issue #29): an app with organizations and `scim` on
 * (memory adapter, every audit record kept), people signed in with the Credentials provider (a
 * stale sign-in: three hours ago), an organization made by its owner, and the admin actions as
 * JSON or as a form.
 */
import { jest } from "@jest/globals"
import express, { type Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { authRouter } from "../../lib/index.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET } from "../helpers/app.js"
import { agentFor, clientOf, credentialsProvider, csrfOf, PASSWORD, rememberPerson, unique, type Client, type Json } from "../integration/organizations/support.js"

export type { Client, Json }
export { csrfOf, unique }


export interface ScimApp {
  app: Express
  adapter: Adapter
  audits: Json[]
  config: AuthConfig
}

export function buildApp(): ScimApp {
  const adapter = MemoryAdapter()
  const audits: Json[] = []
  const config = {
    secret: SECRET,
    logLevel: "silent",
    adapter,
    providers: [
      credentialsProvider(),
    ],
    organizations: { roles: { member: { project: ["read"] }, editor: { project: ["read", "write"] } } },
    scim: true,
    events: { audit: (record: unknown) => void audits.push({ ...(record as Json) }) },
  } as unknown as AuthConfig
  const app = express()
  app.use("/auth", authRouter(config))
  return { app, adapter, audits, config }
}

/** A stored user, signed in (`stale`: three hours ago, past the recent sign-in window). */
export async function person(t: ScimApp, label: string, options: { stale?: boolean } = {}): Promise<Client> {
  const username = unique(label)
  const who = { id: `user-${username}`, email: `${username}@example.org`, username }
  await t.adapter.createUser!({ id: who.id, email: who.email, name: label, emailVerified: new Date() })
  rememberPerson(username, { id: who.id, email: who.email, name: label })
  const clock = options.stale ? jest.spyOn(Date, "now").mockReturnValue(Date.now() - 3 * 60 * 60 * 1000) : undefined
  try {
    const agent = agentFor(t.app)
    const csrfToken = await csrfOf(agent)
    const response = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken, username, password: PASSWORD })
    if (response.status !== 302 || String(response.headers.location).includes("error=")) throw new Error(`sign-in failed: ${response.headers.location}`)
    return clientOf(agent, who)
  } finally {
    clock?.mockRestore()
  }
}

/** An organization made by `owner`. */
export async function organizationOf(owner: Client, name = "Acme"): Promise<Json> {
  const created = await owner.act("create", { name, slug: unique("acme").toLowerCase() })
  if (created.status !== 200) throw new Error(`create failed: ${created.text}`)
  return created.body.organization as Json
}

/** `POST /auth/scim-admin/<verb>` as JSON. */
export async function admin(client: Client, verb: string, fields: Json) {
  const response = await client.agent
    .post(`/auth/scim-admin/${verb}`)
    .set("Accept", "application/json")
    .send({ ...fields, csrfToken: await csrfOf(client.agent) })
  return { status: response.status, body: response.body as Json, text: response.text, headers: response.headers as Record<string, string> }
}

/** `POST /auth/scim-admin/<verb>` as a browser's form. */
export async function form(client: Client, verb: string, fields: Record<string, string>) {
  const response = await client.agent
    .post(`/auth/scim-admin/${verb}`)
    .type("form")
    .send({ ...fields, csrfToken: await csrfOf(client.agent) })
  return { status: response.status, location: String(response.headers.location ?? ""), text: response.text, headers: response.headers as Record<string, string> }
}
