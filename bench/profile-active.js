// Profiles one active-sessions scenario (issue #36) at one N: `node bench/profile-active.js <id> <N> [seconds]`.
// The server runs with --cpu-prof (bench/results/profiles/); the functions with the most self
// time and the packages or folders they are in are printed, as bench/profile.js does.
import { mkdirSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { load } from "./lib/load.js"
import { pinRunner, startServer } from "./lib/process.js"
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

const file = readdirSync(dir).find((name) => !before.has(name) && name.endsWith(".cpuprofile"))
if (!file) throw new Error("the server wrote no profile")
const profile = JSON.parse(readFileSync(join(dir, file), "utf8"))
const self = new Map()
const byFile = new Map()
const total = profile.samples.length
const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
const counts = new Map()
for (const sample of profile.samples) counts.set(sample, (counts.get(sample) ?? 0) + 1)
for (const [nodeId, count] of counts) {
  const { callFrame } = nodes.get(nodeId)
  const where = callFrame.url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "") || "(native)"
  const key = `${callFrame.functionName || "(anonymous)"}  ${where}:${callFrame.lineNumber + 1}`
  self.set(key, (self.get(key) ?? 0) + count)
  const area = where.includes("node_modules/") ? where.split("node_modules/")[1].split("/").slice(0, where.includes("node_modules/@") ? 2 : 1).join("/") : where.startsWith("node:") ? "node internals" : where.split("/").slice(0, 3).join("/")
  byFile.set(area, (byFile.get(area) ?? 0) + count)
}
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([key, count]) => `${((count / total) * 100).toFixed(1).padStart(5)} %  ${key}`)
console.log(`\nself time by function (${file}):\n${top(self, 30).join("\n")}\n\nby package or folder:\n${top(byFile, 20).join("\n")}`)
