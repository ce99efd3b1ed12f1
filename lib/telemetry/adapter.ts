/**
 * The adapter, traced: a `gatehouse.adapter.<method>` span per call (a child of the action's span)
 * and its duration in `gatehouse.adapter.operation.duration`. Wrapped once, when the configuration
 * is resolved, around the adapter the core already wrapped (so failures are AdapterErrors here).
 */
import type { Adapter } from "../adapters.js"
import type { TransactionalAdapter } from "../core/adapter.js"
import type { Telemetry } from "./instruments.js"
import { ATTR } from "./names.js"
import { SpanKind, traced, type TracedCall } from "./span.js"

export function traceAdapter(adapter: TransactionalAdapter, telemetry: Telemetry): TransactionalAdapter {
  const source = adapter as unknown as Record<string, unknown>
  const wrapped: Record<string, unknown> = {}
  // The core's wrapper (lib/core/adapter.ts) kept only the adapter methods Gatehouse calls, the
  // core's and the capabilities': each is traced; anything else is kept as it is.
  for (const name of Object.keys(source)) {
    const fn = source[name]
    if (typeof fn !== "function" || name === "transaction") {
      wrapped[name] = typeof fn === "function" && name !== "transaction" ? fn.bind(adapter) : fn
      continue
    }
    const attributes = Object.freeze({ [ATTR.adapterMethod]: name })
    const call: TracedCall = { name: `gatehouse.adapter.${name}`, kind: SpanKind.CLIENT, attributes, histogram: telemetry.adapterDuration, metricAttributes: attributes }
    wrapped[name] = (...args: unknown[]) => traced(telemetry, call, () => (fn as (...args: unknown[]) => Promise<unknown>).apply(adapter, args))
  }
  const transaction = adapter.transaction
  if (typeof transaction === "function") {
    const attributes = Object.freeze({ [ATTR.adapterMethod]: "transaction" })
    const call: TracedCall = { name: "gatehouse.adapter.transaction", kind: SpanKind.CLIENT, attributes, histogram: telemetry.adapterDuration, metricAttributes: attributes }
    wrapped.transaction = <T>(work: (tx: Adapter) => Promise<T>) =>
      traced(telemetry, call, () => transaction.call(adapter, (tx: Adapter) => work(traceAdapter(tx, telemetry))) as Promise<T>)
  }
  return wrapped as TransactionalAdapter
}
