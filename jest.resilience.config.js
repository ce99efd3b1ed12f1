// Fault and load runs (SECURITY-CATALOG.md §14-15): a private PostgreSQL cluster and Redis server
// stopped and started, loopback load with autocannon, several app processes. `npm run test:resilience`;
// CI runs it beside `npm test`. Slow and machine-dependent, so not part of `npm test`.
import { shared } from "./jest.config.js"

export default {
  ...shared,
  testMatch: ["<rootDir>/__tests__/resilience/**/*.test.ts"],
  testTimeout: 240_000,
  // Two files at a time: each starts its own servers (private PostgreSQL cluster, Redis, app
  // processes) on free ports, and the longest (the timing runs) wait on scrypt one try at a time.
  maxWorkers: 2,
  testSequencer: "<rootDir>/jest.resilience.sequencer.js",
}
