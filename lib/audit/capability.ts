/**
 * The audit trail as a capability (lib/core/capability.ts): one record per security-relevant
 * event or refused request, handed to `events.audit` with the request's id and client. It has no
 * route of its own.
 */
import type { Capability } from "../core/capability.js"

export const audit: Capability = {
  name: "audit",
}
