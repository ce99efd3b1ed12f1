/**
 * What follows every organization change (issue #27): the `organization` event (and so the audit
 * record, lib/organizations/audit.ts), and the affected users' memberships dropped from every
 * process's cache (memberships.ts), so the next request of each sees the change.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import { membershipsChanged } from "./memberships.js"
import type { OrganizationEvent } from "./events.js"

export async function changed(config: ResolvedConfig, event: OrganizationEvent, affected: readonly string[] = []): Promise<void> {
  if (affected.length) await membershipsChanged(config, [...new Set(affected)])
  await fireEvent(config, "organization", event)
}
