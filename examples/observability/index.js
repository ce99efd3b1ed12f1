// The observability example: Gatehouse's OpenTelemetry traces and metrics printed on the console
// (a span per action, its adapter and provider calls as children, under the HTTP server span of
// @opentelemetry/instrumentation-http), and its log lines as pino JSON. Run it with
// `node examples/observability/index.js` and open http://localhost:3000 (demo / demo).
//
// The SDK is loaded first, then the app, so the instrumentations patch http and express before
// they are loaded (ESM evaluates imports in order; the app is imported dynamically to make sure).
import { fileURLToPath } from "node:url"
import { shutdownTelemetry } from "./telemetry.js"

const { app, logger } = await import("./app.js")

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 3000)
  const server = app.listen(port, () => logger.info(`Gatehouse observability example on http://localhost:${server.address().port} (user "demo", password "demo")`))
  const stop = () => server.close(() => shutdownTelemetry().then(() => process.exit(0)))
  process.on("SIGTERM", stop)
  process.on("SIGINT", stop)
}

export { app }
