// The OpenTelemetry SDK for the observability example, loaded before the app (index.js imports it
// first): traces and metrics printed on the console, HTTP and Express spans from the
// instrumentations, and the AsyncLocalStorage context manager, so Gatehouse's spans (it uses only
// @opentelemetry/api) become children of the request's HTTP server span. In production, swap the
// console exporters for OTLP ones (@opentelemetry/exporter-trace-otlp-http, ...-metrics-otlp-http).
//
// OTEL_METRIC_EXPORT_INTERVAL: how often metrics are printed, in ms (default 60000).
import { register } from "node:module"
import { metrics } from "@opentelemetry/api"
import { registerInstrumentations } from "@opentelemetry/instrumentation"
import { ExpressInstrumentation } from "@opentelemetry/instrumentation-express"
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http"
import { resourceFromAttributes } from "@opentelemetry/resources"
import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics"
import { ConsoleSpanExporter, NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node"

const resource = resourceFromAttributes({ "service.name": "gatehouse-observability-example" })

export const tracerProvider = new NodeTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] })
// Sets the global tracer provider, the W3C trace-context propagator and the AsyncLocalStorage context manager.
tracerProvider.register()

export const meterProvider = new MeterProvider({
  resource,
  readers: [new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter(), exportIntervalMillis: Number(process.env.OTEL_METRIC_EXPORT_INTERVAL ?? 60_000) })],
})
metrics.setGlobalMeterProvider(meterProvider)

// The ESM loader hook lets the instrumentations patch modules loaded by `import` from here on
// (express, imported by app.js); node:http is patched through require either way.
register("@opentelemetry/instrumentation/hook.mjs", import.meta.url)
registerInstrumentations({ instrumentations: [new HttpInstrumentation(), new ExpressInstrumentation()] })

/** Flushes what is pending (the last metrics) and stops exporting. */
export async function shutdownTelemetry() {
  await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()])
}
