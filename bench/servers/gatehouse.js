// Gatehouse as an app would mount it: the router at /auth, a credentials user, and GET /protected
// behind requireAuth. BENCH_MODE: `cookie` (sealed cookie sessions, no database), `pg` or `sqlite`
// (the SQL adapter, database sessions; its own tables, dropped on stop). BENCH_STORE=redis: the
// shared store on Redis with a subscriber (revocation checks and pub/sub as several processes
// would run them; its keys are removed on stop); otherwise the in-process store.
// BENCH_ORGS=1 (issue #27): organizations on (roles: member { project: [read, write] }), the user a
// member of one organization (set up here, before the runner signs in), and GET /protected behind
// requireAuth({ permission: "project:write" }). Organizations are stored, so the cookie mode gets
// the memory adapter (sessions stay cookies); `pg` keeps its SQL adapter and database sessions.
// BENCH_BOT=1 (issue #33): bot protection on (ALTCHA, its default doors).
// BENCH_MODE=mariadb (issue #36): the SQL adapter on MariaDB (BENCH_MARIADB_URL).
// BENCH_CACHE_SIZE (issue #36): `session.cacheSize` (entries per session cache), to see what the caches cost and save.
import { rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import express from "express"
import { addMember, authRouter, createOrganization, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { SqlAdapter, dropTables, migrate } from "gatehouse/adapters/sql"
import { serve } from "../lib/serve.js"

const USER = { id: "bench-user", name: "Bench User", email: "bench@example.com" }
const mode = process.env.BENCH_MODE ?? "cookie"
const organizations = process.env.BENCH_ORGS === "1"
// The runner may name the tables and the SQLite file (bench/active-sessions.js seeds sessions into them).
const tablePrefix = process.env.BENCH_TABLE_PREFIX ?? `bench_gh_${process.pid}_`
const sqliteFile = process.env.BENCH_SQLITE_FILE ?? join(tmpdir(), `gatehouse-bench-${process.pid}.sqlite`)
/** Where each SQL mode's database is (`mariadb`: issue #36's active-sessions bench). */
function databaseUrl(mode) {
  if (mode === "pg") return process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test"
  if (mode === "mariadb") return process.env.BENCH_MARIADB_URL ?? "mysql://root@127.0.0.1:3306/test"
  if (mode === "sqlite") return `sqlite:${sqliteFile}`
  throw new Error(`unknown BENCH_MODE ${mode} (cookie | pg | sqlite | mariadb)`)
}

async function openAdapter() {
  if (mode === "cookie") {
    if (!organizations) return undefined
    const { MemoryAdapter } = await import("gatehouse/adapters/memory")
    return MemoryAdapter()
  }
  const adapter = SqlAdapter(databaseUrl(mode), { tablePrefix })
  await migrate(adapter.db, { tablePrefix })
  return adapter
}

async function openStore() {
  if (process.env.BENCH_STORE !== "redis") return undefined
  const { createClient } = await import("redis")
  const { RedisStore } = await import("gatehouse/stores/redis")
  const client = createClient({ url: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379" })
  const subscriber = client.duplicate()
  for (const each of [client, subscriber]) each.on("error", (error) => console.error(`redis: ${error.message}`))
  await client.connect()
  await subscriber.connect()
  const prefix = `bench-gh-${process.pid}:`
  const close = async () => {
    const keys = await client.keys(`${prefix}*`)
    if (keys.length) await client.del(keys)
    await Promise.allSettled([client.quit(), subscriber.quit()])
  }
  return { store: RedisStore({ client, prefix, subscriber }), close }
}

/**
 * BENCH_TELEMETRY (issue #20): unset, Gatehouse's instrumentation with no OpenTelemetry SDK (the
 * API's no-ops); `off`, the same build with `telemetry: false` (nothing instrumented); `sdk`, the
 * Node SDK registered globally (tracer provider with a batch processor, meter provider with a
 * periodic reader) exporting to a no-op exporter.
 */
const telemetryMode = process.env.BENCH_TELEMETRY
async function registerSdk() {
  const { metrics } = await import("@opentelemetry/api")
  const { NodeTracerProvider } = await import("@opentelemetry/sdk-trace-node")
  const { BatchSpanProcessor } = await import("@opentelemetry/sdk-trace-base")
  const { MeterProvider, PeriodicExportingMetricReader, AggregationTemporality } = await import("@opentelemetry/sdk-metrics")
  const noop = {
    export: (_items, done) => done({ code: 0 }),
    selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
    forceFlush: async () => {},
    shutdown: async () => {},
  }
  new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(noop)] }).register()
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: noop, exportIntervalMillis: 5000 })] }))
}
if (telemetryMode === "sdk") await registerSdk()
else if (telemetryMode !== undefined && telemetryMode !== "off") throw new Error(`BENCH_TELEMETRY must be unset, off or sdk (got ${telemetryMode})`)

const adapter = await openAdapter()
const shared = await openStore()
const config = {
  secret: "gatehouse-bench-secret-0123456789abcdef",
  trustHost: true,
  // The load generator signs in thousands of times from one address: measure the work, not the
  // limiter's refusals (on by default in production, which the bench runs in).
  rateLimit: false,
  ...(telemetryMode === "off" && { telemetry: false }),
  adapter,
  ...(shared && { store: shared.store }),
  ...(organizations && { organizations: { roles: { member: { project: ["read", "write"] } } } }),
  ...((organizations && mode === "cookie") || process.env.BENCH_CACHE_SIZE ? { session: { ...(organizations && mode === "cookie" && { strategy: "cookie" }), ...(process.env.BENCH_CACHE_SIZE && { cacheSize: Number(process.env.BENCH_CACHE_SIZE) }) } } : {}),
  // BENCH_BOT=1 (issue #33): bot protection on; a request that carries no challenge costs the same.
  ...(process.env.BENCH_BOT === "1" && { botProtection: true }),
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: ({ email, password }) => (email === USER.email && password === "bench" ? USER : null),
    }),
  ],
}

if (organizations) {
  // The bench user, a member (project:write) of an organization someone else owns.
  await adapter.createUser({ ...USER, emailVerified: new Date() })
  await adapter.createUser({ id: "bench-owner", name: "Bench Owner", email: "owner@example.com", emailVerified: new Date() })
  const organization = await createOrganization(config, { ownerId: "bench-owner", name: "Bench", slug: "bench" })
  await addMember(config, { organizationId: organization.id, userId: USER.id, role: "member" })
}

const app = express()
app.use("/auth", authRouter(config))
app.get("/protected", requireAuth(config, organizations ? { permission: "project:write" } : {}), (req, res) => {
  res.json({ email: req.auth.user.email })
})

serve(app, {
  close: async () => {
    await shared?.close()
    if (!adapter || mode === "cookie") return
    await dropTables(adapter.db, { tablePrefix })
    await adapter.close()
    if (mode === "sqlite") rmSync(sqliteFile, { force: true })
  },
})
