/**
 * The SCIM Group resource (RFC 7643 §4.2): `id`, `displayName`, `externalId` and `members`
 * (`[{ value: <user id>, display }]`). A member must be a user this organization's directory
 * provisioned: any other id (another organization's user included) is `invalidValue`, so a
 * directory can neither see nor reach users outside its organization.
 */
import type { AdapterScimGroup, AdapterScimUser } from "./adapter.js"
import type { ScimGroupInput } from "./provision.js"
import { ScimProblem } from "./problem.js"
import { canonicalName, isPlainObject, nameMap, resolveAttributePath, versionOf, type AttributeTree } from "./values.js"

export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group"

export const GROUP_ATTRIBUTES: readonly string[] = ["id", "externalId", "meta", "schemas", "displayName", "members"]
const GROUP_NAMES = nameMap(GROUP_ATTRIBUTES)

/** The Group's attributes and sub-attributes (RFC 7643 §4.2), what a PATCH path may name. */
export const GROUP_TREE: AttributeTree = {
  id: null,
  externalId: null,
  schemas: null,
  displayName: null,
  meta: { resourceType: null, created: null, lastModified: null, location: null, version: null },
  members: { value: null, $ref: null, display: null, type: null },
}

/** A PATCH path's segments in canonical case (patch.ts `PathResolver`). */
export const groupPath = Object.assign((segments: readonly string[]) => resolveAttributePath(GROUP_TREE, segments, GROUP_SCHEMA), { extensions: [] as const })
/** The longest displayName or externalId every adapter stores (255 characters in MySQL's columns). */
const MAX_STRING = 255

export function groupAttributeName(name: string): string | undefined {
  return canonicalName(name, GROUP_NAMES)
}

function invalid(detail: string): ScimProblem {
  return new ScimProblem(400, detail, "invalidValue")
}

function text(value: unknown, name: string): string {
  if (typeof value !== "string" || !value.trim() || value.length > MAX_STRING) throw invalid(`${name} must be a non-empty string of at most ${MAX_STRING} characters`)
  return value
}

/** The member ids of a `members` value, in order, each once; every one a user of `provisioned`. */
function membersOf(value: unknown, provisioned: ReadonlySet<string>): string[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw invalid("members must be an array")
  const ids: string[] = []
  for (const member of value) {
    const id = isPlainObject(member) ? member.value : undefined
    if (typeof id !== "string" || !id) throw invalid("Each member needs a value (the user's id)")
    if (!provisioned.has(id)) throw invalid(`${id.slice(0, 100)} is not a user of this organization's directory`)
    if (!ids.includes(id)) ids.push(id)
  }
  return ids
}

/** A Group body (POST, PUT, or a patched resource) as provisioning's input; PUT replaces (no members: none). */
export function groupFromScim(body: Record<string, unknown>, provisioned: ReadonlySet<string>, id?: string): ScimGroupInput {
  if (body.schemas !== undefined && (!Array.isArray(body.schemas) || !body.schemas.some((schema) => typeof schema === "string" && schema.toLowerCase() === GROUP_SCHEMA.toLowerCase()))) {
    throw new ScimProblem(400, `schemas must include ${GROUP_SCHEMA}`, "invalidSyntax")
  }
  let displayName: string | undefined
  let externalId: string | null = null
  let members: string[] = []
  for (const [key, value] of Object.entries(body)) {
    const name = groupAttributeName(key)
    if (!name) throw invalid(`${key} is not an attribute of a Group`)
    if (name === "id" && value !== undefined && value !== null && id !== undefined && value !== id) throw new ScimProblem(400, "id cannot be changed", "mutability")
    if (value === null || value === undefined) continue
    if (name === "displayName") displayName = text(value, "displayName")
    else if (name === "externalId") externalId = text(value, "externalId")
    else if (name === "members") members = membersOf(value, provisioned)
  }
  if (displayName === undefined) throw invalid("displayName is required")
  return { displayName, externalId, members }
}

/** What a member is shown as: the user's displayName, else their userName. */
export function memberDisplay(user: AdapterScimUser | undefined): string | undefined {
  const displayName = user?.attributes?.displayName
  return typeof displayName === "string" ? displayName : user?.userName
}

/** The SCIM form of a group; `usersUrl` is the organization's `Users` URL (members' `$ref`). */
export function groupToScim(group: AdapterScimGroup, location: string, usersUrl: string, users: ReadonlyMap<string, AdapterScimUser>): Record<string, unknown> {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...(group.externalId !== null && { externalId: group.externalId }),
    displayName: group.displayName,
    members: group.members.map((userId) => {
      const display = memberDisplay(users.get(userId))
      return { value: userId, $ref: `${usersUrl}/${encodeURIComponent(userId)}`, ...(display !== undefined && { display }) }
    }),
    meta: { resourceType: "Group", created: new Date(group.createdAt).toISOString(), lastModified: new Date(group.updatedAt).toISOString(), location, version: versionOf(group.updatedAt) },
  }
}
