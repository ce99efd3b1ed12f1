/**
 * The organization checks of `requireAuth(config, { permission, role })` and `hasPermission(req,
 * permission)` (issue #27). They read `auth.organization`, which the session read fills from this
 * process's membership cache: a check is a Set lookup, no round trip. A permission is
 * `resource:action`; a list needs all of them; a role list any one of them; a function decides
 * itself (it may return a promise).
 */
import { InvalidOption } from "../errors.js"
import type { Session } from "../types.js"
import type { ResolvedOrganizations } from "./settings.js"
import type { ActiveOrganization } from "./memberships.js"

export type PermissionRule = string | readonly string[] | ((organization: ActiveOrganization) => boolean | Promise<boolean>)

export interface OrganizationRule {
  permission?: PermissionRule
  role?: string | readonly string[]
}

export type Verdict = "allowed" | "OrganizationRequired" | "PermissionDenied"

const sets = new WeakMap<readonly string[], ReadonlySet<string>>()

function setOf(permissions: readonly string[]): ReadonlySet<string> {
  let set = sets.get(permissions)
  if (!set) {
    set = new Set(permissions)
    sets.set(permissions, set)
  }
  return set
}

/** True when the organization's permissions include `permission` (every one of a list). */
export function holds(organization: ActiveOrganization | null | undefined, permission: string | readonly string[]): boolean {
  if (!organization || !Array.isArray(organization.permissions)) return false
  const set = setOf(organization.permissions)
  if (typeof permission === "string") return set.has(permission)
  for (const each of permission) if (!set.has(each)) return false
  return permission.length > 0
}

/** Checks the rule's shape once, when the middleware is made. */
export function checkRule(rule: OrganizationRule): void {
  const { permission, role } = rule
  const names = (value: unknown) => typeof value === "string" ? value.length > 0 : Array.isArray(value) && value.length > 0 && value.every((each) => typeof each === "string" && each.length > 0)
  if (permission !== undefined && typeof permission !== "function" && !names(permission)) {
    throw new InvalidOption(`requireAuth: permission must be "resource:action", a list of them, or a function of the organization (got ${JSON.stringify(permission)})`)
  }
  if (typeof permission === "string" || Array.isArray(permission)) {
    for (const each of typeof permission === "string" ? [permission] : (permission as string[])) {
      if (!/^[^:\s]+:[^:\s]+$/.test(each)) throw new InvalidOption(`requireAuth: ${JSON.stringify(each)} is not a permission ("resource:action")`)
    }
  }
  if (role !== undefined && !names(role)) throw new InvalidOption(`requireAuth: role must be a role name or a list of them (got ${JSON.stringify(role)})`)
}

/** Once per configuration: the rule's permissions are ones the configuration declares (a typo would refuse everyone). */
export function checkRuleAgainst(rule: OrganizationRule, settings: ResolvedOrganizations | undefined): void {
  if (!settings) throw new InvalidOption("requireAuth: permission and role need the organizations option")
  const { permission, role } = rule
  if (typeof permission === "string" || Array.isArray(permission)) {
    const known = new Set(settings.book.universe)
    for (const each of typeof permission === "string" ? [permission] : (permission as string[])) {
      if (!known.has(each)) throw new InvalidOption(`requireAuth: the permission ${each} is not declared by any role (organizations.roles or organizations.permissions)`)
    }
  }
  if (role !== undefined && !settings.customRoles) {
    for (const each of typeof role === "string" ? [role] : role) {
      if (!settings.book.roles.has(each)) throw new InvalidOption(`requireAuth: the role ${each} is not a configured role`)
    }
  }
}

/** What the rule says of this session (signed in: the caller checked). */
export function judge(session: Session, rule: OrganizationRule): Verdict | Promise<Verdict> {
  const organization = session.organization
  if (!organization) return "OrganizationRequired"
  const { permission, role } = rule
  if (role !== undefined && !(typeof role === "string" ? organization.role === role : role.includes(organization.role))) return "PermissionDenied"
  if (permission === undefined) return "allowed"
  if (typeof permission !== "function") return holds(organization, permission) ? "allowed" : "PermissionDenied"
  try {
    const answer = permission(organization)
    if (typeof answer === "boolean") return answer ? "allowed" : "PermissionDenied"
    return Promise.resolve(answer).then(
      (yes) => (yes ? "allowed" : "PermissionDenied"),
      () => "PermissionDenied",
    )
  } catch {
    return "PermissionDenied"
  }
}
