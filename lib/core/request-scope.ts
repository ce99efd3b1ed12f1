/**
 * The request a log line or an audit record belongs to: its id, client address and user agent,
 * carried through asynchronous calls with AsyncLocalStorage (entered by request-tracking.ts, read
 * by the logger and by capabilities). Only when someone listens (an `events.audit` callback, a
 * `logger`, or `logLevel: "verbose"`): on Node 20, once an AsyncLocalStorage is entered every
 * promise in the process costs more (measured about 3 times the cost of a bare await), which an
 * app that reads none of it should not pay.
 */
import { AsyncLocalStorage } from "node:async_hooks"

export interface RequestScope {
  readonly requestId: string
  readonly ip?: string
  readonly userAgent?: string
}

const storage = new AsyncLocalStorage<RequestScope>()

/** The request being handled, when Gatehouse tracks it (see above); else undefined. */
export function currentScope(): RequestScope | undefined {
  return storage.getStore()
}

/** Runs `work` as the request `scope`. */
export function runInScope<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work)
}

/** The user agent as recorded: at most 512 characters. */
export function userAgentOf(header: string | undefined): string | undefined {
  return header ? header.slice(0, 512) : undefined
}
