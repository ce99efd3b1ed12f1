/**
 * The `telemetry` option: where Gatehouse's spans and metrics go. By default the globally
 * registered OpenTelemetry providers (`@opentelemetry/api`; with no SDK registered every call is a
 * no-op); `{ tracerProvider, meterProvider }` names others; `false` turns the instrumentation off.
 */
import type { MeterProvider, TracerProvider } from "@opentelemetry/api"
import { InvalidOption } from "../errors.js"

export interface TelemetryOptions {
  /** Default: the global one (`trace.setGlobalTracerProvider`, what an SDK's `register()` sets). */
  tracerProvider?: TracerProvider
  /** Default: the global one (`metrics.setGlobalMeterProvider`). Read when the configuration is resolved. */
  meterProvider?: MeterProvider
}

function show(value: unknown): string {
  return typeof value === "function" ? "a function" : JSON.stringify(value) ?? String(value)
}

/** Undefined: instrumentation off. */
export function assertTelemetry(value: unknown): TelemetryOptions | undefined {
  if (value === false) return undefined
  if (value === undefined || value === true) return {}
  if (typeof value !== "object" || value === null) throw new InvalidOption(`telemetry must be false or { tracerProvider?, meterProvider? } (got ${show(value)})`)
  const { tracerProvider, meterProvider } = value as Record<string, unknown>
  if (tracerProvider !== undefined && typeof (tracerProvider as TracerProvider).getTracer !== "function") {
    throw new InvalidOption("telemetry.tracerProvider must be an OpenTelemetry TracerProvider (with getTracer)")
  }
  if (meterProvider !== undefined && typeof (meterProvider as MeterProvider).getMeter !== "function") {
    throw new InvalidOption("telemetry.meterProvider must be an OpenTelemetry MeterProvider (with getMeter)")
  }
  return { tracerProvider: tracerProvider as TracerProvider | undefined, meterProvider: meterProvider as MeterProvider | undefined }
}
