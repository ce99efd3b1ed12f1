/**
 * What the audit trail (lib/audit/) records of the admin tools (issue #30): one record per admin
 * action, naming the admin (`adminId`) and the user acted on (`userId`), never an address, a
 * reason text or a token (the `admin` event has the ban's reason; its record has only whether
 * one was given). A refused admin request is `admin.refused` with its reason (errors.ts type).
 */
import type { AuditEvents } from "../core/capability.js"

/** In the order of the README's table. */
export const ADMIN_AUDIT_TYPES = [
  "admin.user_created",
  "admin.user_updated",
  "admin.user_banned",
  "admin.user_unbanned",
  "admin.sessions_revoked",
  "admin.two_factor_removed",
  "admin.password_reset_sent",
  "admin.user_deleted",
  "admin.impersonation_started",
  "admin.impersonation_stopped",
  "admin.refused",
] as const

export const ADMIN_AUDIT_EVENTS: AuditEvents = {
  admin: ({ type, adminId, userId, expires, reason, fields }) => ({
    type,
    userId,
    adminId: adminId ?? undefined,
    expires,
    withReason: reason === undefined ? undefined : reason !== null,
    fields,
  }),
}
