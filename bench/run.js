// The benchmark suite: every scenario's server in its own process, signed in through the library's
// own flow, loaded with autocannon; rounds interleaved so the ratios hold on a noisy machine.
//
//   npm run bench                      # 3 rounds, 3 s warm-up, 10 s measured
//   node bench/run.js --smoke          # 1 short round: keeps the suite working (CI)
//   node bench/run.js --only bare,gatehouse-require-auth --rounds 5
//   node bench/run.js --readme         # also puts the tables in docs/performance.md
//   node bench/run.js --baseline /tmp/old --only bare,gatehouse-require-auth
//                                      # also each Gatehouse scenario on another checkout (built,
//                                      # node_modules linked), in the same rounds: before and after
//
// Results: bench/results/latest.{json,md} and a dated copy (smoke runs write to the system temp).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { cpus, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { createTally, load } from "./lib/load.js"
import { pinRunner, startServer } from "./lib/process.js"
import { checkScenario } from "./lib/scenario.js"
import { baselineScenarios, plainId } from "./lib/baseline.js"
import { mainTable, memoryLine, summarise, targetTable, targets, telemetryLines } from "./lib/report.js"
import { jweMicro, jweTable } from "./micro/jwe.js"

const { values: args } = parseArgs({
  options: {
    smoke: { type: "boolean", default: false },
    rounds: { type: "string" },
    duration: { type: "string" },
    warmup: { type: "string" },
    connections: { type: "string", default: "10" },
    only: { type: "string" },
    baseline: { type: "string" },
    out: { type: "string" },
    readme: { type: "boolean", default: false },
    "no-memory": { type: "boolean", default: false },
    "no-micro": { type: "boolean", default: false },
  },
})

const smoke = args.smoke
const settings = {
  rounds: Number(args.rounds ?? (smoke ? 1 : 3)),
  duration: Number(args.duration ?? (smoke ? 1 : 10)),
  warmup: Number(args.warmup ?? (smoke ? 0.5 : 3)),
  connections: Number(args.connections),
  memoryReads: smoke ? 2_000 : 100_000,
  microIterations: smoke ? 500 : 20_000,
}
const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const outDir = args.out ?? (smoke ? join(tmpdir(), "gatehouse-bench") : here("./results"))

const modules = ["bare", "gatehouse", "telemetry", "password", "api-keys", "identity-provider", "authjs", "passport", "eoc"]
let scenarios = []
for (const name of modules) {
  const file = here(`./scenarios/${name}.js`)
  // With --only, a library whose scenarios are not written yet can be left out.
  if (args.only && !existsSync(file)) continue
  scenarios.push(...(await import(file)).default.map(checkScenario))
}
if (args.baseline) scenarios.push(...baselineScenarios(scenarios, args.baseline))
if (args.only) {
  const wanted = new Set(args.only.split(","))
  const unknown = [...wanted].filter((id) => !scenarios.some((scenario) => scenario.id === id))
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(", ")}; known: ${scenarios.map((s) => s.id).join(", ")}`)
  scenarios = scenarios.filter((scenario) => wanted.has(plainId(scenario.id)))
}

const pinned = pinRunner()
const log = (line) => process.stderr.write(`${line}\n`)

/** Starts a scenario's services and server, signs in, checks the loaded request works; `work`, then stops all. */
async function withScenario(scenario, work) {
  const services = scenario.services ? await scenario.services() : { env: {}, close: async () => {} }
  let server
  try {
    server = await startServer(scenario.server, { ...scenario.env, ...services.env })
    const prepared = await scenario.prepare({ origin: server.origin, env: services.env })
    await scenario.verify({ origin: server.origin, prepared })
    return await work(server, prepared)
  } finally {
    await server?.stop()
    await services.close()
  }
}

const okStatus = (scenario) => scenario.okStatus ?? (scenario.job === "signin" ? [200, 302] : [200])

const rounds = []
let serversPinned = true
for (let round = 1; round <= settings.rounds; round++) {
  const results = []
  for (const scenario of scenarios) {
    log(`round ${round}/${settings.rounds}: ${scenario.name}`)
    try {
      const measured = await withScenario(scenario, (server, prepared) => {
        serversPinned &&= server.pinned
        const tally = createTally()
        return load(server, scenario.requests(prepared, tally), { ...settings, okStatus: okStatus(scenario) }, tally)
      })
      if (measured.failures) log(`  responses that failed: ${JSON.stringify(measured.failures)}`)
      results.push({ id: scenario.id, ...measured })
    } catch (error) {
      log(`  failed: ${error.stack ?? error}`)
      results.push({ id: scenario.id, failed: String(error.message ?? error).split("\n")[0] })
    }
  }
  rounds.push(results)
}

/** Heap of a Gatehouse cookie-session server after GC, before and after many session reads. */
async function memoryCheck() {
  const scenario = scenarios.find((s) => s.id === "gatehouse-require-auth") ?? (await import("./scenarios/gatehouse.js")).default.map(checkScenario)[0]
  log(`memory: ${settings.memoryReads.toLocaleString("en-US")} session reads`)
  return withScenario(scenario, async (server, prepared) => {
    const requests = scenario.requests(prepared)
    const options = { ...settings, warmup: 0, okStatus: okStatus(scenario) }
    await load(server, requests, { ...options, amount: Math.min(10_000, settings.memoryReads) })
    const before = await server.heap()
    const reads = await load(server, requests, { ...options, amount: settings.memoryReads })
    const after = await server.heap()
    if (reads.bad || reads.errors) throw new Error(`${reads.bad} failed reads during the memory check`)
    return { reads: reads.total, before, after, growth: (after - before) / before }
  })
}

let failed = rounds.flat().some((entry) => entry.failed)
let memory
if (!args["no-memory"]) {
  try {
    memory = await memoryCheck()
  } catch (error) {
    log(`memory check failed: ${error.stack ?? error}`)
    failed = true
  }
}
const micro = args["no-micro"] ? undefined : await jweMicro({ iterations: settings.microIterations })

const summary = summarise(scenarios, rounds)
const checks = smoke ? [] : targets(summary, memory)
const machine = {
  date: new Date().toISOString(),
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  pinned: pinned && serversPinned ? "load generator on core 0, each server on core 1" : "not pinned",
}
const describeRun = `${settings.rounds} interleaved round(s), ${settings.warmup} s warm-up + ${settings.duration} s measured, ${settings.connections} connections; medians over rounds, ratios taken within each round`

const markdown = [
  `Measured ${machine.date.slice(0, 10)} on ${machine.cores} × ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node} (${machine.pinned}); ${describeRun}.`,
  "",
  mainTable(summary),
  ...telemetryLines(summary),
  ...(memory ? ["", memoryLine(memory)] : []),
  ...(micro ? ["", jweTable(micro)] : []),
  ...(checks.length ? ["", targetTable(checks)] : []),
].join("\n")

console.log(`\n${markdown}\n`)

mkdirSync(outDir, { recursive: true })
const json = JSON.stringify({ machine, settings, summary: summary.map(({ ratioTo: _ratioTo, ...row }) => row), rounds, memory, micro, targets: checks }, null, 2)
const stamp = machine.date.slice(0, 19).replace(/[:T]/g, "-")
for (const name of ["latest", stamp]) {
  writeFileSync(join(outDir, `${name}.json`), `${json}\n`)
  writeFileSync(join(outDir, `${name}.md`), `${markdown}\n`)
}
log(`results written to ${outDir}`)

if (args.readme) {
  const readmePath = here("../docs/performance.md")
  const readme = readFileSync(readmePath, "utf8")
  const start = "<!-- bench:start -->"
  const end = "<!-- bench:end -->"
  if (!readme.includes(start) || !readme.includes(end)) throw new Error(`docs/performance.md has no ${start} … ${end} section`)
  writeFileSync(readmePath, readme.replace(new RegExp(`${start}[\\s\\S]*${end}`), `${start}\n${markdown}\n${end}`))
  log("docs/performance.md updated")
}

process.exit(failed ? 1 : 0)
