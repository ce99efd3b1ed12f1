/**
 * The `admin` option (issue #30), checked and resolved once with the configuration. Off unless
 * given. Who is an admin: listed user ids, a role or permission in one named staff organization,
 * a callback, or any of these together; at least one is needed. A mistake throws `InvalidOption`
 * naming the option; an adapter without the storage methods throws `MissingAdapterMethods`.
 */
import { InvalidOption, MissingAdapter, MissingAdapterMethods } from "../errors.js"
import type { Adapter } from "../adapters.js"
import type { AuthConfig } from "../types.js"
import { ADMIN_ADAPTER_METHODS } from "./adapter.js"
import type { AdminOptions, ResolvedAdmin, ResolvedImpersonation } from "./settings.js"

export type { AdminOptions, ImpersonationOptions, ResolvedAdmin } from "./settings.js"

const HOUR = 60 * 60

/** What the admin tools read and write beside their own methods. */
const USED_METHODS = ["getUser", "getUserByEmail", "createUser", "updateUser", "deleteUser"] as const

function assertStorage(adapter: Adapter | undefined): void {
  if (!adapter) throw new MissingAdapter("admin needs an adapter (users are listed, banned and changed there)")
  const missing = [...USED_METHODS, ...ADMIN_ADAPTER_METHODS].filter((method) => typeof adapter[method] !== "function")
  if (missing.length) throw new MissingAdapterMethods(`admin needs these adapter methods, which the adapter lacks: ${missing.join(", ")}`)
}

function nonEmptyString(path: string, value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== "string" || !value.trim()) throw new InvalidOption(`${path} must be a non-empty string (got ${JSON.stringify(value)})`)
  return value
}

function resolveImpersonation(value: unknown): ResolvedImpersonation | null {
  if (value === false) return null
  if (value !== undefined && value !== true && (!value || typeof value !== "object" || Array.isArray(value))) {
    throw new InvalidOption(`admin.impersonation must be true, false or { maxAge, admins } (got ${JSON.stringify(value)})`)
  }
  const given = (value === undefined || value === true ? {} : value) as { maxAge?: unknown; admins?: unknown }
  const { maxAge = HOUR, admins = false } = given
  if (typeof maxAge !== "number" || !Number.isInteger(maxAge) || maxAge < 60 || maxAge > 12 * HOUR) {
    throw new InvalidOption(`admin.impersonation.maxAge must be a whole number of seconds from 60 to 12 hours (got ${JSON.stringify(maxAge)})`)
  }
  if (typeof admins !== "boolean") throw new InvalidOption(`admin.impersonation.admins must be a boolean (got ${JSON.stringify(admins)})`)
  return Object.freeze({ maxAge, admins })
}

export function resolveAdmin(config: AuthConfig, adapter: Adapter | undefined): ResolvedAdmin | undefined {
  const option: unknown = config.admin
  if (option === undefined || option === false) return undefined
  if (!option || typeof option !== "object" || Array.isArray(option)) {
    throw new InvalidOption(`admin must be an object such as { userIds: ["..."] } or { organization: "staff", role: "admin" } (got ${JSON.stringify(option)})`)
  }
  const given = option as AdminOptions
  const { userIds = [], isAdmin, pageSize = 25, auditRecords } = given
  if (!Array.isArray(userIds) || userIds.some((id) => typeof id !== "string" || !id)) throw new InvalidOption(`admin.userIds must be a list of user ids (got ${JSON.stringify(userIds)})`)
  const organization = nonEmptyString("admin.organization", given.organization)
  const role = nonEmptyString("admin.role", given.role)
  const permission = nonEmptyString("admin.permission", given.permission)
  if ((role || permission) && !organization) {
    throw new InvalidOption("admin.role and admin.permission need admin.organization (the staff organization's id or slug): held in any organization, they would make every organization's owner an admin")
  }
  if (organization && !role && !permission) throw new InvalidOption("admin.organization needs admin.role or admin.permission (which of its members are admins)")
  if (organization && !config.organizations) throw new InvalidOption("admin.organization needs the organizations option on")
  if (isAdmin !== undefined && typeof isAdmin !== "function") throw new InvalidOption("admin.isAdmin must be a function of { user }")
  if (auditRecords !== undefined && typeof auditRecords !== "function") throw new InvalidOption("admin.auditRecords must be a function of { userId, limit }")
  if (!userIds.length && !organization && !isAdmin) {
    throw new InvalidOption("admin needs a way to know its admins: userIds, organization with role or permission, or isAdmin")
  }
  if (typeof pageSize !== "number" || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
    throw new InvalidOption(`admin.pageSize must be a whole number from 1 to 100 (got ${JSON.stringify(pageSize)})`)
  }
  assertStorage(adapter)
  return Object.freeze({
    userIds: new Set(userIds),
    organization,
    role,
    permission,
    isAdmin,
    impersonation: resolveImpersonation(given.impersonation),
    pageSize,
    auditRecords,
  })
}
