/**
 * One traced call: a span that is the active one while `work` runs (so spans made inside, such as
 * an HTTP client span of `@opentelemetry/instrumentation-http`, are its children), ended when the
 * call settles, with `error.type` and an error status on failure. Error messages are not recorded:
 * they can hold what must never reach a trace (a database error quoting an address or a token).
 */
import { SpanKind, SpanStatusCode, type Attributes, type Histogram, type Span } from "@opentelemetry/api"
import type { Telemetry } from "./instruments.js"
import { ATTR, errorType } from "./names.js"

export { SpanKind }

export interface TracedCall {
  name: string
  kind: SpanKind
  attributes: Attributes
  /** Records the call's duration (seconds) with these attributes (plus `error.type` on failure). */
  histogram?: Histogram
  metricAttributes?: Attributes
  /** Looks at a result: a failure type for a result that is one (an HTTP 5xx), else undefined. */
  inspect?: (result: never, span: Span) => string | undefined
}

export function markFailed(span: Span, type: string): void {
  span.setAttribute(ATTR.errorType, type)
  span.setStatus({ code: SpanStatusCode.ERROR, message: type })
}

export function traced<T>(telemetry: Telemetry, call: TracedCall, work: () => Promise<T>): Promise<T> {
  const start = call.histogram ? performance.now() : 0
  return telemetry.tracer.startActiveSpan(call.name, { kind: call.kind, attributes: call.attributes }, async (span) => {
    let failure: string | undefined
    try {
      const result = await work()
      failure = call.inspect?.(result as never, span)
      if (failure) markFailed(span, failure)
      return result
    } catch (error) {
      failure = errorType(error)
      markFailed(span, failure)
      throw error
    } finally {
      span.end()
      if (call.histogram) {
        const attributes = failure ? { ...call.metricAttributes, [ATTR.errorType]: failure } : call.metricAttributes
        call.histogram.record((performance.now() - start) / 1000, attributes)
      }
    }
  })
}
