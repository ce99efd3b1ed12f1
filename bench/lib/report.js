// Turning rounds of measurements into the summary, the target checks and the tables.
import { JOBS } from "./scenario.js"

const median = (values) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
  if (!sorted.length) return NaN
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** Per scenario: medians over rounds; ratios are taken within each round, then their median. */
export function summarise(scenarios, rounds) {
  const byRound = rounds.map((round) => new Map(round.map((entry) => [entry.id, entry])))
  const ratioTo = (id, peer) => median(byRound.map((round) => (round.get(id)?.requestsPerSecond ?? NaN) / (round.get(peer)?.requestsPerSecond ?? NaN)))
  // The same share by server CPU per request (peer's µs over this one's), steadier on a shared machine.
  const cpuRatioTo = (id, peer) => median(byRound.map((round) => (round.get(peer)?.cpuPerRequest ?? NaN) / (round.get(id)?.cpuPerRequest ?? NaN)))
  return scenarios.map((scenario) => {
    const entries = byRound.map((round) => round.get(scenario.id)).filter(Boolean)
    const measured = entries.filter((entry) => !entry.failed)
    return {
      id: scenario.id,
      name: scenario.name,
      library: scenario.library,
      job: scenario.job,
      requestsPerOp: scenario.requestsPerOp,
      rounds: measured.length,
      failed: entries.find((entry) => entry.failed)?.failed,
      requestsPerSecond: median(measured.map((entry) => entry.requestsPerSecond)),
      ratioToBare: ratioTo(scenario.id, "bare"),
      p50: median(measured.map((entry) => entry.p50)),
      p99: median(measured.map((entry) => entry.p99)),
      bad: measured.reduce((sum, entry) => sum + entry.bad, 0),
      errors: measured.reduce((sum, entry) => sum + entry.errors, 0),
      cpuPerRequest: median(measured.map((entry) => entry.cpuPerRequest)),
      ratioTo,
      cpuRatioTo,
    }
  })
}

/** The targets of the performance issue, each with the measured value and whether it holds. */
export function targets(summary, memory) {
  const find = (id) => summary.find((row) => row.id === id)
  const checks = []
  const add = (label, value, limit, compare = ">=") => {
    if (!Number.isFinite(value)) return
    checks.push({ label, value, limit, compare, met: compare === ">=" ? value >= limit : value <= limit })
  }
  add("requireAuth on a cookie session × bare Express", find("gatehouse-require-auth")?.ratioToBare, 0.6)
  add("GET /auth/session × bare Express", find("gatehouse-session-endpoint")?.ratioToBare, 0.5)
  add("requireAuth on a PostgreSQL session × bare Express", find("gatehouse-pg")?.ratioToBare, 0.3)
  add("requireAuth on a PostgreSQL session × Auth.js with @auth/pg-adapter", find("gatehouse-pg")?.ratioTo("gatehouse-pg", "authjs-pg"), 5)
  add("credentials sign-in × Auth.js", find("gatehouse-signin")?.ratioTo("gatehouse-signin", "authjs-signin"), 3)
  // Issue #14: revocable sessions, still fast (req/s and server CPU per request, both against bare Express).
  for (const [id, label, limit] of [
    ["gatehouse-require-auth", "requireAuth on a cookie session, revocation checks on (in-process store)", 0.75],
    ["gatehouse-require-auth-redis", "requireAuth on a cookie session, revocation checks on Redis", 0.75],
    ["gatehouse-pg", "requireAuth on a PostgreSQL session", 0.7],
    ["gatehouse-pg-redis", "requireAuth on a PostgreSQL session, Redis pub/sub", 0.7],
  ]) {
    const row = find(id)
    add(`#14: ${label} × bare Express (req/s)`, row?.ratioToBare, limit)
    add(`#14: ${label} × bare Express (server CPU)`, row?.cpuRatioTo(id, "bare"), limit)
  }
  // Issue #27: requireAuth({ permission }) with organizations on (req/s and server CPU per request).
  for (const [id, label, limit] of [
    ["gatehouse-permission", "requireAuth({ permission }) on a cookie session", 0.75],
    ["gatehouse-permission-pg", "requireAuth({ permission }) on a PostgreSQL session", 0.75],
  ]) {
    const row = find(id)
    add(`#27: ${label} × bare Express (req/s)`, row?.ratioToBare, limit)
    add(`#27: ${label} × bare Express (server CPU)`, row?.cpuRatioTo(id, "bare"), limit)
  }
  // Issue #31: requireAuth({ apiKey: true }) with a Bearer key (memory adapter, in-process store,
  // the key's rate limit on); its req/s ratio is the main table's "× bare".
  add("#31: requireAuth with an API key × bare Express (server CPU)", find("gatehouse-api-key")?.cpuRatioTo("gatehouse-api-key", "bare"), 0.7)
  // Issue #33: bot protection on changes nothing for a request that carries no challenge (within 2 %).
  if (find("gatehouse-require-auth-bot")) {
    add("#33: requireAuth on a cookie session, bot protection on × off (server CPU)", find("gatehouse-require-auth-bot")?.cpuRatioTo("gatehouse-require-auth-bot", "gatehouse-require-auth"), 0.98)
  }
  // Issue #32: Gatehouse's wrapping of oidc-provider costs at most 10 %, against the bare library in
  // the same rounds: the token endpoint, and the access-token check on an API route.
  for (const [id, peer, label] of [
    ["gatehouse-oidc-token", "oidc-provider-token", "token endpoint (client credentials), Gatehouse × bare oidc-provider"],
    ["gatehouse-access-token", "jose-access-token", "requireAuth with an access token × a bare jose check"],
  ]) {
    if (find(id) && find(peer)) add(`#32: ${label} (server CPU)`, find(id).cpuRatioTo(id, peer), 0.9)
  }
  // Issue #20: the instrumentation with no SDK registered costs requireAuth at most 2 %.
  const traced = find("gatehouse-require-auth")
  if (find("gatehouse-require-auth-untraced")) {
    add("#20: requireAuth on a cookie session, instrumentation with no SDK × telemetry: false (req/s)", traced?.ratioTo("gatehouse-require-auth", "gatehouse-require-auth-untraced"), 0.98)
    add("#20: requireAuth on a cookie session, instrumentation with no SDK × telemetry: false (server CPU)", traced?.cpuRatioTo("gatehouse-require-auth", "gatehouse-require-auth-untraced"), 0.98)
  }
  if (memory) add("heap growth after 100k session reads", memory.growth, 0.1, "<=")
  return checks
}

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : "–")
const thousands = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "–")

export function mainTable(summary) {
  const lines = [
    "| scenario | job | req/s | × bare | p50 ms | p99 ms | non-2xx/3xx | errors | server CPU µs/req |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
  ]
  for (const row of summary) {
    const name = row.failed ? `${row.name} (failed: ${row.failed})` : row.name
    lines.push(
      `| ${name} | ${JOBS[row.job]} | ${thousands(row.requestsPerSecond)} | ${fixed(row.ratioToBare, 2)} | ${fixed(row.p50, 1)} | ${fixed(row.p99, 1)} | ${row.bad} | ${row.errors} | ${fixed(row.cpuPerRequest, 0)} |`,
    )
  }
  return lines.join("\n")
}

export function targetTable(checks) {
  const lines = ["| target | measured | needed | met |", "|---|---:|---:|:-:|"]
  for (const check of checks) {
    const shown = check.label.startsWith("heap") ? `${(check.value * 100).toFixed(1)} %` : fixed(check.value, 2)
    const needed = check.label.startsWith("heap") ? `≤ ${check.limit * 100} %` : `≥ ${check.limit}`
    lines.push(`| ${check.label} | ${shown} | ${needed} | ${check.met ? "yes" : "**no**"} |`)
  }
  return lines.join("\n")
}

export function memoryLine(memory) {
  const mb = (bytes) => (bytes / 1024 / 1024).toFixed(2)
  return `Heap after garbage collection: ${mb(memory.before)} MB before and ${mb(memory.after)} MB after ${memory.reads.toLocaleString("en-US")} session reads (${(memory.growth * 100).toFixed(1)} %).`
}

/**
 * Issue #20: requireAuth on a cookie session with the OpenTelemetry instrumentation (no SDK, and
 * the SDK with a no-op exporter) against the same build with `telemetry: false`, from this run.
 * No lines unless the run had the `telemetry: false` scenario and at least one of the others.
 */
export function telemetryLines(summary) {
  const off = summary.find((row) => row.id === "gatehouse-require-auth-untraced")
  if (!off) return []
  const lines = []
  for (const [id, label] of [
    ["gatehouse-require-auth", "instrumentation, no SDK registered"],
    ["gatehouse-require-auth-otel-sdk", "OpenTelemetry SDK registered, no-op exporter"],
  ]) {
    const row = summary.find((entry) => entry.id === id)
    if (!row) continue
    const rps = row.ratioTo(id, off.id)
    const cpu = row.cpuRatioTo(id, off.id)
    lines.push(`- requireAuth on a cookie session, ${label}: ${fixed(rps, 3)} × \`telemetry: false\` by req/s (${fixed((rps - 1) * 100, 1)} %), ${fixed(cpu, 3)} × by server CPU per request (${thousands(row.requestsPerSecond)} against ${thousands(off.requestsPerSecond)} req/s)`)
  }
  return lines.length ? ["", "Observability (issue #20), ratios within each round, medians:", "", ...lines] : []
}
