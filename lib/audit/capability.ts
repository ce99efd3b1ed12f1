/**
 * The audit trail as a capability (lib/core/capability.ts): one record per security-relevant
 * event or refused request, handed to `events.audit` with the request's id and client (the
 * request scope, lib/core/request-scope.ts). It has no route of its own: it is told of events and
 * of what actions throw; other capabilities record their own refusals through emit.ts.
 */
import type { Capability } from "../core/capability.js"
import { auditActionFailure } from "./failure.js"
import { auditEvent } from "./from-events.js"

export const audit: Capability = {
  name: "audit",
  // Each returns at once without `events.audit`.
  onEvent: auditEvent,
  onActionError: auditActionFailure,
}
