/**
 * `<base>/scim/v2/<organization id>/...` (issue #29): the SCIM 2.0 protocol (RFC 7644) for one
 * organization's directory. The path names the organization and the endpoint (`Users[/<id>]`,
 * `Groups[/<id>]`, `ServiceProviderConfig`, `ResourceTypes[/<name>]`, `Schemas[/<urn>]`); the
 * bearer token must be that organization's (auth.ts); a body is JSON (`application/scim+json` or
 * `application/json`), read here within the core's limit. Every answer is SCIM's, errors included:
 * whatever happens is caught here; bad input is a 4xx with its scimType, storage that is down a 503
 * with Retry-After, and only a fault of Gatehouse's own a 500 (logged).
 */
import { audit } from "../../audit/emit.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { AuthError, UnknownAction } from "../../errors.js"
import type { ResolvedConfig } from "../../core/config/resolved.js"
import type { AdapterScimUser } from "../adapter.js"
import type { ResolvedScim } from "../settings.js"
import { ScimProblem } from "../problem.js"
import { ScimRefusal, problemResponse, scimNoContent, scimResponse } from "../respond.js"
import { authenticate } from "../auth.js"
import { checkShape, versionOf } from "../values.js"
import { listResponse, parseListQuery, project, projectionOf, LIST_RESPONSE_SCHEMA } from "../list.js"
import { userFromScim, userPath, userToScim } from "../users.js"
import { groupFromScim, groupPath, groupToScim } from "../group-resource.js"
import { applyPatch } from "../patch.js"
import { resourceTypes, schemas, serviceProviderConfig } from "../discovery.js"
import { createGroup, deleteGroup, deprovisionUser, provisionUser, updateGroup, updateProvisionedUser } from "../provision.js"
import { scimStorage, type ScimStorage } from "../storage.js"

/** Seconds a directory is asked to wait when storage is down. */
const RETRY_AFTER_SECONDS = 5
const BODY_TYPES = new Set(["application/scim+json", "application/json"])

interface Call {
  ctx: RequestContext
  config: ResolvedConfig
  settings: ResolvedScim
  storage: ScimStorage
  organizationId: string
  /** The organization's endpoint: `<base>/scim/v2/<organization id>`. */
  base: string
  method: string
  id?: string
}

function notFound(detail = "There is no such SCIM endpoint"): ScimProblem {
  return new ScimProblem(404, detail)
}

function notAllowed(call: Call, allow: string): ScimRefusal {
  return new ScimRefusal(405, `${call.method} is not supported here`, { Allow: allow })
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw notFound()
  }
}

/** The body of a POST, PUT or PATCH: a JSON object, of a JSON content type. */
async function bodyOf(ctx: RequestContext): Promise<Record<string, unknown>> {
  const type = (ctx.request.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? ""
  if (!BODY_TYPES.has(type)) throw new ScimProblem(415, "The body must be application/scim+json or application/json")
  const body = ctx.request.readBody ? await ctx.request.readBody() : (ctx.request.body ?? {})
  checkShape(body)
  return body
}

function resourceResponse(call: Call, resource: Record<string, unknown>, updatedAt: Date, status = 200): ResponseInternal {
  const meta = resource.meta as { location: string }
  const headers: Record<string, string> = { ETag: versionOf(updatedAt), ...(status === 201 && { Location: meta.location }) }
  return scimResponse(project(resource, projectionOf(call.ctx.request.query)), status, headers)
}

/** If-Match (RFC 7644 §3.14): a version other than the resource's is refused before any change. */
function checkVersion(call: Call, updatedAt: Date): void {
  const wanted = call.ctx.request.header("if-match")
  if (!wanted || wanted.trim() === "*") return
  const current = versionOf(updatedAt)
  const strong = current.slice(2)
  if (!wanted.split(",").some((tag) => tag.trim() === current || tag.trim() === strong)) throw new ScimProblem(412, "The resource changed since that version")
}

// ---- Users ----

async function users(call: Call): Promise<ResponseInternal> {
  const { config, storage, organizationId, base, id } = call
  const location = (userId: string) => `${base}/Users/${encodeURIComponent(userId)}`
  if (id === undefined) {
    if (call.method === "GET") {
      const query = parseListQuery(call.ctx.request.query, call.settings.maxResults)
      const all = await storage.listScimUsers(organizationId)
      return scimResponse(listResponse(all.map((user) => userToScim(user, location(user.userId))), query))
    }
    if (call.method !== "POST") throw notAllowed(call, "GET, POST")
    const input = userFromScim(await bodyOf(call.ctx))
    const created = await provisionUser(config, organizationId, input)
    return resourceResponse(call, userToScim(created, location(created.userId)), created.updatedAt, 201)
  }
  const existing = await storage.getScimUser(organizationId, id)
  if (!existing) throw notFound("No such user")
  switch (call.method) {
    case "GET":
      return resourceResponse(call, userToScim(existing, location(id)), existing.updatedAt)
    case "PUT": {
      const input = userFromScim(await bodyOf(call.ctx), id)
      checkVersion(call, existing.updatedAt)
      return userUpdated(call, await updateProvisionedUser(config, organizationId, id, input))
    }
    case "PATCH": {
      const patched = applyPatch(userToScim(existing, location(id)), await bodyOf(call.ctx), userPath)
      const input = userFromScim(patched, id)
      checkVersion(call, existing.updatedAt)
      return userUpdated(call, await updateProvisionedUser(config, organizationId, id, input))
    }
    case "DELETE":
      checkVersion(call, existing.updatedAt)
      await deprovisionUser(config, organizationId, id)
      return scimNoContent()
    default:
      throw notAllowed(call, "GET, PUT, PATCH, DELETE")
  }
}

function userUpdated(call: Call, user: AdapterScimUser): ResponseInternal {
  return resourceResponse(call, userToScim(user, `${call.base}/Users/${encodeURIComponent(user.userId)}`), user.updatedAt)
}

// ---- Groups ----

async function groups(call: Call): Promise<ResponseInternal> {
  const { config, storage, organizationId, base, id } = call
  const location = (groupId: string) => `${base}/Groups/${encodeURIComponent(groupId)}`
  // Members are shown with their names, and must be this organization's provisioned users.
  const people = new Map((await storage.listScimUsers(organizationId)).map((user) => [user.userId, user]))
  const provisioned = new Set(people.keys())
  const usersUrl = `${base}/Users`
  if (id === undefined) {
    if (call.method === "GET") {
      const query = parseListQuery(call.ctx.request.query, call.settings.maxResults)
      const all = await storage.listScimGroups(organizationId)
      return scimResponse(listResponse(all.map((group) => groupToScim(group, location(group.id), usersUrl, people)), query))
    }
    if (call.method !== "POST") throw notAllowed(call, "GET, POST")
    const input = groupFromScim(await bodyOf(call.ctx), provisioned)
    const created = await createGroup(config, organizationId, input)
    return resourceResponse(call, groupToScim(created, location(created.id), usersUrl, people), created.updatedAt, 201)
  }
  const existing = await storage.getScimGroup(organizationId, id)
  if (!existing) throw notFound("No such group")
  const answer = (group: typeof existing) => resourceResponse(call, groupToScim(group, location(group.id), usersUrl, people), group.updatedAt)
  switch (call.method) {
    case "GET":
      return answer(existing)
    case "PUT": {
      const input = groupFromScim(await bodyOf(call.ctx), provisioned, id)
      checkVersion(call, existing.updatedAt)
      return answer(await updateGroup(config, organizationId, id, input))
    }
    case "PATCH": {
      const form = groupToScim(existing, location(id), usersUrl, people)
      // An empty member list is there to patch (Okta removes members one by one, even from none).
      const patched = applyPatch({ ...form, members: form.members ?? [] }, await bodyOf(call.ctx), groupPath)
      const input = groupFromScim(patched, provisioned, id)
      checkVersion(call, existing.updatedAt)
      return answer(await updateGroup(config, organizationId, id, input))
    }
    case "DELETE":
      checkVersion(call, existing.updatedAt)
      await deleteGroup(config, organizationId, id)
      return scimNoContent()
    default:
      throw notAllowed(call, "GET, PUT, PATCH, DELETE")
  }
}

// ---- Discovery ----

function discoveryList(resources: Array<Record<string, unknown>>): Record<string, unknown> {
  return { schemas: [LIST_RESPONSE_SCHEMA], totalResults: resources.length, itemsPerPage: resources.length, startIndex: 1, Resources: resources }
}

function discovery(call: Call, endpoint: string): ResponseInternal {
  if (call.method !== "GET") throw notAllowed(call, "GET")
  if (endpoint === "ServiceProviderConfig") {
    if (call.id !== undefined) throw notFound()
    return scimResponse(serviceProviderConfig(call.settings, call.base))
  }
  const all = endpoint === "ResourceTypes" ? resourceTypes(call.base) : schemas(call.base)
  if (call.id === undefined) return scimResponse(discoveryList(all))
  const wanted = call.id.toLowerCase()
  const found = all.find((item) => String(item.id).toLowerCase() === wanted)
  if (!found) throw notFound(`No such ${endpoint === "ResourceTypes" ? "resource type" : "schema"}`)
  return scimResponse(found)
}

// ---- The handler ----

const ENDPOINTS = new Map(["Users", "Groups", "ServiceProviderConfig", "ResourceTypes", "Schemas"].map((name) => [name.toLowerCase(), name]))

async function handle(ctx: RequestContext, settings: ResolvedScim): Promise<ResponseInternal> {
  const segments = (ctx.request.providerId ?? "").split("/")
  if (segments.length < 3 || segments.length > 4 || segments[0] !== "v2") throw notFound()
  const organizationId = decoded(segments[1] as string)
  if (!organizationId || organizationId.length > 200) throw notFound()
  // The token first: nothing about the organization is told to a caller without its token.
  await authenticate(ctx.config, settings, organizationId, ctx.request.header("authorization"))
  const endpoint = ENDPOINTS.get((segments[2] as string).toLowerCase())
  if (!endpoint) throw notFound()
  const id = segments[3] === undefined ? undefined : decoded(segments[3])
  if (id !== undefined && (!id || id.length > 300)) throw notFound()
  const call: Call = {
    ctx,
    config: ctx.config,
    settings,
    storage: scimStorage(ctx.config),
    organizationId,
    base: `${ctx.baseUrl}/scim/v2/${encodeURIComponent(organizationId)}`,
    method: ctx.request.method,
    id,
  }
  if (endpoint === "Users") return users(call)
  if (endpoint === "Groups") return groups(call)
  return discovery(call, endpoint)
}

function logged(config: ResolvedConfig, error: unknown): void {
  config.logger.error(error instanceof Error ? error : new AuthError(String(error)))
}

/** Any failure as a SCIM error answer. */
function answer(ctx: RequestContext, error: unknown): ResponseInternal {
  if (error instanceof ScimProblem) {
    if (error.status >= 500) logged(ctx.config, error)
    return problemResponse(error)
  }
  if (error instanceof AuthError) {
    switch (error.type) {
      case "PayloadTooLarge":
        return problemResponse(new ScimProblem(413, "The body is too large (at most 100 KiB)"))
      case "InvalidRequest":
        return problemResponse(new ScimProblem(400, "The body is not a JSON object", "invalidSyntax"))
      case "UnsupportedMediaType":
        return problemResponse(new ScimProblem(415, "The body must be application/scim+json or application/json, uncompressed, in UTF-8"))
      case "AdapterError":
      case "StoreUnavailable":
        logged(ctx.config, error)
        return problemResponse(new ScimRefusal(503, "The service is unavailable; try again shortly", { "Retry-After": String(RETRY_AFTER_SECONDS) }))
    }
    // Any other named refusal: the directory's request, not an internal fault (its type says which).
    return problemResponse(new ScimProblem(400, `The request was refused (${error.type})`))
  }
  logged(ctx.config, error)
  return problemResponse(new ScimProblem(500, "An internal error occurred"))
}

export async function scimProtocol(ctx: RequestContext): Promise<ResponseInternal> {
  const settings = ctx.config.scim
  if (!settings) throw new UnknownAction("SCIM provisioning is off (the scim option)")
  try {
    return await handle(ctx, settings)
  } catch (error) {
    const answered = answer(ctx, error)
    // Every refusal is audited with the organization the path names (the directory is the actor).
    const organizationId = /^v2\/([^/]{1,200})\//.exec(ctx.request.providerId ?? "")?.[1]
    const reason = error instanceof ScimProblem ? (error.scimType ?? String(error.status)) : error instanceof AuthError ? error.type : "internal"
    audit(ctx.config, { type: "scim.refused", outcome: "failure", reason, status: answered.status, organizationId })
    return answered
  }
}
