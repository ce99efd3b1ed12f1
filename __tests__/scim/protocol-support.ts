/**
 * What the SCIM protocol suites share (not a test file): an app with SCIM on over the memory
 * adapter (../scim/fixtures/app.ts), an organization with a token made straight through the
 * adapter, and a client that sees the status, the headers and the body (parsed from the text,
 * whatever the content type) of each answer.
 */
import { expect } from "@jest/globals"
import type { Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { request } from "../helpers/app.js"
import { unique } from "../integration/organizations/support.js"
import { ERROR_SCHEMA, buildScimApp, mintToken, organizationWithOwner, type ScimApp } from "./fixtures/app.js"

export const SCIM_JSON = "application/scim+json"
export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User"
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group"
export const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
export const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
export const LIST_RESPONSE = "urn:ietf:params:scim:api:messages:2.0:ListResponse"

export interface Answer {
  status: number
  headers: Record<string, string>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any
  text: string
}

export interface CallOptions {
  token?: string | null
  contentType?: string
  raw?: string
  headers?: Record<string, string>
}

export interface Directory {
  t: ScimApp
  organizationId: string
  token: string
  call(method: string, path: string, body?: unknown, options?: CallOptions): Promise<Answer>
}

export async function call(app: Express, organizationId: string, token: string | null, method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Answer> {
  let pending = request(app)[method.toLowerCase() as "get"](`/auth/scim/v2/${organizationId}${path}`).set("Host", "app.test").set("Accept", SCIM_JSON)
  const bearer = options.token === undefined ? token : options.token
  if (bearer !== null) pending = pending.set("Authorization", `Bearer ${bearer}`)
  for (const [name, value] of Object.entries(options.headers ?? {})) pending = pending.set(name, value)
  const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body))
  if (payload !== undefined) pending = pending.set("Content-Type", options.contentType ?? SCIM_JSON).send(payload)
  const response = await pending.buffer(true).parse((res, done) => {
    let text = ""
    res.setEncoding("utf8")
    res.on("data", (chunk: string) => (text += chunk))
    res.on("end", () => done(null, text))
  })
  const text = typeof response.body === "string" ? response.body : ""
  let parsed: unknown
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  return { status: response.status, headers: response.headers as Record<string, string>, body: parsed, text }
}

/** An app over the memory adapter, an organization and its token. */
export async function directory(label: string, scim: AuthConfig["scim"] = true, t: ScimApp = buildScimApp(MemoryAdapter(), scim)): Promise<Directory> {
  const { organizationId } = await organizationWithOwner(t.adapter, label)
  const token = await mintToken(t.adapter, organizationId)
  return { t, organizationId, token, call: (method, path, body, options) => call(t.app, organizationId, token, method, path, body, options) }
}

/** An answer that is a SCIM error: its schema, the status as a string, the scimType when one is expected. */
export function expectScimError(answer: Answer, status: number, scimType?: string): void {
  expect({ status: answer.status, type: answer.headers["content-type"] }).toEqual({ status, type: "application/scim+json; charset=utf-8" })
  expect(answer.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: String(status) })
  expect(typeof answer.body.detail).toBe("string")
  if (scimType) expect(answer.body.scimType).toBe(scimType)
  else expect(answer.body.scimType).toBeUndefined()
}

export function userBody(userName: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { schemas: [USER_SCHEMA], userName, name: { givenName: "Test", familyName: "User" }, emails: [{ primary: true, type: "work", value: userName }], active: true, ...extra }
}

/** A new user of the directory (POST /Users); its SCIM form. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createUser(dir: Directory, label: string, extra: Record<string, unknown> = {}): Promise<any> {
  const answer = await dir.call("POST", "/Users", userBody(`${unique(label)}@example.org`, extra))
  if (answer.status !== 201) throw new Error(`POST /Users answered ${answer.status}: ${answer.text}`)
  return answer.body
}
