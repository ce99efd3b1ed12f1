/**
 * Handing a record to `events.audit`. Nothing happens without the callback (not even the record
 * is built). The callback runs in line but is never awaited: a promise it returns is left to
 * settle on its own, and a throw or a rejection is logged (EventError), so a slow or broken audit
 * sink neither delays nor changes any answer. Keep synchronous work in it short.
 */
import { EventError } from "../errors.js"
import type { LoggerInstance } from "../core/logger.js"
import { currentScope } from "../core/request-scope.js"
import type { AuditEntry } from "../core/capability.js"
import type { AuditCallback, AuditRecord } from "./types.js"

interface AuditTarget {
  readonly events: { readonly audit?: AuditCallback }
  readonly logger: LoggerInstance
}

function failed(config: AuditTarget, error: unknown): void {
  config.logger.error(new EventError("The audit callback failed; the request went on", { cause: { err: error } }))
}

export function audit(config: AuditTarget, input: AuditEntry): void {
  const callback = config.events.audit
  if (!callback) return
  const scope = currentScope()
  const record: AuditRecord = { time: new Date().toISOString(), type: input.type, outcome: input.outcome ?? "success" }
  const fields: Record<string, unknown> = { ...input, ip: input.ip ?? scope?.ip, userAgent: input.userAgent ?? scope?.userAgent, requestId: input.requestId ?? scope?.requestId }
  for (const key of Object.keys(fields)) {
    if (fields[key] !== undefined && !(key in record)) record[key] = fields[key]
  }
  try {
    const result = callback(record) as PromiseLike<unknown> | undefined
    if (result && typeof result.then === "function") result.then(undefined, (error: unknown) => failed(config, error))
  } catch (error) {
    failed(config, error)
  }
}

/** The stable type of an error, for `reason`. */
export function reasonOf(error: unknown): string {
  const type = (error as { type?: unknown } | null)?.type
  return typeof type === "string" ? type : "Error"
}
