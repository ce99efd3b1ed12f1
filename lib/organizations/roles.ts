/**
 * Roles and permissions (issue #27). A permission is `resource:action` (`project:write`). The
 * built-in roles: `owner` holds every permission there is; `admin` every one but deleting the
 * organization; `member` none of the organization's own. The configuration adds permissions to
 * these (`roles: { member: { project: ["read"] } }`) and declares new roles; an organization may
 * define its own roles (with `customRoles`) from the permissions the configuration declares.
 *
 * Everything here is computed once per configuration (and once per organization's own roles): a
 * role's permissions are one frozen list, and a check is a lookup in a Set.
 */
import type { RolePermissions } from "./adapter.js"

/** The permissions Gatehouse's own organization actions check. */
export const BUILT_IN_PERMISSIONS = [
  "organization:update",
  "organization:delete",
  "member:update",
  "member:remove",
  "invitation:create",
  "invitation:revoke",
  "role:update",
] as const

export const BUILT_IN_ROLES = ["owner", "admin", "member"] as const

const ADMIN_PERMISSIONS: readonly string[] = BUILT_IN_PERMISSIONS.filter((permission) => permission !== "organization:delete")

/** A role's permissions, as a frozen list (for `auth.organization.permissions`) and a Set (for checks). */
export interface RoleGrant {
  readonly role: string
  readonly permissions: readonly string[]
  readonly set: ReadonlySet<string>
}

export interface RoleBook {
  /** Every permission any role may hold (the built-ins and the configured ones), sorted. */
  readonly universe: readonly string[]
  /** The configured roles (built-ins included), by name. */
  readonly roles: ReadonlyMap<string, RoleGrant>
}

const PART = /^[a-z0-9][a-z0-9_.-]{0,63}$/i
export const ROLE_NAME = /^[a-z][a-z0-9_-]{0,31}$/

/** `{ project: ["read"] }` -> `["project:read"]`; null when the shape is wrong. */
export function flatten(permissions: unknown): string[] | null {
  if (!permissions || typeof permissions !== "object" || Array.isArray(permissions)) return null
  const out: string[] = []
  for (const [resource, actions] of Object.entries(permissions as Record<string, unknown>)) {
    if (!PART.test(resource) || !Array.isArray(actions)) return null
    for (const action of actions) {
      if (typeof action !== "string" || !PART.test(action)) return null
      out.push(`${resource}:${action}`)
    }
  }
  return out
}

/** `["project:read", "project:write"]` -> `{ project: ["read", "write"] }`. */
export function group(permissions: readonly string[]): RolePermissions {
  const out: RolePermissions = {}
  for (const permission of permissions) {
    const at = permission.indexOf(":")
    const resource = permission.slice(0, at)
    ;(out[resource] ??= []).push(permission.slice(at + 1))
  }
  return out
}

export function grant(role: string, permissions: Iterable<string>): RoleGrant {
  const list = Object.freeze([...new Set(permissions)].sort())
  return Object.freeze({ role, permissions: list, set: new Set(list) })
}

/**
 * The configured role book. `roles`: the configuration's (already checked: names and shapes);
 * `extra`: permissions declared for the organizations' own roles.
 */
export function roleBook(roles: Readonly<Record<string, readonly string[]>>, extra: readonly string[]): RoleBook {
  const universe = new Set<string>([...BUILT_IN_PERMISSIONS, ...extra])
  for (const list of Object.values(roles)) for (const permission of list) universe.add(permission)
  const sorted = Object.freeze([...universe].sort())
  const book = new Map<string, RoleGrant>()
  book.set("owner", grant("owner", sorted))
  book.set("admin", grant("admin", [...ADMIN_PERMISSIONS, ...(roles.admin ?? [])]))
  book.set("member", grant("member", roles.member ?? []))
  for (const [name, list] of Object.entries(roles)) if (!book.has(name)) book.set(name, grant(name, list))
  return Object.freeze({ universe: sorted, roles: book })
}

/** Memo of an organization's own roles, keyed by the stored object (a new read is a new object). */
const ownRoles = new WeakMap<object, ReadonlyMap<string, RoleGrant>>()

/**
 * The grant of `role` in an organization: a configured role, else one the organization defines
 * (only its permissions the configuration declares count). Undefined for an unknown role.
 */
export function grantOf(book: RoleBook, role: string, orgRoles?: Record<string, RolePermissions> | null, custom = false): RoleGrant | undefined {
  const configured = book.roles.get(role)
  if (configured) return configured
  if (!custom || !orgRoles) return undefined
  let own = ownRoles.get(orgRoles)
  if (!own) {
    const made = new Map<string, RoleGrant>()
    const allowed = new Set(book.universe)
    for (const [name, permissions] of Object.entries(orgRoles)) {
      if (book.roles.has(name)) continue
      made.set(name, grant(name, (flatten(permissions) ?? []).filter((permission) => allowed.has(permission))))
    }
    own = made
    ownRoles.set(orgRoles, own)
  }
  return own.get(role)
}

/** True when every permission of `wanted` is in `held` (a role may only hand out what its holder has). */
export function within(wanted: RoleGrant, held: RoleGrant): boolean {
  for (const permission of wanted.permissions) if (!held.set.has(permission)) return false
  return true
}
