// The MongoDB adapter against a real server: `MONGODB_URI=mongodb://… npm run test:mongodb`.
// Runs the adapter contract (__tests__/mongodb/*.mongodb.ts, which `npm test` never picks up)
// and the MongoDB unit tests. No MongoDB server runs where this project is built and tested,
// so the URI is required: without it the run stops here, before any test.
import { shared } from "./jest.config.js"

if (!process.env.MONGODB_URI) {
  throw new Error(
    "jest.mongodb.config.js: MONGODB_URI is not set. Point it at a MongoDB server (a replica set also runs the transaction path), " +
      "e.g. MONGODB_URI=mongodb://127.0.0.1:27017 npm run test:mongodb. Each run creates and drops a database of its own.",
  )
}

export default {
  ...shared,
  testMatch: ["<rootDir>/__tests__/mongodb/**/*.mongodb.ts", "<rootDir>/__tests__/mongodb/**/*.test.ts"],
  testTimeout: 30_000,
  maxWorkers: 1,
}
