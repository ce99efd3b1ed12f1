/**
 * Loopback load on an app process with autocannon, through bench/lib/load.js. Adds what the
 * resilience runs assert on: every status counted (5xx separately) and the runs split into
 * stages, with the app's heap after GC sampled between them.
 */
import { createTally, load } from "../../../bench/lib/load.js"
import { growth, mb, type AppProcess } from "./process.js"

/** An autocannon request (method, path, headers, body, setupRequest, onResponse). */
export type LoadRequest = Record<string, unknown> & { onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: unknown) => void }

export interface StageResult {
  requests: number
  perSecond: number
  p50: number
  p99: number
  errors: number
  statuses: Record<string, number>
  fiveHundreds: number
  /** Responses whose status was not in okStatus or that a request's check rejected. */
  bad: number
  reasons?: Record<string, number>
}

/**
 * How long the load client waits for one response before counting an error (autocannon's default
 * is 10 s). CI runs these loads beside `npm test` on two cores, where a sign-in in a 50-connection
 * churn can wait longer than 10 s for the CPU; a timed-out request also desynchronises its
 * connection's CSRF-then-POST sequence. A server that hangs still fails: the test's own timeout.
 */
const RESPONSE_TIMEOUT_S = 60

export interface LoadOptions {
  connections?: number
  okStatus?: number[]
}

/**
 * Sends `amount` requests (cycling through `requests` on each connection) to `app`. Every status
 * is tallied; a request's own `onResponse` may call `fail(reason)` for a wrong body.
 */
export async function runStage(app: Pick<AppProcess, "origin">, amount: number, requests: (fail: (reason: string) => void) => LoadRequest[], { connections = 50, okStatus = [200] }: LoadOptions = {}): Promise<StageResult> {
  const tally = createTally()
  const statuses: Record<string, number> = {}
  const counted = requests((reason) => tally.fail(reason)).map((request) => ({
    ...request,
    onResponse: (status: number, body: string, context: Record<string, unknown>, headers: unknown) => {
      statuses[status] = (statuses[status] ?? 0) + 1
      request.onResponse?.(status, body, context, headers)
    },
  }))
  const server = { origin: app.origin, cpu: async () => 0 }
  const result = await load(server, counted, { connections, warmup: 0, duration: 0, okStatus, amount, timeout: RESPONSE_TIMEOUT_S }, tally)
  const fiveHundreds = Object.entries(statuses).reduce((sum, [status, count]) => sum + (Number(status) >= 500 ? count : 0), 0)
  return {
    requests: result.total,
    perSecond: result.requestsPerSecond,
    p50: result.p50,
    p99: result.p99,
    errors: result.errors,
    statuses,
    fiveHundreds,
    bad: result.bad,
    reasons: result.failures,
  }
}

export interface HeapRun {
  stages: StageResult[]
  /** Heap after GC after each stage, in bytes. */
  heap: number[]
  /** Growth of each sample over the first one, in percent. */
  growth: number[]
  /** The app's event-loop delay p99 (ms) during each stage. */
  loopP99Ms: number[]
  total: StageResult
}

/**
 * Runs `total` requests in stages ending at 10 %, 50 % and 100 % of it (or `marks`), sampling
 * the app's heap after GC at each mark.
 */
export async function runWithHeap(app: AppProcess, total: number, requests: (fail: (reason: string) => void) => LoadRequest[], options: LoadOptions = {}, marks = [0.1, 0.5, 1]): Promise<HeapRun> {
  const stages: StageResult[] = []
  const heap: number[] = []
  const loopP99Ms: number[] = []
  let sent = 0
  await app.sample() // starts the event-loop histogram afresh
  for (const mark of marks) {
    const amount = Math.round(total * mark) - sent
    stages.push(await runStage(app, amount, requests, options))
    sent += amount
    const sample = await app.sample()
    heap.push(sample.heap)
    loopP99Ms.push(sample.loopP99Ms)
  }
  const sum = (pick: (stage: StageResult) => number) => stages.reduce((acc, stage) => acc + pick(stage), 0)
  const statuses: Record<string, number> = {}
  for (const stage of stages) for (const [status, count] of Object.entries(stage.statuses)) statuses[status] = (statuses[status] ?? 0) + count
  const reasons: Record<string, number> = {}
  for (const stage of stages) for (const [reason, count] of Object.entries(stage.reasons ?? {})) reasons[reason] = (reasons[reason] ?? 0) + count
  const requestsTotal = sum((stage) => stage.requests)
  return {
    stages,
    heap,
    growth: heap.map((sample) => growth(heap[0]!, sample)),
    loopP99Ms,
    total: {
      requests: requestsTotal,
      perSecond: requestsTotal / sum((stage) => stage.requests / stage.perSecond),
      p50: Math.max(...stages.map((stage) => stage.p50)),
      p99: Math.max(...stages.map((stage) => stage.p99)),
      errors: sum((stage) => stage.errors),
      statuses,
      fiveHundreds: sum((stage) => stage.fiveHundreds),
      bad: sum((stage) => stage.bad),
      reasons: Object.keys(reasons).length ? reasons : undefined,
    },
  }
}

/** One report row for a heap run. */
export function heapRow(label: string, run: HeapRun): Record<string, string | number> {
  return {
    run: label,
    requests: run.total.requests,
    "req/s": Math.round(run.total.perSecond),
    "p50 ms": run.total.p50,
    "p99 ms": run.total.p99,
    "loop p99 ms": Math.max(...run.loopP99Ms),
    errors: run.total.errors,
    "non-ok": run.total.bad,
    "5xx": run.total.fiveHundreds,
    "heap MB (10/50/100%)": run.heap.map(mb).join(" / "),
    "growth %": run.growth.map((value) => value.toFixed(1)).join(" / "),
  }
}
