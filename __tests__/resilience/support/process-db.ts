/**
 * PostgreSQL tables for the app processes: created here (once, before any app starts, so two
 * processes never race on CREATE TABLE), read directly for row checks, and dropped at the end.
 */
import { randomBytes } from "node:crypto"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "gatehouse/adapters/sql"
import { POSTGRES_URL } from "./process.js"

export interface TestTables {
  prefix: string
  adapter: SqlAdapterInstance
  drop(): Promise<void>
}

export async function createTables(label: string): Promise<TestTables> {
  const prefix = `res_${label}_${randomBytes(4).toString("hex")}_`
  const adapter = SqlAdapter(POSTGRES_URL, { tablePrefix: prefix })
  await migrate(adapter.db, { tablePrefix: prefix })
  return {
    prefix,
    adapter,
    async drop() {
      await dropTables(adapter.db, { tablePrefix: prefix })
      await adapter.close()
    },
  }
}
