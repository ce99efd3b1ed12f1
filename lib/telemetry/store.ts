/**
 * The shared state store (Redis), traced: a `gatehouse.store.<operation>` span per call. The
 * in-process memory store is not traced (no round trip to show). Wrapped once, when the
 * configuration is resolved, outside the guard (so a call answered by the fallback shows too).
 * Keys are not recorded: some hold user ids.
 */
import { MemoryStore } from "../state/memory.js"
import type { StateStore } from "../state/types.js"
import type { Telemetry } from "./instruments.js"
import { ATTR } from "./names.js"
import { SpanKind, traced, type TracedCall } from "./span.js"

const OPERATIONS = ["hit", "reset", "claim", "putValue", "getValue", "putSession", "listSessions", "removeSessions", "revokeSid", "revokeUser", "revocation", "publish", "subscribe"] as const

export function traceStore(store: StateStore, telemetry: Telemetry | undefined, original: unknown): StateStore {
  if (!telemetry || original === undefined || original instanceof MemoryStore) return store
  const wrapped: Record<string, unknown> = {}
  for (const operation of OPERATIONS) {
    const fn = (store as unknown as Record<string, ((...args: unknown[]) => Promise<unknown>) | undefined>)[operation]
    if (typeof fn !== "function") continue
    const call: TracedCall = { name: `gatehouse.store.${operation}`, kind: SpanKind.CLIENT, attributes: Object.freeze({ [ATTR.storeOperation]: operation }) }
    wrapped[operation] = (...args: unknown[]) => traced(telemetry, call, () => fn.apply(store, args))
  }
  return wrapped as unknown as StateStore
}
