/**
 * What the audit trail (lib/audit/) records of organizations: its record types (they join
 * `AuditType` from capability.ts) and the record each `organization` event becomes (built only
 * when `events.audit` is set): the event's type, the actor as `userId`, the organization's id,
 * never an address (the event itself has the invited `email`; its record does not).
 */
import type { AuditEvents } from "../core/capability.js"

/** In the order of the README's table. */
export const ORGANIZATION_AUDIT_TYPES = [
  "organization.created",
  "organization.updated",
  "organization.deleted",
  "member.added",
  "member.removed",
  "member.left",
  "member.role_changed",
  "ownership.transferred",
  "invitation.sent",
  "invitation.resent",
  "invitation.revoked",
  "invitation.accepted",
  "invitation.declined",
  "role.updated",
  "role.deleted",
] as const

export const ORGANIZATION_AUDIT_EVENTS: AuditEvents = {
  // Never the invited address: audit records hold identifiers only (docs/audit.md).
  organization: ({ type, organizationId, actorId, userId, role, previousRole, invitationId }) => ({
    type,
    userId: actorId,
    organizationId,
    memberId: userId,
    role,
    previousRole,
    invitationId,
  }),
}
