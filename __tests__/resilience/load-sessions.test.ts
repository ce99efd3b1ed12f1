/**
 * LOAD-01 (SECURITY-CATALOG.md §15) — sustained session reads, memory flat. Three runs, each on a
 * fresh app process: GET /auth/session with a genuine JWE cookie; the same with a database session
 * on PostgreSQL; GET /api/me through requireAuth (JWE cookie). Each must see zero errors and zero
 * non-2xx answers, every body naming the signed-in user, and the app's heap after GC at 10 %, 50 %
 * and 100 % of the run within +10 % of the 10 % sample (the catalog's bound). Also reported: latency
 * p50/p99 (autocannon, measured from the test process, which shares the machine) and the app's
 * event-loop delay p99; asserted besides: the PostgreSQL run never holds more connections than the
 * adapter's pool maximum (10; sampled from pg_stat_activity by application_name) and its one
 * LISTEN connection, and after the
 * cookie runs the app's open file descriptors are back to their count before the load.
 *
 * Requests: the JWE GET /auth/session run makes RESILIENCE_SUSTAINED, default 100 000 (the issue's
 * "memory flat over 100k requests"; about 30 s on the 2-core CI machine, autocannon sharing it with
 * the app); the other two RESILIENCE_REQUESTS, default 20 000. For 100 000 everywhere:
 * `RESILIENCE_REQUESTS=100000 npm run test:resilience -- load-sessions` (about 2 minutes).
 */
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { sql } from "kysely"
import { heapRow, runWithHeap, type HeapRun } from "./support/process-load.js"
import { POSTGRES_URL, report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { createTables, type TestTables } from "./support/process-db.js"
import { readSession, signedIn } from "./support/process-http.js"

const REQUESTS = Number(process.env.RESILIENCE_REQUESTS ?? 20_000)
const SUSTAINED = Number(process.env.RESILIENCE_SUSTAINED ?? 100_000)
const CONNECTIONS = 50
const HEAP_BOUND = 10 // percent over the first sample
const POOL_MAX = 10 // adapters/sql/connect.ts: new pg.Pool({ max: 10 })
const LISTENER = 1 // adapters/sql/notify.ts: one LISTEN connection per process, for sign-outs and revocations (issue #36)
const SECRETS = JSON.stringify(["load-01-secret-0123456789abcdef0123456789"])

let tables: TestTables
const rows: Record<string, string | number>[] = []

beforeAll(async () => {
  tables = await createTables("load01")
})

afterAll(async () => {
  await stopAll()
  await tables?.drop()
  report(`LOAD-01 session reads (${CONNECTIONS} connections, heap after GC)`, rows)
})

interface SessionRun extends HeapRun {
  fdsBefore: number
  fdsAfter: number
  /** Most connections the app held on PostgreSQL at once (NaN when not sampled). */
  poolPeak: number
}

/** Samples the connections with `applicationName` every 100 ms until `stop` resolves; the peak. */
async function peakConnections(applicationName: string, stop: Promise<unknown>): Promise<number> {
  let peak = 0
  let done = false
  void stop.finally(() => (done = true))
  while (!done) {
    const { rows: [row] } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where application_name = ${applicationName}`.execute(tables.adapter.db)
    peak = Math.max(peak, Number(row?.n ?? 0))
    await sleep(100)
  }
  return peak
}

async function sessionRun(label: string, env: Record<string, string>, path: string, applicationName?: string, requests = REQUESTS): Promise<SessionRun> {
  let app: AppProcess | undefined
  try {
    app = await startApp(label, { GH_SECRETS: SECRETS, ...env })
    const jar = await signedIn(app.origin, app.origin, "alice", "correct-horse")
    expect((await readSession(app.origin, jar)).body?.user?.email).toBe("alice@example.com")
    const cookie = jar.header()
    const fdsBefore = app.fds()
    const loading = runWithHeap(app, requests, (fail) => [
      {
        method: "GET",
        path,
        headers: { cookie },
        onResponse: (status: number, body: string) => {
          if (status === 200 && !body.includes("alice@example.com")) fail("200 without the user")
        },
      },
    ], { connections: CONNECTIONS })
    const [run, poolPeak] = await Promise.all([loading, applicationName ? peakConnections(applicationName, loading) : NaN])
    // Closed connections leave the app's descriptor table shortly after the load ends.
    let fdsAfter = app.fds()
    for (let i = 0; i < 20 && fdsAfter > fdsBefore; i++) {
      await sleep(100)
      fdsAfter = app.fds()
    }
    rows.push({ ...heapRow(label, run), "fds before/after": `${fdsBefore}/${fdsAfter}`, "pg peak": Number.isNaN(poolPeak) ? "-" : poolPeak })
    return { ...run, fdsBefore, fdsAfter, poolPeak }
  } finally {
    await app?.stop()
  }
}

function expectHealthy(run: SessionRun, requests = REQUESTS) {
  expect(run.total.requests).toBe(requests)
  expect(run.total.errors).toBe(0)
  expect(run.total.statuses).toEqual({ 200: requests })
  expect(run.total.bad).toBe(0)
  for (const value of run.growth) expect(value).toBeLessThanOrEqual(HEAP_BOUND)
}

describe("LOAD-01 sustained session reads keep zero errors and a flat heap", () => {
  test(`GET /auth/session with a JWE cookie (${SUSTAINED} requests)`, async () => {
    const run = await sessionRun("JWE GET /auth/session", {}, "/auth/session", undefined, SUSTAINED)
    expectHealthy(run, SUSTAINED)
    expect(run.fdsAfter).toBeLessThanOrEqual(run.fdsBefore)
  })

  test("GET /auth/session with a database session on PostgreSQL", async () => {
    const applicationName = tables.prefix.slice(0, -1)
    const url = `${POSTGRES_URL}?application_name=${applicationName}`
    const run = await sessionRun("PostgreSQL GET /auth/session", { GH_DB: url, GH_TABLE_PREFIX: tables.prefix, GH_STRATEGY: "database" }, "/auth/session", applicationName)
    expectHealthy(run)
    expect(run.poolPeak).toBeGreaterThan(0)
    expect(run.poolPeak).toBeLessThanOrEqual(POOL_MAX + LISTENER)
    // The pool's idle connections may stay open (pg closes them after 10 s idle): at most its maximum more.
    expect(run.fdsAfter).toBeLessThanOrEqual(run.fdsBefore + POOL_MAX + LISTENER)
  })

  test("GET /api/me through requireAuth with a JWE cookie", async () => {
    const run = await sessionRun("JWE requireAuth /api/me", {}, "/api/me")
    expectHealthy(run)
    expect(run.fdsAfter).toBeLessThanOrEqual(run.fdsBefore)
  })
})
