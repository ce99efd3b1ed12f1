/**
 * The audit trail as a capability (lib/core/capability.ts): one record per security-relevant
 * event or refused request, handed to `events.audit` with the request's id and client (the
 * request scope, lib/core/request-scope.ts). It has no route of its own: it is told of events and
 * of what actions throw; other capabilities record their own refusals through emit.ts. Its own
 * record types and events are the core's; each capability brings its own (`auditTypes`,
 * `auditEvents`), and the core hands the one of each event to `onEvent`.
 */
import type { Capability } from "../core/capability.js"
import { auditActionFailure } from "./failure.js"
import { CORE_AUDIT_EVENTS, auditEvent } from "./from-events.js"
import { CORE_AUDIT_TYPES } from "./types.js"

export const audit: Capability = {
  name: "audit",
  auditTypes: CORE_AUDIT_TYPES,
  auditEvents: CORE_AUDIT_EVENTS,
  // Each returns at once without `events.audit`.
  onEvent: auditEvent,
  onActionError: auditActionFailure,
}
