// Browser tests: real Chromium (Debian package) driven by playwright-core. `npm run test:e2e`.
import { shared } from "./jest.config.js"

export default {
  ...shared,
  testMatch: ["<rootDir>/__tests__/e2e/**/*.test.ts"],
  testTimeout: 60_000,
  maxWorkers: 1,
}
