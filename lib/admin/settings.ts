/**
 * The types of the `admin` option (issue #30), as given and as resolved (options.ts resolves it).
 * A file of its own, with no code, so the modules the resolved option points to can name it
 * without an import cycle.
 */
import type { Awaitable } from "../base-types.js"
import type { AdapterUser } from "../adapters.js"
import type { AuditRecord } from "../audit/types.js"

export interface ImpersonationOptions {
  /** How long an impersonation lasts at most, in seconds (default 1 hour; 60 seconds to 12 hours). */
  maxAge?: number
  /** Whether admins may impersonate other admins (default false). */
  admins?: boolean
}

export interface AdminOptions {
  /** These users are admins. */
  userIds?: readonly string[]
  /**
   * The staff organization (its id or slug) whose `role` or `permission` makes an admin. Needed
   * with either: a role or permission held in any organization would make every organization's
   * owner (anyone who may create one) an admin of the whole app.
   */
  organization?: string
  /** Members of `organization` with this role are admins. */
  role?: string
  /** Members of `organization` whose role grants this permission are admins. */
  permission?: string
  /** Decides for any user (true: an admin); combined with the others by "any of them". */
  isAdmin?: (params: { user: AdapterUser }) => Awaitable<boolean>
  /** Impersonation: on (true, default) with its defaults, off (false), or its options. */
  impersonation?: boolean | ImpersonationOptions
  /** Users per page of the user list (default 25, at most 100). */
  pageSize?: number
  /** The user's recent audit records, when the app stores them (newest first), for the user view. */
  auditRecords?: (params: { userId: string; limit: number }) => Awaitable<readonly AuditRecord[]>
}

export interface ResolvedImpersonation {
  readonly maxAge: number
  readonly admins: boolean
}

export interface ResolvedAdmin {
  readonly userIds: ReadonlySet<string>
  readonly organization?: string
  readonly role?: string
  readonly permission?: string
  readonly isAdmin?: (params: { user: AdapterUser }) => Awaitable<boolean>
  /** null: impersonation is off. */
  readonly impersonation: ResolvedImpersonation | null
  readonly pageSize: number
  readonly auditRecords?: (params: { userId: string; limit: number }) => Awaitable<readonly AuditRecord[]>
}
