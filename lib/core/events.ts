/**
 * Events are audit hooks: awaited so they see a consistent order, but a failing one is logged and
 * never changes the outcome of the request. With `events.audit`, each event that matters for
 * security also becomes an audit record (lib/audit/from-events.ts); `audit` overrides fields of
 * that record (a back-channel revocation says so).
 */
import { EventError } from "../errors.js"
import { auditEvent } from "../audit/from-events.js"
import type { EventCallbacks } from "../types.js"
import type { ResolvedConfig } from "./config/resolve.js"

export async function fireEvent<Name extends keyof EventCallbacks>(
  config: ResolvedConfig,
  name: Name,
  message: Parameters<NonNullable<EventCallbacks[Name]>>[0],
  audit?: Record<string, unknown>,
): Promise<void> {
  if (config.events.audit) auditEvent(config, name, message, audit)
  const handler = config.events[name] as ((message: unknown) => unknown) | undefined
  if (!handler) return
  try {
    await handler(message)
  } catch (error) {
    config.logger.error(new EventError(`The ${name} event handler threw; the request went on`, { cause: { err: error } }))
  }
}
