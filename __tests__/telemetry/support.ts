/**
 * The OpenTelemetry SDK as an app would run it, in memory: a tracer provider whose spans land in
 * an InMemorySpanExporter, a meter provider read on demand, and the AsyncLocalStorage context
 * manager (what the Node SDK registers) so spans find their parents across awaits. Handed to
 * Gatehouse through the `telemetry` option; the global providers stay untouched.
 */
import { context, trace, type Attributes, type MeterProvider as ApiMeterProvider } from "@opentelemetry/api"
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks"
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base"
import { AggregationTemporality, MeterProvider, MetricReader, type DataPoint, type Histogram } from "@opentelemetry/sdk-metrics"

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE })
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

export interface Point {
  attributes: Attributes
  value: number | Histogram
}

export interface Telemetry {
  exporter: InMemorySpanExporter
  tracerProvider: BasicTracerProvider
  meterProvider: MeterProvider
  /** The `telemetry` option for Gatehouse. */
  option: { tracerProvider: BasicTracerProvider; meterProvider: ApiMeterProvider }
  spans(): ReadableSpan[]
  /** Every span named `name` (in the order they ended). */
  named(name: string): ReadableSpan[]
  /** The one span named `name` (fails when there are none or several). */
  one(name: string): ReadableSpan
  /** The metric's data points (cumulative), by name; empty when nothing was recorded. */
  points(name: string): Promise<Point[]>
  /** The sum of a counter's points whose attributes include `match`. */
  count(name: string, match?: Attributes): Promise<number>
  reset(): void
  close(): Promise<void>
}

let contextManager: AsyncLocalStorageContextManager | undefined

/** Registers the AsyncLocalStorage context manager once per test file (the API keeps the first). */
export function useContextManager(): void {
  if (contextManager) return
  contextManager = new AsyncLocalStorageContextManager().enable()
  context.setGlobalContextManager(contextManager)
}

export function startTelemetry(): Telemetry {
  useContextManager()
  const exporter = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const reader = new TestReader()
  const meterProvider = new MeterProvider({ readers: [reader] })
  const points = async (name: string): Promise<Point[]> => {
    const { resourceMetrics } = await reader.collect()
    const found: Point[] = []
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        if (metric.descriptor.name !== name) continue
        for (const point of metric.dataPoints as DataPoint<number | Histogram>[]) found.push({ attributes: point.attributes, value: point.value })
      }
    }
    return found
  }
  const named = (name: string) => exporter.getFinishedSpans().filter((span) => span.name === name)
  return {
    exporter,
    tracerProvider,
    meterProvider,
    option: { tracerProvider, meterProvider },
    spans: () => exporter.getFinishedSpans(),
    named,
    one(name) {
      const spans = named(name)
      if (spans.length !== 1) throw new Error(`${spans.length} spans named ${name}; all: ${exporter.getFinishedSpans().map((span) => span.name).join(", ")}`)
      return spans[0] as ReadableSpan
    },
    points,
    async count(name, match = {}) {
      const matching = (await points(name)).filter((point) => Object.entries(match).every(([key, value]) => point.attributes[key] === value))
      return matching.reduce((sum, point) => sum + (typeof point.value === "number" ? point.value : point.value.count), 0)
    },
    reset: () => exporter.reset(),
    close: async () => {
      await tracerProvider.shutdown()
      await meterProvider.shutdown()
    },
  }
}

/** The span's parent span id (SDK 2.x keeps it in `parentSpanContext`). */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId
}

export function idOf(span: ReadableSpan): string {
  return span.spanContext().spanId
}

/** The spans whose parent is `parent`. */
export function childrenOf(all: ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return all.filter((span) => parentOf(span) === idOf(parent))
}

/** Everything a span exporter would ship, as one string: names, attributes, events, status, links. */
export function exported(spans: ReadableSpan[], metricPoints: Point[] = []): string {
  return JSON.stringify([
    spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links, resource: span.resource.attributes })),
    metricPoints.map((point) => point.attributes),
  ])
}

/** Every data point of every metric Gatehouse defines, for a secrets check. */
export async function allPoints(telemetry: Telemetry): Promise<Point[]> {
  const names = ["gatehouse.signin.attempts", "gatehouse.signout.requests", "gatehouse.session.reads", "gatehouse.rate_limit.refusals", "gatehouse.session.revocations", "gatehouse.token.refreshes", "gatehouse.provider.request.duration", "gatehouse.adapter.operation.duration"]
  return (await Promise.all(names.map((name) => telemetry.points(name)))).flat()
}

/** Fails naming the secret when any exported span or metric attribute contains one of `secrets`. */
export function expectNoSecrets(text: string, secrets: Record<string, string | undefined>): void {
  for (const [what, value] of Object.entries(secrets)) {
    if (!value) throw new Error(`no value for the secret "${what}": the test did not capture it`)
    if (text.includes(value)) throw new Error(`the exported telemetry contains the ${what} (${value.slice(0, 12)}…)`)
  }
}

export { trace, context }
