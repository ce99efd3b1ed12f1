// Profiles one scenario's server under load: `node bench/profile.js <scenario id> [seconds]`.
// The server runs with --cpu-prof; the profile is written to bench/results/profiles/ and the
// functions with the most self time (and the files they are in) are printed.
import { mkdirSync, readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { createTally, load } from "./lib/load.js"
import { pinRunner, startServer } from "./lib/process.js"
import { printProfileSummary } from "./lib/profile-summary.js"
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

printProfileSummary(dir, before)
