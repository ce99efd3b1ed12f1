// The observability example's app: credentials sign-in, a protected page, and Gatehouse's
// logger set to a pino instance (one JSON line per entry, with the request id, and here the active
// span's trace and span ids so log lines and traces can be joined). Gatehouse needs no telemetry
// option: it finds the SDK that telemetry.js registered through @opentelemetry/api.
import { trace } from "@opentelemetry/api"
import express from "express"
import pino from "pino"
import { authRouter, authSession, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"

/** A stand-in for the app's users (user "demo", password "demo"). */
const USERS = [{ id: "1", username: "demo", password: "demo", name: "Demo User", email: "demo@example.com" }]

export const logger = pino({
  level: process.env.LOG_LEVEL ?? "info",
  // The active span's ids on every line (what @opentelemetry/instrumentation-pino would add).
  mixin() {
    const span = trace.getActiveSpan()
    if (!span) return {}
    const { traceId, spanId } = span.spanContext()
    return { trace_id: traceId, span_id: spanId }
  },
})

export const authConfig = {
  secret: process.env.AUTH_SECRET ?? "observability-example-secret-change-me-0123456789",
  trustHost: true,
  logger,
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }) => {
        const user = USERS.find((candidate) => candidate.username === username && candidate.password === password)
        return user ? { id: user.id, name: user.name, email: user.email } : null
      },
    }),
  ],
}

export const app = express()
app.use("/auth", authRouter(authConfig))
app.use(authSession(authConfig))
app.get("/", (req, res) => {
  res.type("html").send(req.auth ? `<p>Signed in as ${req.auth.user.name}. <a href="/dashboard">Dashboard</a></p>` : `<p><a href="/auth/signin">Sign in</a> (demo / demo)</p>`)
})
app.get("/dashboard", requireAuth(authConfig), (req, res) => {
  res.type("html").send(`<h1>Dashboard of ${req.auth.user.name}</h1>`)
})
