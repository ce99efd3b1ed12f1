/**
 * The shared state store (Redis), traced: a `gatehouse.store.<operation>` span per call. The
 * in-process memory store is not traced (no round trip to show). Wrapped once, when the
 * configuration is resolved, outside the guard (so a call answered by the fallback shows too).
 * Keys are not recorded: some hold user ids.
 */
import { MemoryStore } from "../shared-store/memory.js"
import type { StateStore } from "../shared-store/types.js"
import type { Telemetry } from "./instruments.js"
import { ATTR } from "./names.js"
import { SpanKind, traced, type TracedCall } from "./span.js"

const OPERATIONS: ReadonlySet<string> = new Set(["hit", "reset", "claim", "putValue", "getValue", "putSession", "listSessions", "removeSessions", "revokeSid", "revokeUser", "revocation", "publish", "subscribe"])

export function traceStore(store: StateStore, telemetry: Telemetry | undefined, original: unknown): StateStore {
  if (!telemetry || original === undefined || original instanceof MemoryStore) return store
  const methods = store as unknown as Record<string, unknown>
  const wrapped: Record<string, unknown> = {}
  // Every method the store has is kept (bound); the known operations are traced.
  for (const name of Object.keys(methods)) {
    const fn = methods[name]
    if (typeof fn !== "function") continue
    if (!OPERATIONS.has(name)) {
      wrapped[name] = fn.bind(store)
      continue
    }
    const call: TracedCall = { name: `gatehouse.store.${name}`, kind: SpanKind.CLIENT, attributes: Object.freeze({ [ATTR.storeOperation]: name }) }
    wrapped[name] = (...args: unknown[]) => traced(telemetry, call, () => (fn as (...args: unknown[]) => Promise<unknown>).apply(store, args))
  }
  return wrapped as unknown as StateStore
}
