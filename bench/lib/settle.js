// Waits for a quiet machine before a measurement (issue #36). Seeding leaves work behind in the
// databases (PostgreSQL's autovacuum and checkpoints, InnoDB's purge) and in the servers (a major
// collection), on the same two cores the measured server and the load generator use, and a round
// measured over it reads its server as slower than it is, in whichever scenario it falls on.
import { readFileSync } from "node:fs"

/** Busy and total CPU time of the whole machine so far (jiffies), or undefined without /proc/stat. */
function machineCpu() {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n", 1)[0].trim().split(/\s+/).slice(1).map(Number)
    const idle = fields[3] + (fields[4] ?? 0)
    const total = fields.reduce((sum, value) => sum + value, 0)
    return { busy: total - idle, total }
  } catch {
    return undefined
  }
}

/**
 * Resolves once at most `busy` of the machine's CPU was in use over the last `windowMs`, or after
 * `limitMs` in any case, to the milliseconds waited (undefined where the machine cannot tell).
 */
export async function settle({ busy = 0.1, windowMs = 500, limitMs = 20_000 } = {}) {
  const started = Date.now()
  let before = machineCpu()
  if (!before) return undefined
  for (;;) {
    await new Promise((resume) => setTimeout(resume, windowMs))
    const after = machineCpu()
    const share = (after.busy - before.busy) / Math.max(1, after.total - before.total)
    if (share <= busy || Date.now() - started >= limitMs) return Date.now() - started
    before = after
  }
}
