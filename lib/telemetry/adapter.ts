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

const TRACED: ReadonlySet<string> = new Set(ADAPTER_METHODS)

export function traceAdapter(adapter: TransactionalAdapter, telemetry: Telemetry): TransactionalAdapter {
  const source = adapter as unknown as Record<string, unknown>
  const wrapped: Record<string, unknown> = {}
  // Whatever else the wrapped adapter carries is kept as it is; its adapter methods are traced.
  for (const name of Object.keys(source)) {
    const fn = source[name]
    if (typeof fn !== "function" || !TRACED.has(name)) {
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
