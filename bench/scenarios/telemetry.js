// Issue #20: what the OpenTelemetry instrumentation costs requireAuth on a cookie session, in one
// run: the same build with `telemetry: false` (no instrumentation), with the instrumentation and no
// SDK (the API's no-ops: that is `gatehouse-require-auth` itself), and with the Node SDK registered
// and a no-op exporter. The ratios are printed under the main table (report.js, telemetryLines).
import gatehouse from "./gatehouse.js"

const base = gatehouse.find((scenario) => scenario.id === "gatehouse-require-auth")

export default [
  { ...base, id: "gatehouse-require-auth-untraced", name: "Gatehouse requireAuth (cookie), telemetry: false", env: { ...base.env, BENCH_TELEMETRY: "off" } },
  { ...base, id: "gatehouse-require-auth-otel-sdk", name: "Gatehouse requireAuth (cookie), OpenTelemetry SDK, no-op exporter", env: { ...base.env, BENCH_TELEMETRY: "sdk" } },
]
