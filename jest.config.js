// Jest runs the TypeScript sources directly (ts-jest, ESM). Relative imports are written with a
// `.js` suffix as Node requires, so the mapper strips it; `gatehouse/*` maps to the sources so the
// examples are tested against the code in this checkout, not a stale build.
const shared = {
  preset: "ts-jest/presets/default-esm",
  // No test asserts a time: this only says when a test has hung. 5 s (Jest's default) is too
  // short for the ones that make 1 000 requests or drive real servers while the CI runs the
  // Express 4 and browser suites on the same 2 cores.
  testTimeout: 30_000,
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { useESM: true, tsconfig: "tsconfig.json" }] },
  moduleNameMapper: {
    "^gatehouse$": "<rootDir>/lib/index.ts",
    "^gatehouse/core$": "<rootDir>/lib/core/index.ts",
    "^gatehouse/jwt$": "<rootDir>/lib/jwt/index.ts",
    "^gatehouse/errors$": "<rootDir>/lib/errors.ts",
    "^gatehouse/providers/(.*)$": "<rootDir>/lib/providers/$1.ts",
    "^gatehouse/adapters/(.*)$": "<rootDir>/adapters/$1/index.ts",
    "^gatehouse/stores/(redis|redis-sessions)$": "<rootDir>/lib/shared-store/$1.ts",
    "^(\\.{1,2}/.*)\\.js$": "$1",
  },
}

export default {
  ...shared,
  // Two files at a time even on two cores (Jest's default there is one, in band): most files wait
  // on real servers, mail and timers, and each keeps its tables, keys and ports to itself.
  maxWorkers: 2,
  testMatch: ["<rootDir>/__tests__/**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/__tests__/e2e/", "<rootDir>/__tests__/resilience/"],
}

export { shared }
