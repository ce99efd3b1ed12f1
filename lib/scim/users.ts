/**
 * The SCIM User resource (RFC 7643 §4.1, and the enterprise extension §4.3) as Gatehouse keeps it:
 * `id` is the Gatehouse user, `userName`, `externalId` and `active` have columns, every other
 * attribute the directory sent (name, displayName, emails, the enterprise extension, another
 * extension's URN) is kept as sent. Attribute names are matched case-insensitively and written in
 * their canonical case; `password` is never kept (no password is ever set through SCIM) and
 * `groups` is read-only (groups are managed through Groups).
 */
import type { AdapterScimUser } from "./adapter.js"
import type { ScimUserInput } from "./provision.js"
import { ScimProblem } from "./problem.js"
import { booleanOf, canonicalName, isPlainObject, nameMap, resolveAttributePath, versionOf, type AttributeTree } from "./values.js"

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User"
export const ENTERPRISE_USER_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"

const SINGULAR_STRINGS = ["displayName", "nickName", "profileUrl", "title", "userType", "preferredLanguage", "locale", "timezone"] as const
const MULTI_VALUED = ["emails", "phoneNumbers", "ims", "photos", "addresses", "entitlements", "roles", "x509Certificates"] as const
/** The core User attributes, in canonical case (and the common ones). */
export const USER_ATTRIBUTES: readonly string[] = ["id", "externalId", "meta", "schemas", "userName", "name", "active", "password", "groups", ...SINGULAR_STRINGS, ...MULTI_VALUED]
const USER_NAMES = nameMap([...USER_ATTRIBUTES, ENTERPRISE_USER_SCHEMA])
/** Read-only or write-only: accepted in a body, never kept. */
const DROPPED = new Set(["id", "meta", "schemas", "password", "groups"])
/** The longest identifier (userName, externalId) every adapter stores (255 characters in MySQL's columns). */
const MAX_STRING = 255
const MAX_ATTRIBUTES = 60_000

const plain = (...names: string[]): AttributeTree => Object.fromEntries(names.map((name) => [name, null]))
const MULTI_SUB = plain("value", "display", "type", "primary")
const META = plain("resourceType", "created", "lastModified", "location", "version")

/** The User's attributes and sub-attributes (RFC 7643 §4.1, §4.3), what a PATCH path may name. */
export const USER_TREE: AttributeTree = {
  ...plain("id", "externalId", "schemas", "userName", "active", "password", ...SINGULAR_STRINGS),
  meta: META,
  name: plain("formatted", "familyName", "givenName", "middleName", "honorificPrefix", "honorificSuffix"),
  ...Object.fromEntries(MULTI_VALUED.map((name) => [name, MULTI_SUB])),
  addresses: plain("formatted", "streetAddress", "locality", "region", "postalCode", "country", "type", "primary"),
  groups: plain("value", "$ref", "display", "type"),
  [ENTERPRISE_USER_SCHEMA]: { ...plain("employeeNumber", "costCenter", "organization", "division", "department"), manager: plain("value", "$ref", "displayName") },
}

/** A PATCH path's segments in canonical case (patch.ts `PathResolver`). */
export const userPath = Object.assign((segments: readonly string[]) => resolveAttributePath(USER_TREE, segments, USER_SCHEMA), { extensions: [ENTERPRISE_USER_SCHEMA] as const })

/** The top-level attribute name in canonical case; an extension's URN as sent; undefined when unknown. */
export function userAttributeName(name: string): string | undefined {
  return canonicalName(name, USER_NAMES) ?? (/^urn:[a-z0-9][a-z0-9-]{0,31}:[\x21-\x7e]+$/i.test(name) && name.toLowerCase() !== USER_SCHEMA.toLowerCase() ? name : undefined)
}

function invalid(detail: string): ScimProblem {
  return new ScimProblem(400, detail, "invalidValue")
}

function text(value: unknown, name: string): string {
  if (typeof value !== "string" || !value.trim() || value.length > MAX_STRING) throw invalid(`${name} must be a non-empty string of at most ${MAX_STRING} characters`)
  return value
}

/** Multi-valued attributes: arrays of objects; their `primary` as a boolean (the dialects send "True"). */
function multiValued(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(`${name} must be an array`)
  return value.map((item) => {
    if (!isPlainObject(item)) throw invalid(`Each of ${name} must be an object`)
    if (item.primary === undefined || item.primary === null) return item
    const primary = booleanOf(item.primary)
    if (primary === undefined) throw invalid(`${name}.primary must be a boolean`)
    return { ...item, primary }
  })
}

/**
 * A User body (POST, PUT, or a patched resource) as provisioning's input. `id` (on PUT, PATCH) is
 * the resource's: a body naming another id is refused (`mutability`). Unassigned (null) attributes
 * are left out: PUT replaces, so what is not sent is cleared; `active` defaults to true.
 */
export function userFromScim(body: Record<string, unknown>, id?: string): ScimUserInput {
  if (body.schemas !== undefined && (!Array.isArray(body.schemas) || !body.schemas.some((schema) => typeof schema === "string" && schema.toLowerCase() === USER_SCHEMA.toLowerCase()))) {
    throw new ScimProblem(400, `schemas must include ${USER_SCHEMA}`, "invalidSyntax")
  }
  let userName: string | undefined
  let externalId: string | null = null
  let active = true
  const attributes: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body)) {
    const name = userAttributeName(key)
    if (!name) throw invalid(`${key} is not an attribute of a User`)
    if (name === "id" && value !== undefined && value !== null && id !== undefined && value !== id) throw new ScimProblem(400, "id cannot be changed", "mutability")
    if (DROPPED.has(name) || value === null || value === undefined) continue
    if (name === "userName") userName = text(value, "userName")
    else if (name === "externalId") externalId = text(value, "externalId")
    else if (name === "active") {
      const flag = booleanOf(value)
      if (flag === undefined) throw invalid("active must be a boolean")
      active = flag
    } else if (name === "name" || name.startsWith("urn:")) {
      if (!isPlainObject(value)) throw invalid(`${name} must be an object`)
      attributes[name] = value
    } else if ((MULTI_VALUED as readonly string[]).includes(name)) attributes[name] = multiValued(value, name)
    else attributes[name] = text(value, name)
  }
  if (userName === undefined) throw invalid("userName is required")
  // What every adapter stores (MySQL: a TEXT column of 64 KB for the attributes).
  if (JSON.stringify(attributes).length > MAX_ATTRIBUTES) throw invalid(`The user's attributes are over ${MAX_ATTRIBUTES} characters of JSON`)
  return { userName, externalId, active, attributes }
}

/** The resource's schemas: the core one, and each extension it holds. */
function schemasOf(attributes: Record<string, unknown>): string[] {
  return [USER_SCHEMA, ...Object.keys(attributes).filter((key) => key.startsWith("urn:"))]
}

/** The SCIM form of a provisioned user; `location` is its URL. */
export function userToScim(user: AdapterScimUser, location: string): Record<string, unknown> {
  const attributes = user.attributes ?? {}
  return {
    schemas: schemasOf(attributes),
    id: user.userId,
    ...(user.externalId !== null && { externalId: user.externalId }),
    userName: user.userName,
    active: user.active,
    ...attributes,
    meta: { resourceType: "User", created: new Date(user.createdAt).toISOString(), lastModified: new Date(user.updatedAt).toISOString(), location, version: versionOf(user.updatedAt) },
  }
}
