/**
 * The adapter, traced: a `gatehouse.adapter.<method>` span per call (a child of the action's span)
 * and its duration in `gatehouse.adapter.operation.duration`. Wrapped once, when the configuration
 * is resolved, around the adapter the core already wrapped (so failures are AdapterErrors here).
 */
import type { Adapter } from "../adapters.js"
import { ADAPTER_METHODS, type TransactionalAdapter } from "../core/adapter.js"
import type { Telemetry } from "./instruments.js"
import { ATTR } from "./names.js"
import { SpanKind, traced, type TracedCall } from "./span.js"

export function traceAdapter(adapter: TransactionalAdapter, telemetry: Telemetry): TransactionalAdapter {
  const wrapped: Record<string, unknown> = {}
  for (const method of ADAPTER_METHODS) {
    const fn = adapter[method] as ((...args: unknown[]) => Promise<unknown>) | undefined
    if (typeof fn !== "function") continue
    const attributes = Object.freeze({ [ATTR.adapterMethod]: method })
    const call: TracedCall = { name: `gatehouse.adapter.${method}`, kind: SpanKind.CLIENT, attributes, histogram: telemetry.adapterDuration, metricAttributes: attributes }
    wrapped[method] = (...args: unknown[]) => traced(telemetry, call, () => fn.apply(adapter, args))
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
