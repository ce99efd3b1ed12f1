// Redraws the active-sessions chart (issue #36) from a results file:
//   node bench/chart.js [bench/results/active-sessions-latest.json] [bench/results/active-sessions.svg]
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { activeSessionsChart } from "./lib/chart.js"

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const [from = here("./results/active-sessions-latest.json"), to = here("./results/active-sessions.svg")] = process.argv.slice(2)
writeFileSync(to, activeSessionsChart(JSON.parse(readFileSync(from, "utf8"))))
console.log(`wrote ${to}`)
