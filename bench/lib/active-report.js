// Issue #36: the active-sessions results as a summary per scenario and N, its targets, and tables.

const median = (values) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
  if (!sorted.length) return NaN
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** Each [gatehouse scenario, better-auth scenario] in the same configuration, for the "3 ×" target. */
export const PEERS = [
  ["gatehouse-cookie", "better-auth-cache"],
  ["gatehouse-cookie-redis", "better-auth-cache"],
  ["gatehouse-pg", "better-auth-pg"],
]

/**
 * Per scenario and N: medians over rounds of req/s and server CPU µs per request; `ratio`, bare
 * Express's CPU per request over this one's within each round, then the median; the better-auth
 * peer's CPU per request over this one's the same way (`timesPeer`); heap and RSS after the rounds.
 */
export function summariseActive(scenarios, sizes, results) {
  const rows = []
  for (const n of sizes) {
    const measured = results.filter((entry) => entry.n === n && entry.round !== undefined)
    const rounds = [...new Set(measured.map((entry) => entry.round))]
    const cpu = (id, round) => measured.find((entry) => entry.id === id && entry.round === round)?.cpuPerRequest ?? NaN
    for (const scenario of scenarios) {
      const mine = measured.filter((entry) => entry.id === scenario.id)
      const memory = results.find((entry) => entry.n === n && entry.id === scenario.id && entry.memory)?.memory
      const peer = PEERS.find(([id]) => id === scenario.id)?.[1]
      rows.push({
        id: scenario.id,
        name: scenario.name,
        library: scenario.library,
        n,
        rounds: mine.length,
        requestsPerSecond: median(mine.map((entry) => entry.requestsPerSecond)),
        cpuPerRequest: median(mine.map((entry) => entry.cpuPerRequest)),
        ratio: median(rounds.map((round) => cpu("bare", round) / cpu(scenario.id, round))),
        ratioRange: mine.length > 1 ? [Math.min(...rounds.map((round) => cpu("bare", round) / cpu(scenario.id, round)).filter(Number.isFinite)), Math.max(...rounds.map((round) => cpu("bare", round) / cpu(scenario.id, round)).filter(Number.isFinite))] : undefined,
        ...(peer && { peer, timesPeer: median(rounds.map((round) => cpu(peer, round) / cpu(scenario.id, round))) }),
        bad: mine.reduce((sum, entry) => sum + entry.bad, 0),
        errors: mine.reduce((sum, entry) => sum + entry.errors, 0),
        heapMB: memory ? memory.heapUsed / 2 ** 20 : undefined,
        rssMB: memory ? memory.rss / 2 ** 20 : undefined,
      })
    }
  }
  return rows
}

/** The issue's targets, each with the measured value and whether it holds. */
export function activeTargets(summary) {
  const find = (id, n) => summary.find((row) => row.id === id && row.n === n)
  const checks = []
  const add = (label, value, limit) => {
    if (Number.isFinite(value)) checks.push({ label, value, limit, met: value >= limit })
  }
  for (const id of ["gatehouse-cookie", "gatehouse-cookie-redis"]) {
    const store = id.endsWith("redis") ? "Redis" : "in-process store"
    add(`cookie session (revocation checks, ${store}), 10 000 active sessions × bare Express`, find(id, 10_000)?.ratio, 0.75)
    add(`cookie session (revocation checks, ${store}), 100 000 active sessions × bare Express`, find(id, 100_000)?.ratio, 0.7)
  }
  add("PostgreSQL session, 10 000 active sessions × bare Express", find("gatehouse-pg", 10_000)?.ratio, 0.55)
  for (const row of summary) {
    if (row.peer) add(`${row.name} × ${row.peer}, N = ${row.n.toLocaleString("en-US")}`, row.timesPeer, 3)
  }
  return checks
}

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : "–")
const thousands = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "–")

export function activeSessionsMarkdown({ machine, settings, summary, checks, failures }) {
  const sizes = settings.sizes
  const ids = [...new Set(summary.map((row) => row.id))]
  const row = (id, n) => summary.find((entry) => entry.id === id && entry.n === n)
  const nameOf = (id) => summary.find((entry) => entry.id === id)?.name ?? id
  const header = (title) => [`| ${title} | ${sizes.map((n) => `N = ${n.toLocaleString("en-US")}`).join(" | ")} |`, `|---|${sizes.map(() => "---:").join("|")}|`]
  const table = (title, cell) => [...header(title), ...ids.map((id) => `| ${nameOf(id)} | ${sizes.map((n) => cell(row(id, n))).join(" | ")} |`)].join("\n")
  const lines = [
    `Measured ${machine.date.slice(0, 10)} on ${machine.cores} × ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node} (${machine.pinned}); for each N, ${settings.rounds} interleaved round(s) of ${settings.warmup} s warm-up + ${settings.duration} s measured, ${settings.connections} connections, each request with the next of N sessions' cookies (round robin)${settings.settle ? `, each round once the machine was quiet (at most ${settings.settle} of its CPU busy over half a second, or after 20 s)` : ""}; ratios taken within each round, medians over rounds.`,
    "",
    "Server CPU per request, bare Express over the scenario (1.00 = free; higher is better):",
    "",
    table("scenario", (entry) => (entry && entry.rounds ? fixed(entry.ratio, 2) : "–")),
    "",
    "Server CPU µs per request (median) and requests per second (median):",
    "",
    table("scenario", (entry) => (entry && entry.rounds ? `${fixed(entry.cpuPerRequest, 0)} µs, ${thousands(entry.requestsPerSecond)}/s` : "–")),
    "",
    "Server heap after GC / RSS after the rounds of each N (MB):",
    "",
    table("scenario", (entry) => (entry?.heapMB !== undefined ? `${fixed(entry.heapMB, 1)} / ${fixed(entry.rssMB, 0)}` : "–")),
  ]
  const bad = summary.filter((entry) => entry.bad || entry.errors)
  if (bad.length) lines.push("", `Responses that were not 200: ${bad.map((entry) => `${entry.id} at N = ${entry.n}: ${entry.bad} bad, ${entry.errors} errors`).join("; ")}.`)
  if (failures.length) lines.push("", `Failed: ${failures.map((entry) => `${entry.id} at N = ${entry.n}${entry.round ? ` (round ${entry.round})` : ""}: ${entry.failed}`).join("; ")}.`)
  if (checks.length) {
    lines.push("", "| target | measured | needed | met |", "|---|---:|---:|:-:|")
    for (const check of checks) lines.push(`| ${check.label} | ${fixed(check.value, 2)} | ≥ ${check.limit} | ${check.met ? "yes" : "**no**"} |`)
  }
  return lines.join("\n")
}
