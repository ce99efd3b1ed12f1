/**
 * What the `admin` event reports (declared on `EventCallbacks` in capability.ts): one event for
 * every admin action, told apart by `type`, which is also the audit record's type.
 */
import type { ADMIN_AUDIT_TYPES } from "./audit.js"

export type AdminEventType = Exclude<(typeof ADMIN_AUDIT_TYPES)[number], "admin.refused">

export interface AdminEvent {
  type: AdminEventType
  /** The admin who acted (null: the app's server code). */
  adminId: string | null
  /** The user acted on. */
  userId: string
  /** A ban's reason (null: none given). */
  reason?: string | null
  /** A ban's or an impersonation's end (ISO 8601; null: a ban until lifted). */
  expires?: string | null
  /** The fields an update changed. */
  fields?: string[]
}
