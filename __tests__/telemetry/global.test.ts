/**
 * The usual set-up: an SDK registered globally (NodeTracerProvider.register(), a global meter
 * provider) and Gatehouse without a `telemetry` option: its spans and metrics go there. (That its
 * action span is the child of @opentelemetry/instrumentation-http's server span is shown by the
 * observability example's test, in a process where the instrumentation can patch node:http.)
 */
import { jest } from "@jest/globals"
import { metrics } from "@opentelemetry/api"
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics"
import { makeApp, signInAs, testConfig, request } from "../helpers/app.js"
import { childrenOf } from "./support.js"

jest.setTimeout(20_000)

class Reader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter()
const tracerProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
const reader = new Reader()
const meterProvider = new MeterProvider({ readers: [reader] })

afterAll(async () => {
  await tracerProvider.shutdown()
  await meterProvider.shutdown()
})

it("with no telemetry option, spans and metrics go to the globally registered providers", async () => {
  // Registered after the app's configuration object exists but before Gatehouse resolves it.
  const config = testConfig()
  tracerProvider.register()
  metrics.setGlobalMeterProvider(meterProvider)
  const agent = request.agent(makeApp(config))
  expect((await signInAs(agent, "alice")).status).toBe(302)

  const spans = exporter.getFinishedSpans()
  expect(spans.map((span) => span.name)).toEqual(["gatehouse.csrf", "gatehouse.callback"])
  expect(childrenOf(spans, spans[1]!)).toEqual([])
  const { resourceMetrics } = await reader.collect()
  const attempts = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((metric) => metric.descriptor.name === "gatehouse.signin.attempts")
  expect(attempts?.descriptor.unit).toBe("{attempt}")
  expect(attempts?.dataPoints.map((point) => [point.attributes["gatehouse.outcome"], point.value])).toEqual([["success", 1]])
})
