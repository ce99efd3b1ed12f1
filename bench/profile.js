// Profiles one scenario's server under load: `node bench/profile.js <scenario id> [seconds]`.
// The server runs with --cpu-prof; the profile is written to bench/results/profiles/ and the
// functions with the most self time (and the files they are in) are printed.
import { mkdirSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { createTally, load } from "./lib/load.js"
import { pinRunner, startServer } from "./lib/process.js"
import { checkScenario } from "./lib/scenario.js"

const [id, seconds = "10"] = process.argv.slice(2)
if (!id) throw new Error("usage: node bench/profile.js <scenario id> [seconds]")
const dir = fileURLToPath(new URL("./results/profiles/", import.meta.url))
mkdirSync(dir, { recursive: true })

let scenario
for (const name of ["bare", "gatehouse", "api-keys", "identity-provider", "authjs", "passport", "eoc"]) {
  try {
    scenario ??= (await import(`./scenarios/${name}.js`)).default.map(checkScenario).find((s) => s.id === id)
  } catch {
    // a library whose scenarios are not there is skipped
  }
}
if (!scenario) throw new Error(`no scenario ${id}`)

pinRunner()
const before = new Set(readdirSync(dir))
const services = scenario.services ? await scenario.services() : { env: {}, close: async () => {} }
const server = await startServer(scenario.server, { ...scenario.env, ...services.env }, { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] })
const prepared = await scenario.prepare({ origin: server.origin, env: services.env })
await scenario.verify({ origin: server.origin, prepared })
const tally = createTally()
const result = await load(server, scenario.requests(prepared, tally), { connections: 10, warmup: 2, duration: Number(seconds), okStatus: [200, 302] }, tally)
await server.stop()
await services.close()
console.log(`${scenario.name}: ${Math.round(result.requestsPerSecond)} req/s, ${Math.round(result.cpuPerRequest)} µs CPU/request`)

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
