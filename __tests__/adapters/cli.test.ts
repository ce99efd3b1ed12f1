/** `gatehouse migrate <url>`: the command-line migration, on a SQLite file and on PostgreSQL. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { jest } from "@jest/globals"
import Database from "better-sqlite3"
import { main } from "../../adapters/sql/cli.js"
import { SqlAdapter, dropTables } from "../../adapters/sql/index.js"
import { DATABASES, uniquePrefix } from "../helpers/databases.js"

function captureConsole() {
  const out: string[] = []
  const log = jest.spyOn(console, "log").mockImplementation((...args) => void out.push(args.join(" ")))
  const error = jest.spyOn(console, "error").mockImplementation((...args) => void out.push(args.join(" ")))
  return { out, restore: () => (log.mockRestore(), error.mockRestore()) }
}

describe("gatehouse migrate", () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "gatehouse-cli-"))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test("creates the tables in a SQLite file, then reports the schema up to date", async () => {
    const file = join(dir, "app.db")
    const console = captureConsole()
    try {
      expect(await main(["migrate", `sqlite:${file}`])).toBe(0)
      expect(await main(["migrate", `sqlite:${file}`])).toBe(0)
    } finally {
      console.restore()
    }
    expect(console.out).toEqual(["Applied: 0001_initial, 0002_session_facts, 0003_two_factor, 0004_passwords, 0005_passkey_details, 0006_cookie_sessions, 0007_organizations, 0008_sso, 0009_scim, 0010_admin, 0011_api_keys, 0012_identity_provider", "The schema is up to date."])
    const sqlite = new Database(file)
    const tables = sqlite.prepare("select name from sqlite_master where type = 'table'").all() as Array<{ name: string }>
    sqlite.close()
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["users", "accounts", "sessions", "verification_tokens", "authenticators"]))
  })

  test("applies a table prefix on PostgreSQL", async () => {
    const prefix = uniquePrefix("cli")
    const console = captureConsole()
    const adapter = SqlAdapter(DATABASES.postgres, { tablePrefix: prefix })
    try {
      expect(await main(["migrate", DATABASES.postgres, "--table-prefix", prefix])).toBe(0)
      const user = await adapter.createUser({ id: "cli-user", email: "cli@example.com", emailVerified: null })
      expect(await adapter.getUser(user.id)).toMatchObject({ email: "cli@example.com" })
    } finally {
      console.restore()
      await dropTables(adapter.db, { tablePrefix: prefix })
      await adapter.close()
    }
  })

  test("a usage error exits 2 with the usage, an unusable URL exits 1 with the reason", async () => {
    const console = captureConsole()
    try {
      expect(await main([])).toBe(2)
      expect(await main(["migrate", "sqlite::memory:", "--force"])).toBe(2)
      expect(await main(["migrate", "oracle://db"])).toBe(1)
    } finally {
      console.restore()
    }
    expect(console.out.join("\n")).toMatch(/Usage: gatehouse migrate/)
    expect(console.out.join("\n")).toMatch(/gatehouse migrate failed: SqlAdapter: unsupported database URL/)
  })
})
