#!/usr/bin/env node
/**
 * `npx gatehouse migrate <url> [--table-prefix <prefix>]`: creates or updates Gatehouse's tables.
 * Exits 0 when the schema is up to date, 1 on failure, 2 on a usage error.
 * `npx gatehouse secret`: prints a new random AUTH_SECRET (33 random bytes, base64).
 */
import { randomBytes } from "node:crypto"
import { migrate } from "./index.js"

const USAGE = `Usage: gatehouse migrate <database-url> [--table-prefix <prefix>]
       gatehouse secret

  <database-url>   postgres://user@host/db, mysql://user@host/db, sqlite:<file> or sqlite::memory:

migrate: creates or updates the tables of the SQL adapter (users, accounts, sessions,
verification_tokens, authenticators).
secret: prints a new random secret for AUTH_SECRET (33 random bytes in base64, 44 characters).`

/** 33 random bytes: 44 base64 characters without padding, well over the 32 bytes production asks for. */
export function newSecret(): string {
  return randomBytes(33).toString("base64")
}

export async function main(argv: string[]): Promise<number> {
  const [command, url, ...rest] = argv
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(USAGE)
    return 0
  }
  if (command === "secret" && url === undefined) {
    console.log(newSecret())
    return 0
  }
  if (command !== "migrate" || !url) {
    console.error(USAGE)
    return 2
  }
  let tablePrefix: string | undefined
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--table-prefix" && rest[i + 1] !== undefined) tablePrefix = rest[++i]
    else {
      console.error(`Unknown argument: ${rest[i]}\n\n${USAGE}`)
      return 2
    }
  }
  try {
    const applied = await migrate(url, { tablePrefix })
    console.log(applied.length ? `Applied: ${applied.join(", ")}` : "The schema is up to date.")
    return 0
  } catch (error) {
    console.error(`gatehouse migrate failed: ${(error as Error).message}`)
    return 1
  }
}

// Run when executed (npx gatehouse ...), not when imported by tests.
const invoked = process.argv[1] ?? ""
if (/(^|[\\/])(gatehouse|cli\.js)$/.test(invoked)) {
  main(process.argv.slice(2)).then((code) => process.exit(code))
}
