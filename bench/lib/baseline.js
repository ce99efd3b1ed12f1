// --baseline <checkout> (bench/run.js, bench/active-sessions.js): each Gatehouse scenario again,
// its server taken from that checkout (built, its node_modules linked, so its `gatehouse` is its
// own build), measured in the same interleaved rounds as this one's: a change's before and after.
import { existsSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../", import.meta.url))

/** The Gatehouse scenarios of `scenarios` on `checkout`, as `<id>@before`. Throws when a server file is missing there. */
export function baselineScenarios(scenarios, checkout) {
  const before = scenarios
    .filter((scenario) => scenario.library === "gatehouse" && scenario.server.startsWith(root))
    .map((scenario) => ({ ...scenario, id: `${scenario.id}@before`, name: `${scenario.name}, before`, server: join(checkout, scenario.server.slice(root.length)) }))
  for (const scenario of before) if (!existsSync(scenario.server)) throw new Error(`--baseline: ${scenario.server} does not exist`)
  return before
}

/** A scenario id as `--only` names it (a baseline copy answers to its original's id). */
export const plainId = (id) => id.replace(/@before$/, "")
