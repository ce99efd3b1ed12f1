// Profiles one active-sessions scenario (issue #36) at one N: `node bench/profile-active.js <id> <N> [seconds]`.
// The server runs with --cpu-prof (bench/results/profiles/); the functions with the most self
// time and the packages or folders they are in are printed, as bench/profile.js does.
import { mkdirSync, readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { load } from "./lib/load.js"
import { pinRunner, startServer } from "./lib/process.js"
import { printProfileSummary } from "./lib/profile-summary.js"
import scenarios from "./scenarios/active-sessions.js"

const [id, size = "10000", seconds = "10"] = process.argv.slice(2)
const scenario = scenarios.find((s) => s.id === id)
if (!scenario) throw new Error(`usage: node bench/profile-active.js <${scenarios.map((s) => s.id).join(" | ")}> [N] [seconds]`)
const dir = fileURLToPath(new URL("./results/profiles/", import.meta.url))
mkdirSync(dir, { recursive: true })

pinRunner()
const before = new Set(readdirSync(dir))
const server = await startServer(scenario.server, scenario.env, { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] })
let result
try {
  const { cookies } = await scenario.seed({ origin: server.origin, n: Number(size) })
  let next = 0
  const requests = [{ method: "GET", path: "/protected", setupRequest: (request) => ({ ...request, headers: { cookie: cookies[next++ % cookies.length] } }) }]
  result = await load(server, requests, { connections: 10, warmup: 2, duration: Number(seconds), okStatus: [200] })
} finally {
  await server.stop()
  await scenario.cleanup?.()
}
console.log(`${scenario.name}, N = ${size}: ${Math.round(result.requestsPerSecond)} req/s, ${Math.round(result.cpuPerRequest)} µs CPU/request, ${result.bad} bad`)

printProfileSummary(dir, before)
