// The integration suites again on Express 4 (`npm run test:express4`): `express` resolves to
// Express 4 (the `express4` alias in devDependencies) for the tests and for Gatehouse itself.
import { shared } from "./jest.config.js"

export default {
  ...shared,
  moduleNameMapper: { "^express$": "<rootDir>/node_modules/express4/index.js", ...shared.moduleNameMapper },
  testMatch: [
    "<rootDir>/__tests__/integration/**/*.test.ts",
    "<rootDir>/__tests__/examples/**/*.test.ts",
    "<rootDir>/__tests__/security/**/*.test.ts",
    "<rootDir>/__tests__/email/**/*.test.ts",
    "<rootDir>/__tests__/webauthn/**/*.test.ts",
  ],
}
