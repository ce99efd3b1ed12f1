// The fault and load runs, longest first: two workers share them, and the timing runs (hundreds of
// scrypt hashes one at a time) and the load runs take minutes each, so starting them last would
// leave one worker running alone at the end. Jest's own order (by the durations it cached from an
// earlier run, else by file size) decides among the rest; a clean CI machine has no such cache.
import DefaultSequencer from "@jest/test-sequencer"

const LONGEST = ["timing-password", "load-churn", "load-sessions", "timing-credentials", "scale-token-refresh", "timing-email"]

const rank = (path) => {
  const index = LONGEST.findIndex((name) => path.endsWith(`/${name}.test.ts`))
  return index === -1 ? LONGEST.length : index
}

export default class LongestFirst extends (DefaultSequencer.default ?? DefaultSequencer) {
  async sort(tests) {
    const ordered = await super.sort(tests)
    return [...ordered].sort((a, b) => rank(a.path) - rank(b.path))
  }
}
