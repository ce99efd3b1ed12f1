// One load on a started server with autocannon: a warm-up, then a measured window during which the
// server's CPU time is read before and after.
import autocannon from "autocannon"

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)))
  })
}

const percentile = (latency, key) => latency[key] ?? latency.p99

/**
 * Counts responses that had a fine status but the wrong content (a sign-in that redirected to the
 * error page): scenarios' `onResponse` hooks call `fail(reason)`.
 */
export function createTally() {
  return {
    failures: 0,
    reasons: {},
    fail(reason) {
      this.failures++
      this.reasons[reason] = (this.reasons[reason] ?? 0) + 1
    },
    reset() {
      this.failures = 0
      this.reasons = {}
    },
  }
}

/**
 * Loads `server` with `requests` (repeated by each connection). Returns requests/s, latency (ms),
 * responses whose status is not in `okStatus` or that `tally` was told failed, errors and
 * timeouts, and server CPU µs/request.
 */
export async function load(server, requests, { connections, warmup, duration, okStatus, amount, timeout }, tally = createTally()) {
  // `timeout`: seconds before autocannon gives up on a response (its default is 10).
  const base = { url: server.origin, connections, pipelining: 1, requests, ...(timeout ? { timeout } : {}) }
  if (warmup > 0) await run({ ...base, duration: warmup })
  tally.reset()
  const cpuBefore = await server.cpu()
  const result = await run(amount ? { ...base, amount } : { ...base, duration })
  const cpuAfter = await server.cpu()
  const total = result.requests.total
  let bad = 0
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) if (!okStatus.includes(Number(status))) bad += Number(count)
  bad += tally.failures
  return {
    failures: tally.failures ? tally.reasons : undefined,
    requestsPerSecond: total / result.duration,
    total,
    p50: result.latency.p50,
    p99: percentile(result.latency, "p99"),
    bad,
    errors: result.errors + result.timeouts,
    cpuPerRequest: total > 0 ? (cpuAfter - cpuBefore) / total : NaN,
  }
}
