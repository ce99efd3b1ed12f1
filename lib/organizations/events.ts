/**
 * What the `organization` event reports (declared on `EventCallbacks` in capability.ts; a file of
 * its own so the code firing it and the capability object both read it). One event for every
 * change, told apart by `type`, which is also the audit record's type.
 */
import type { ORGANIZATION_AUDIT_TYPES } from "./audit.js"

export type OrganizationEventType = (typeof ORGANIZATION_AUDIT_TYPES)[number]

export interface OrganizationEvent {
  type: OrganizationEventType
  organizationId: string
  /** Who made the change (absent: the app's server code). */
  actorId?: string
  /** The member it is about (added, removed, role changed, new owner). */
  userId?: string
  role?: string
  previousRole?: string
  /** An invitation's address and id. */
  email?: string
  invitationId?: string
}
