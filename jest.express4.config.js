// The suites where the Express version changes what happens, again on Express 4
// (`npm run test:express4`): `express` resolves to Express 4 (the `express4` alias in
// devDependencies) for the tests and for Gatehouse itself. That is the router and the request and
// response objects: mounting, middleware order, every action over HTTP, the examples, and the
// security suites about what arrives in a request (query and body parsing, hosts, cookies,
// headers, redirects, CSRF). The provider, mail and passkey suites run the same Gatehouse code
// behind those actions; they run on Express 5 in `npm test`.
import { shared } from "./jest.config.js"

export default {
  ...shared,
  maxWorkers: 1,
  moduleNameMapper: { "^express$": "<rootDir>/node_modules/express4/index.js", ...shared.moduleNameMapper },
  testMatch: [
    "<rootDir>/__tests__/integration/**/*.test.ts",
    "<rootDir>/__tests__/examples/**/*.test.ts",
    ...["hostile-params", "input", "fuzz", "csrf", "redirect", "host", "cookies", "headers", "session-chunks", "xss"].map((name) => `<rootDir>/__tests__/security/${name}.test.ts`),
  ],
}
