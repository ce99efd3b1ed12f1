// Issue #36: how the cost of a session read grows with the number of active sessions. For each N,
// every scenario's server is started and given N sessions (bench/lib/seed.js: one user each, made
// as the library would make them), then loaded with each request carrying the next session's
// cookie, round robin over all N: a session comes back only after the N - 1 others, the worst case
// for a cache that remembers the last few. Before the rounds, one pass over the sessions (at most
// 20 000 requests), so every session has been seen once, as on a site where they are active. Rounds are interleaved across the scenarios of one N,
// all servers up at once (idle but the loaded one); the ratio is bare Express's server CPU per
// request over the scenario's, taken within each round, median over rounds. After the rounds of an
// N, each server's heap (after GC) and RSS.
//
//   node bench/active-sessions.js                       # N = 1, 1 000, 10 000, 100 000; 3 rounds (3 s warm-up, 3 s measured)
//   node bench/active-sessions.js --sizes 1,1000 --rounds 5 --duration 5
//   node bench/active-sessions.js --only bare,gatehouse-cookie,better-auth-cache
//   node bench/active-sessions.js --baseline /tmp/old --only gatehouse-cookie --sizes 100000
//                                                       # also each Gatehouse scenario on another
//                                                       # checkout (built, node_modules linked)
//   node bench/active-sessions.js --smoke               # N = 1, 100; one short round, no warm-up (CI)
//
// Results: bench/results/active-sessions-latest.{json,md,svg} and dated json/md copies (smoke runs
// write to the system temp). `node bench/chart.js [results.json]` redraws the SVG.
import { mkdirSync, writeFileSync } from "node:fs"
import { cpus, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { load } from "./lib/load.js"
import { pinRunner, startServer } from "./lib/process.js"
import { activeSessionsChart } from "./lib/chart.js"
import { activeSessionsMarkdown, summariseActive, activeTargets } from "./lib/active-report.js"
import allScenarios from "./scenarios/active-sessions.js"
import { baselineScenarios, plainId } from "./lib/baseline.js"
import { settle } from "./lib/settle.js"

const { values: args } = parseArgs({
  options: {
    smoke: { type: "boolean", default: false },
    sizes: { type: "string" },
    rounds: { type: "string" },
    duration: { type: "string" },
    warmup: { type: "string" },
    connections: { type: "string", default: "10" },
    only: { type: "string" },
    out: { type: "string" },
    baseline: { type: "string" },
  },
})

const smoke = args.smoke
const settings = {
  sizes: (args.sizes ?? (smoke ? "1,100" : "1,1000,10000,100000")).split(",").map(Number),
  rounds: Number(args.rounds ?? (smoke ? 1 : 3)),
  duration: Number(args.duration ?? (smoke ? 0.5 : 3)),
  // Each server idles while the others are loaded; its first second back costs up to 1.3 to 1.4 times
  // its steady figure (measured on 2026-11-28, bare Express and Gatehouse alike), and more for
  // one that decrypts a cookie per request: 3 s of warm-up measure the steady state.
  warmup: Number(args.warmup ?? (smoke ? 0 : 3)),
  /** Each round waits for a quiet machine (bench/lib/settle.js), but not in a smoke run (CI runs it beside other suites). */
  settle: smoke ? undefined : "10 %",
  connections: Number(args.connections),
}
if (settings.sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--sizes: whole numbers of at least 1 (got ${args.sizes})`)
const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const outDir = args.out ?? (smoke ? join(tmpdir(), "gatehouse-bench") : here("./results"))

let scenarios = allScenarios
if (args.baseline) scenarios = [...scenarios, ...baselineScenarios(scenarios, args.baseline)]
if (args.only) {
  const wanted = new Set(["bare", ...args.only.split(",")])
  const unknown = [...wanted].filter((id) => !scenarios.some((scenario) => scenario.id === id))
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(", ")}; known: ${scenarios.map((s) => s.id).join(", ")}`)
  scenarios = scenarios.filter((scenario) => wanted.has(plainId(scenario.id)))
}

const pinned = pinRunner()
const log = (line) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`)

/** Requests in the pass over all sessions made before the rounds of an N (N = 100 000: a fifth of them). */
const WARM_PASS = 20_000

/**
 * The requests of one connection: GET /protected, each with the next cookie of all connections'
 * round robin. Made once per server: the rounds go on where the last one stopped.
 */
function roundRobin(cookies) {
  if (!cookies.length) return [{ method: "GET", path: "/protected" }]
  let next = 0
  return [
    {
      method: "GET",
      path: "/protected",
      setupRequest(request) {
        const cookie = cookies[next]
        next = next + 1 === cookies.length ? 0 : next + 1
        return { ...request, headers: { ...request.headers, cookie } }
      },
    },
  ]
}

/**
 * GET /protected with `cookie`, tried again twice after a second when the request itself fails:
 * at N = 100 000 the servers are seeded side by side in this process, and sealing 100 000 cookies
 * can hold its event loop past fetch's connect timeout (a run lost a scenario to that).
 */
async function fetchProtected(origin, cookie) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(`${origin}/protected`, { headers: { cookie }, redirect: "manual" })
    } catch (error) {
      if (attempt === 3) throw new Error(`GET /protected failed: ${error.cause?.message ?? error.message}`, { cause: error })
      await new Promise((resume) => setTimeout(resume, 1000))
    }
  }
}

/** Throws unless each [cookie, email] answers 200 with that email. */
async function check(origin, pairs) {
  for (const [cookie, email] of pairs) {
    const response = await fetchProtected(origin, cookie)
    const text = await response.text()
    if (response.status !== 200 || !text.includes(email)) throw new Error(`GET /protected answered ${response.status} ${text.slice(0, 200)} (expected 200 with ${email})`)
  }
}

/**
 * Starts a scenario's server, trying again twice after a pause: on a shared machine another
 * process may be rebuilding dist/ at that moment (a half-written module fails the import).
 */
async function startWithRetries(scenario) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServer(scenario.server, scenario.env)
    } catch (error) {
      if (attempt === 3) throw error
      log(`  ${error.message}; trying again in 20 s`)
      await new Promise((resume) => setTimeout(resume, 20_000))
    }
  }
}

const results = [] // { n, id, round, ...measured } and { n, id, memory }
const failures = []

for (const n of settings.sizes) {
  const running = []
  try {
    // All servers of this N start and are seeded side by side (mostly waiting: module loading,
    // migrations, bulk inserts), then warmed one at a time.
    running.push(...scenarios.map((scenario) => ({ scenario })))
    await Promise.all(
      running.map(async (entry) => {
        const { scenario } = entry
        try {
          entry.server = await startWithRetries(scenario)
          const started = Date.now()
          const seeded = await scenario.seed({ origin: entry.server.origin, n })
          await check(entry.server.origin, seeded.check)
          entry.requests = roundRobin(seeded.cookies)
          log(`N=${n}: ${scenario.id} up, ${seeded.cookies.length} sessions seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`)
        } catch (error) {
          log(`N=${n}: ${scenario.id} failed: ${error.stack ?? error}`)
          failures.push({ n, id: scenario.id, failed: String(error.message ?? error).split("\n")[0] })
          entry.failed = true
        }
      }),
    )
    // One pass over the sessions (at most WARM_PASS requests) before any round: N active
    // sessions have all been seen before, as on a site where they are active.
    for (const entry of running) {
      if (entry.failed || n === 1) continue
      await load(entry.server, entry.requests, { connections: settings.connections, warmup: 0, amount: Math.min(n, WARM_PASS), okStatus: [200] })
    }
    for (let round = 1; round <= settings.rounds; round++) {
      for (const entry of running) {
        if (entry.failed) continue
        const { scenario, server, requests } = entry
        const waited = settings.settle ? await settle() : 0
        log(`N=${n} round ${round}/${settings.rounds}: ${scenario.id}${waited > 1000 ? ` (after ${(waited / 1000).toFixed(1)} s waiting for a quiet machine)` : ""}`)
        try {
          const measured = await load(server, requests, { ...settings, okStatus: [200] })
          if (measured.bad || measured.errors) log(`  ${measured.bad} bad responses, ${measured.errors} errors`)
          results.push({ n, id: scenario.id, round, ...measured })
        } catch (error) {
          log(`  failed: ${error.stack ?? error}`)
          failures.push({ n, id: scenario.id, round, failed: String(error.message ?? error).split("\n")[0] })
        }
      }
    }
    for (const entry of running) {
      if (entry.failed) continue
      try {
        results.push({ n, id: entry.scenario.id, memory: await entry.server.memory() })
      } catch (error) {
        log(`memory of ${entry.scenario.id}: ${error.message}`)
      }
    }
  } finally {
    await Promise.all(running.map(({ server }) => server?.stop()))
    await Promise.all(running.map(({ scenario }) => scenario.cleanup?.().catch((error) => log(`cleanup of ${scenario.id}: ${error.message}`))))
  }
}

const machine = {
  date: new Date().toISOString(),
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  pinned: pinned ? "load generator on core 0, each server on core 1" : "not pinned",
}
const summary = summariseActive(scenarios, settings.sizes, results)
const checks = smoke ? [] : activeTargets(summary)
const markdown = activeSessionsMarkdown({ machine, settings, summary, checks, failures })
console.log(`\n${markdown}\n`)

mkdirSync(outDir, { recursive: true })
const json = `${JSON.stringify({ machine, settings, summary, results, failures, targets: checks }, null, 2)}\n`
const stamp = machine.date.slice(0, 19).replace(/[:T]/g, "-")
for (const name of ["active-sessions-latest", `active-sessions-${stamp}`]) {
  writeFileSync(join(outDir, `${name}.json`), json)
  writeFileSync(join(outDir, `${name}.md`), `${markdown}\n`)
}
writeFileSync(join(outDir, "active-sessions.svg"), activeSessionsChart({ machine, settings, summary }))
log(`results written to ${outDir}`)

process.exit(failures.length ? 1 : 0)
