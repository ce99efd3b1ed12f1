/**
 * Events are audit hooks: awaited so they see a consistent order, but a failing one is logged and
 * never changes the outcome of the request. Before the app's own handler, the capabilities that
 * listen (`onEvent`, lib/core/capability.ts) are told: with `events.audit`, each event that
 * matters for security becomes an audit record, the one the capability that fires it describes
 * (`auditEvents`, handed to the listeners); `audit` adds or overrides fields of that record (a
 * back-channel revocation says so).
 */
import { EventError } from "../errors.js"
import type { EventCallbacks } from "../types.js"
import type { AuditEvents, EventHook } from "./capability.js"
import type { ResolvedConfig } from "./config/resolved.js"

/**
 * The capabilities' `onEvent` hooks and what their events are recorded as (`auditEvents`), handed
 * over once by dispatch.ts, which reads the capability list (lib/capabilities.ts): this file cannot
 * import that list, as capabilities' own actions fire events (an import cycle). Empty until then,
 * and when no capability listens.
 */
let eventHooks: readonly EventHook[] = []
let auditEvents: AuditEvents = {}

export function setEventHooks(hooks: readonly EventHook[], records: AuditEvents): void {
  eventHooks = hooks
  auditEvents = records
}

export async function fireEvent<Name extends keyof EventCallbacks>(
  config: ResolvedConfig,
  name: Name,
  message: Parameters<NonNullable<EventCallbacks[Name]>>[0],
  audit?: Record<string, unknown>,
): Promise<void> {
  for (const hook of eventHooks) hook(config, name, message, audit, auditEvents[name])
  const handler = config.events[name] as ((message: unknown) => unknown) | undefined
  if (!handler) return
  try {
    await handler(message)
  } catch (error) {
    config.logger.error(new EventError(`The ${name} event handler threw; the request went on`, { cause: { err: error } }))
  }
}
