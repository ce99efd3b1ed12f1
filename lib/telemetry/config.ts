/**
 * A resolved configuration with its telemetry: the tracer and instruments made once, the adapter
 * and shared store traced, the providers' outbound calls bound to this configuration. With
 * `telemetry: false` the configuration is returned as it was (nothing wrapped).
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { traceAdapter } from "./adapter.js"
import { createTelemetry } from "./instruments.js"
import { assertTelemetry } from "./options.js"
import { bindProviders } from "./outbound.js"
import { traceStore } from "./store.js"

export function withTelemetry(resolved: ResolvedConfig, source: { telemetry?: unknown; store?: unknown }): ResolvedConfig {
  const options = assertTelemetry(source.telemetry)
  if (!options) return resolved
  const telemetry = createTelemetry(options)
  bindProviders(resolved.providers.list, telemetry)
  return {
    ...resolved,
    telemetry,
    adapter: resolved.adapter && traceAdapter(resolved.adapter, telemetry),
    store: traceStore(resolved.store, telemetry, source.store),
  }
}
